/**
 * How much one probe shard carries: every probe of a round must start on time, and a round's
 * starts are CPU-bound. A round's probes may start within the room its longest timeout leaves
 * (0.5 s for a 10 s round, 19.5 s for a 30 s one) and at most 1 s late, so a shard may spend
 * half of that of one vCPU's time on a round (`roundCpuBudgetMs`). A request costs its
 * protocol's CPU per probe (`PROBE_CPU_MS`: HTTPS ≫ HTTP > TCP), counted in the rounds it is
 * due in; the memory size buys the vCPU share (Lambda: one vCPU per 1,769 MB; a shard probes on
 * one thread, so no more than one). docs/adr/0001-probe-cadence.md, "Shard size", has the figures.
 */
import { DEFAULTS } from '../profile/defaults.js';
import { FAST_INTERVAL_MS, SPREAD_MARGIN_MS } from './round-schedule.js';
import { shardCountFor } from './shards.js';
import type { ProbeProtocol } from '../profile/types.js';
import type { PlannedProbe } from './target.js';

/** Lambda gives one vCPU's worth of CPU time per 1,769 MB of memory. */
export const LAMBDA_MB_PER_VCPU = 1_769;

/** CPU ms per probe at one full vCPU, warmed up, worker included, rounded up from the bench (docs/cost.md). */
export const PROBE_CPU_MS: Readonly<Record<ProbeProtocol, number>> = { HTTP: 0.2, HTTPS: 0.7, TCP: 0.1 };

/** A probe starts at most this long after its own due time (its round's due time + its place in the spread). */
const START_LATENESS_TARGET_MS = 1_000;

/**
 * The headroom a shard keeps over what it expects a round's CPU to be: it may spend half of
 * what its probes may take to start (`roundCpuBudgetMs`), and it spreads them over twice its
 * expected start time (`startSpanMs`), so a round that costs up to twice the expectation (a
 * major GC, a noisy host) still starts every probe on time.
 */
const CPU_HEADROOM = 2;

/**
 * How long a shard of `memoryMb` expects to need to start a round's probes: `predictedCpuMs`
 * (the constants' `roundCpuMs`) at its measured CPU scale and vCPU share, with `CPU_HEADROOM`.
 * The round's spread is never shorter (spreadWindowMs).
 */
export function startSpanMs(predictedCpuMs: number, cpuScale: number, memoryMb: number): number {
  return (CPU_HEADROOM * predictedCpuMs * cpuScale) / vcpusOf(memoryMb);
}

/**
 * The longest timeout a round of `roundPeriodMs` may have to leave room for: its interval's
 * largest allowed (9 s at 10 s, 10 s at 30 s); an unknown period leaves no room.
 */
export function longestTimeoutMsOf(roundPeriodMs: number): number {
  const byInterval: Readonly<Record<number, number>> = DEFAULTS.timeoutInSeconds;
  const seconds = byInterval[roundPeriodMs / 1000];
  return seconds === undefined ? roundPeriodMs : seconds * 1000;
}

/** The vCPUs a shard of `memoryMb` probes on: its share below 1,769 MB, one above (a shard probes on one thread). */
export function vcpusOf(memoryMb: number): number {
  if (!Number.isFinite(memoryMb) || memoryMb <= 0)
    throw new RangeError(`memoryMb must be > 0, got ${memoryMb}`);
  return Math.min(1, memoryMb / LAMBDA_MB_PER_VCPU);
}

/**
 * The CPU time (ms, at one vCPU) a shard of `memoryMb` may spend on one round of
 * `roundPeriodMs`: half of what its probes may take to start — the compact spread's room
 * (the period less its longest timeout and the margin) plus the lateness target — a 2×
 * headroom for heartbeats, writes, GC and a loaded host. At one vCPU: 750 ms for a 10 s round,
 * 10,250 ms for a 30 s one.
 */
export function roundCpuBudgetMs(memoryMb: number, roundPeriodMs = FAST_INTERVAL_MS): number {
  const roomMs = Math.max(0, roundPeriodMs - longestTimeoutMsOf(roundPeriodMs) - SPREAD_MARGIN_MS);
  return ((roomMs + START_LATENESS_TARGET_MS) / CPU_HEADROOM) * vcpusOf(memoryMb);
}

/**
 * The CPU time (ms, at one vCPU) a round of `roundPeriodMs` spends on these probes: each
 * probe's protocol cost, times the share of rounds it is due in (a 30 s probe in 10 s rounds:
 * one round in three, spread evenly by its offset).
 */
export function roundCpuMs(
  probes: readonly Pick<PlannedProbe, 'protocol' | 'intervalMs'>[],
  roundPeriodMs: number,
): number {
  let total = 0;
  for (const probe of probes)
    total += PROBE_CPU_MS[probe.protocol] * Math.min(1, roundPeriodMs / probe.intervalMs);
  // To the µs: a sum of 10,000 × 0.2 is 2,000.0000000003, which would count a shard too many at a budget's exact multiple.
  return Math.round(total * 1_000) / 1_000;
}

/**
 * The probe functions' memory size unless `probeMemorySize` says otherwise: one full vCPU (ADR 0001, "Shard size").
 * @alias the same figure as LAMBDA_MB_PER_VCPU, named for what it sets
 */
export const DEFAULT_PROBE_MEMORY_MB = LAMBDA_MB_PER_VCPU;

/** What sizing needs of a region's plan: its request count, round period and one round's predicted CPU (`roundCpuMs`). */
export interface PlanLoad {
  readonly requests: number;
  readonly roundPeriodMs: number;
  readonly roundCpuMs: number;
}

export function planLoadOf(
  probes: readonly Pick<PlannedProbe, 'protocol' | 'intervalMs'>[],
  roundPeriodMs: number,
): PlanLoad {
  return { requests: probes.length, roundPeriodMs, roundCpuMs: roundCpuMs(probes, roundPeriodMs) };
}

/**
 * How many shards a region runs for its load: enough for the request count
 * (`SHARD_CAPACITY`) and for one round's CPU — the constants' prediction times `cpuScale`,
 * the shards' measured scale (shared/probe/cpu-scale.ts; 1 before any measurement) — at
 * `memoryMb`, at most `maxShards`.
 */
export function shardCountForLoad(
  load: PlanLoad,
  maxShards: number,
  memoryMb = DEFAULT_PROBE_MEMORY_MB,
  cpuScale = 1,
): number {
  const byRequests = shardCountFor(load.requests, maxShards);
  const byCpu = shardCountFor(
    load.roundCpuMs * cpuScale,
    maxShards,
    roundCpuBudgetMs(memoryMb, load.roundPeriodMs),
  );
  return Math.max(byRequests, byCpu);
}
