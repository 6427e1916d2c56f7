/**
 * How much one probe shard carries: every probe of a round must start on time, and a round's
 * starts are CPU-bound. The compact spread starts a 10 s round's probes within 0.5 s (the
 * room its 9 s timeout leaves) and the start-lateness target is 1 s, so a shard may spend
 * `ROUND_CPU_BUDGET_MS` of one vCPU's time on a round. A request costs its protocol's CPU per
 * probe (`PROBE_CPU_MS`: HTTPS ≫ HTTP > TCP), counted in the rounds it is due in; the
 * memory size buys the vCPU share (Lambda: one vCPU per 1,769 MB; the probe pool runs one
 * thread per whole vCPU). docs/adr/0001-probe-cadence.md, "Shard size", has the figures.
 */
import { shardCountFor } from './shards.js';
import type { ProbeProtocol } from '../profile/types.js';
import type { PlannedProbe } from './target.js';

/** Lambda gives one vCPU's worth of CPU time per 1,769 MB of memory. */
export const LAMBDA_MB_PER_VCPU = 1_769;

/**
 * CPU ms per probe at one full vCPU, warmed up (the bench's long runs on a 2-core machine, a
 * new connection per probe, worker included), rounded up: HTTPS's TLS handshake dominates.
 */
export const PROBE_CPU_MS: Readonly<Record<ProbeProtocol, number>> = { HTTP: 0.2, HTTPS: 0.7, TCP: 0.1 };

/**
 * One vCPU's CPU time (ms) a shard may spend on a round's probes: half of the 0.5 s spread
 * window plus the 1 s lateness target — a 2× headroom for heartbeats, writes, GC and
 * a loaded host.
 */
export const ROUND_CPU_BUDGET_MS = 750;

/** The vCPUs a shard of `memoryMb` probes on: its share below 1,769 MB, whole vCPUs (threads) above. */
export function vcpusOf(memoryMb: number): number {
  if (!Number.isFinite(memoryMb) || memoryMb <= 0)
    throw new RangeError(`memoryMb must be > 0, got ${memoryMb}`);
  return memoryMb < LAMBDA_MB_PER_VCPU
    ? memoryMb / LAMBDA_MB_PER_VCPU
    : Math.floor(memoryMb / LAMBDA_MB_PER_VCPU);
}

/** The CPU time (ms, at one vCPU) a shard of `memoryMb` may spend on one round. */
export function roundCpuBudgetMs(memoryMb: number): number {
  return ROUND_CPU_BUDGET_MS * vcpusOf(memoryMb);
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
  return total;
}

/** The probe functions' memory size unless `probeMemorySize` says otherwise: one full vCPU (ADR 0001, "Shard size"). */
export const DEFAULT_PROBE_MEMORY_MB = LAMBDA_MB_PER_VCPU;

/** What sizing needs of a region's plan: its request count and one round's predicted CPU (`roundCpuMs`). */
export interface PlanLoad {
  readonly requests: number;
  readonly roundCpuMs: number;
}

export function planLoadOf(
  probes: readonly Pick<PlannedProbe, 'protocol' | 'intervalMs'>[],
  roundPeriodMs: number,
): PlanLoad {
  return { requests: probes.length, roundCpuMs: roundCpuMs(probes, roundPeriodMs) };
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
  const byCpu = shardCountFor(load.roundCpuMs * cpuScale, maxShards, roundCpuBudgetMs(memoryMb));
  return Math.max(byRequests, byCpu);
}

/** `shardCountForLoad` of these planned probes. */
export function shardCountForPlan(
  probes: readonly Pick<PlannedProbe, 'protocol' | 'intervalMs'>[],
  roundPeriodMs: number,
  maxShards: number,
  memoryMb = DEFAULT_PROBE_MEMORY_MB,
  cpuScale = 1,
): number {
  return shardCountForLoad(planLoadOf(probes, roundPeriodMs), maxShards, memoryMb, cpuScale);
}
