/** The tick's messages for these definitions, planned and timed in one call (tests). */
import { tickMessagesOf, tickPlan, type TickResult } from '../../functions/probe/tick.js';
import { DEFAULT_PROBE_MEMORY_MB } from '../../shared/probe/shard-capacity.js';
import type { Profile } from '../../shared/profile/types.js';

export function tickMessages(
  profiles: readonly Profile[],
  region: string,
  defaultProbeRegions: readonly string[],
  sendAt: number,
  maxShards = 1,
  probeMemoryMb = DEFAULT_PROBE_MEMORY_MB,
  enqueuedUntil?: number,
): TickResult {
  return tickMessagesOf(
    tickPlan(profiles, region, defaultProbeRegions, maxShards, probeMemoryMb),
    sendAt,
    enqueuedUntil,
  );
}
