/**
 * The probe tick's memory size. A tick whose config changed plans the region's requests
 * before it sends (planProbes + shardCountForPlan + the messages), and that is CPU: measured
 * ~36 µs per request at one full vCPU (3.6 s for 100,000), i.e. ~50 s at 128 MB (0.07 vCPU),
 * past the tick's 20 s timeout. So the tick gets the vCPU share that plans the most requests
 * the deployment can carry (2,000 per shard × `maxProbeShards`) within `TICK_PLAN_BUDGET_MS`,
 * and never less than 128 MB. An unchanged config keeps its plan (the warm tick plans only
 * after a change), so the size matters once per change; the rest of a tick is a few ms
 * plus its wait for the next whole second. docs/adr/0001-probe-cadence.md, "Starting on time".
 */
import { LAMBDA_MB_PER_VCPU } from './shard-capacity.js';
import { SHARD_CAPACITY } from './shards.js';

/** CPU ms per planned request at one full vCPU, rounded up from the bench's 0.036. */
export const PLAN_CPU_MS_PER_REQUEST = 0.04;
/** Planning may take half the tick's 20 s timeout (the rest: reads, the wait, the sends, a loaded host). */
export const TICK_PLAN_BUDGET_MS = 10_000;
export const MIN_TICK_MEMORY_MB = 128;

/** The tick's memory (MB, a multiple of 64) for a region of at most `maxProbeShards` shards. */
export function tickMemoryMbFor(maxProbeShards: number): number {
  const planCpuMs = maxProbeShards * SHARD_CAPACITY * PLAN_CPU_MS_PER_REQUEST;
  const memoryMb = (planCpuMs / TICK_PLAN_BUDGET_MS) * LAMBDA_MB_PER_VCPU;
  return Math.max(MIN_TICK_MEMORY_MB, Math.ceil(memoryMb / 64) * 64);
}
