/**
 * The probe tick's memory size. A tick whose config changed (or a new container) reads the
 * whole config and plans the region's requests before it sends (`cachedEffectiveConfig`, then
 * planProbes + shardCountForLoad + the messages), and both are CPU: ~1.7–1.9 s for 100,000
 * requests at one full vCPU (the constants below), ~25 s at 128 MB (0.07 vCPU), past the
 * tick's 20 s timeout. So the tick gets the vCPU share that reads and plans the most requests
 * the deployment can carry (2,000 per shard × `maxProbeShards`) within `TICK_PLAN_BUDGET_MS`,
 * and never less than 128 MB. An unchanged config keeps its plan (the warm tick plans only
 * after a change), so the size matters once per change; the rest of a tick is a few ms plus
 * its wait for the next whole second. docs/adr/0001-probe-cadence.md, "The tick's memory".
 */
import { LAMBDA_MB_PER_VCPU } from './shard-capacity.js';
import { SHARD_CAPACITY } from './shards.js';

/**
 * CPU ms of a full config read per request at one full vCPU, rounded up from the bench's
 * 4.5–9.4 µs (`cachedEffectiveConfig`'s first read of 10,000 endpoints on DynamoDB Local;
 * one request per endpoint).
 */
export const READ_CPU_MS_PER_REQUEST = 0.01;
/** CPU ms per planned request at one full vCPU, rounded up from the bench's 11–14 µs (`tickPlan` of 100,000). */
export const PLAN_CPU_MS_PER_REQUEST = 0.02;
/** Reading and planning may take half the tick's 20 s timeout (the rest: the wait, the sends, a loaded host). */
export const TICK_PLAN_BUDGET_MS = 10_000;
export const MIN_TICK_MEMORY_MB = 128;

/** The tick's memory (MB, a multiple of 64) for a region of at most `maxProbeShards` shards. */
export function tickMemoryMbFor(maxProbeShards: number): number {
  const requests = maxProbeShards * SHARD_CAPACITY;
  const cpuMs = requests * (READ_CPU_MS_PER_REQUEST + PLAN_CPU_MS_PER_REQUEST);
  const memoryMb = (cpuMs / TICK_PLAN_BUDGET_MS) * LAMBDA_MB_PER_VCPU;
  return Math.max(MIN_TICK_MEMORY_MB, Math.ceil(memoryMb / 64) * 64);
}
