/**
 * The probe tick's memory size. After a config change the tick reads the whole config and
 * plans the region before it sends, which is CPU, so it gets the vCPU share that reads and
 * plans the most requests the deployment can carry (2,000 per shard × `maxProbeShards`)
 * within `TICK_PLAN_BUDGET_MS`, and never less than 128 MB (the figures: docs/cost.md,
 * "Large fleets"; docs/adr/0001-probe-cadence.md, "The tick's memory").
 */
import { LAMBDA_MB_PER_VCPU } from './shard-capacity.js';
import { SHARD_CAPACITY } from './shards.js';

/** CPU ms of a full config read per request at one full vCPU, rounded up from the bench (docs/cost.md). */
export const READ_CPU_MS_PER_REQUEST = 0.01;
/** CPU ms per planned request at one full vCPU, rounded up from the bench (docs/cost.md). */
export const PLAN_CPU_MS_PER_REQUEST = 0.02;
/** Reading and planning may take half the tick's 20 s timeout (the rest: the wait, the sends, a loaded host). */
export const TICK_PLAN_BUDGET_MS = 10_000;
const MIN_TICK_MEMORY_MB = 128;

/** The tick's memory (MB, a multiple of 64) for a region of at most `maxProbeShards` shards. */
export function tickMemoryMbFor(maxProbeShards: number): number {
  const requests = maxProbeShards * SHARD_CAPACITY;
  const cpuMs = requests * (READ_CPU_MS_PER_REQUEST + PLAN_CPU_MS_PER_REQUEST);
  const memoryMb = (cpuMs / TICK_PLAN_BUDGET_MS) * LAMBDA_MB_PER_VCPU;
  return Math.max(MIN_TICK_MEMORY_MB, Math.ceil(memoryMb / 64) * 64);
}
