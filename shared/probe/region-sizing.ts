/**
 * How big a probe region's deployment is: its probe functions' memory size and the most shards
 * it may split into, chosen from the region's planned requests — known at synth, since the
 * definitions are code — by the monthly cost model (docs/cost.md; docs/adr/0001-probe-cadence.md,
 * "Shard size").
 *
 * A round is billed for its wall time at the memory size: its probes' start (CPU, at the
 * memory's share of a vCPU, or the spread window if longer) plus the wait for its slowest
 * answer. A small region's round is mostly that wait, which costs less at less memory; a large
 * one is CPU-bound, costs about the same at any size, and takes fewer shards (each with its
 * queue's polling and an alarm) at more. The model prices each size at the CPU scale the
 * deployment must absorb without a redeploy (`SIZING_CPU_SCALE`) and takes the cheapest;
 * the shards that scale needs at that size are the most the region may use. The probe tick
 * then runs as many of them as the shards' measured CPU asks for (cpu-scale.ts).
 */
import {
  IDLE_POLL_REQUESTS_PER_MINUTE,
  lambdaInvocationCost,
  MINUTES_PER_MONTH,
  PRICE,
  REMOTE_PROBE_MS,
} from '../cost/prices.js';
import { COMPACT_SPREAD, spreadWindowMs } from './round-schedule.js';
import {
  LAMBDA_MB_PER_VCPU,
  longestTimeoutMsOf,
  shardCountForLoad,
  startSpanMs,
  vcpusOf,
  type PlanLoad,
} from './shard-capacity.js';
import { MAX_PROBE_SHARDS } from './shards.js';

/**
 * The sizes chosen among. Not below 512 MB: a shard's process holds the region's whole plan
 * (below); not above one vCPU: a shard probes on one thread, so more memory buys no more CPU
 * it can use (ADR 0001, "Every core: considered, removed").
 */
export const PROBE_MEMORY_CHOICES_MB: readonly number[] = [512, 1_024, LAMBDA_MB_PER_VCPU];

/**
 * The CPU scale (a shard's CPU per probe against the constants' `PROBE_CPU_MS`) a deployment is
 * sized for: the most the benchmark's shards measured, rounded up (docs/cost.md, "Sizing a region").
 */
export const SIZING_CPU_SCALE = 6;

/**
 * A shard's peak RSS grows with the region's requests (each shard plans the whole region), fitted
 * to the fleet bench (docs/cost.md, "Sizing a region"); a size is chosen only with half of it to spare.
 */
const RSS_BASE_MB = 180;
const RSS_PER_REQUEST_MB = 0.0026;
const RSS_HEADROOM = 1.5;

export interface RegionSizing {
  readonly memoryMb: number;
  /** The most shards the region may use: what `SIZING_CPU_SCALE` needs at `memoryMb` (or the given cap). */
  readonly maxShards: number;
  /** Shards the region needs by the per-protocol constants alone, at `memoryMb` (before any measurement). */
  readonly shardsAtConstants: number;
  /** The model's monthly cost of the region's rounds at `SIZING_CPU_SCALE` (its shards all used). */
  readonly monthlyCost: number;
}

/**
 * One shard's round, billed: its probes' start (`cpuMs` at one vCPU, at the memory's share)
 * or its spread (never shorter than twice that start: `startSpanMs`, within the round's room),
 * whichever is longer, plus `slowestMs` for its slowest answer.
 */
export function roundBilledMs(
  requests: number,
  cpuMs: number,
  memoryMb: number,
  roundPeriodMs: number,
  slowestMs = REMOTE_PROBE_MS,
): number {
  const window = spreadWindowMs(
    COMPACT_SPREAD,
    roundPeriodMs,
    requests,
    longestTimeoutMsOf(roundPeriodMs),
    startSpanMs(cpuMs, 1, memoryMb),
  );
  return Math.max(window, cpuMs / vcpusOf(memoryMb)) + slowestMs;
}

/** A used shard's month: its rounds, their queue receive and delete, its queue's idle polling, its alarm. */
export function shardMonthlyCost(
  requests: number,
  cpuMsPerRound: number,
  memoryMb: number,
  roundPeriodMs: number,
): number {
  const rounds = (MINUTES_PER_MONTH * 60_000) / roundPeriodMs;
  const perRound =
    lambdaInvocationCost(roundBilledMs(requests, cpuMsPerRound, memoryMb, roundPeriodMs), memoryMb) +
    2 * PRICE.sqsRequest;
  return (
    rounds * perRound +
    MINUTES_PER_MONTH * IDLE_POLL_REQUESTS_PER_MINUTE * PRICE.sqsRequest +
    PRICE.alarmMonth
  );
}

/** A cap that caps nothing: what a load needs, however many. */
const UNCAPPED = Number.MAX_SAFE_INTEGER;

function fits(memoryMb: number, requests: number): boolean {
  return memoryMb >= RSS_HEADROOM * (RSS_BASE_MB + RSS_PER_REQUEST_MB * requests);
}

/**
 * The region's memory size and most shards. `memoryMb` or `maxShards` given (the construct's
 * props) are kept; the other follows from them. Among the sizes whose shards fit the cap the
 * cheapest wins; when none fits, the largest (the most CPU per shard).
 */
export function sizeProbeRegion(
  load: PlanLoad,
  given: { readonly memoryMb?: number; readonly maxShards?: number } = {},
): RegionSizing {
  const cap = given.maxShards ?? MAX_PROBE_SHARDS;
  const roomy = PROBE_MEMORY_CHOICES_MB.filter((memoryMb) => fits(memoryMb, load.requests));
  const sizes =
    given.memoryMb !== undefined
      ? [given.memoryMb]
      : roomy.length > 0
        ? roomy
        : [Math.max(...PROBE_MEMORY_CHOICES_MB)];
  const priced = sizes.map((memoryMb) => {
    const needed = shardCountForLoad(load, UNCAPPED, memoryMb, SIZING_CPU_SCALE);
    const shards = Math.min(needed, cap);
    const monthlyCost =
      shards *
      shardMonthlyCost(
        load.requests / shards,
        (load.roundCpuMs * SIZING_CPU_SCALE) / shards,
        memoryMb,
        load.roundPeriodMs,
      );
    return { memoryMb, shards, fitsCap: needed <= cap, monthlyCost };
  });
  const fitting = priced.filter((p) => p.fitsCap);
  const chosen =
    fitting.length > 0
      ? fitting.reduce((best, p) => (p.monthlyCost < best.monthlyCost ? p : best))
      : priced.reduce((largest, p) => (p.memoryMb > largest.memoryMb ? p : largest));
  return {
    memoryMb: chosen.memoryMb,
    maxShards: given.maxShards ?? chosen.shards,
    shardsAtConstants: shardCountForLoad(load, UNCAPPED, chosen.memoryMb),
    monthlyCost: chosen.monthlyCost,
  };
}
