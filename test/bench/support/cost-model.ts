/**
 * bench:probe's monthly cost model: what the deployed stack would pay on AWS, from the
 * figures the bench measured (CPU per probe, the tick's duration with and without targets,
 * the CPU a full config read sets off, the write units) and the production functions that
 * size the deployment (shard count, shard and tick memory, the compact spread, the default
 * timeout), imported rather than copied. Prints; asserts nothing. docs/cost.md explains it.
 */
import { CONFIG_CACHE_MAX_AGE_MS } from '../../../functions/shared/config-cache.js';
import {
  IDLE_POLL_REQUESTS_PER_MINUTE,
  lambdaDurationCost as durationCost,
  lambdaInvocationCost as invocationCost,
  MINUTES_PER_MONTH,
  PRICE,
  REMOTE_PROBE_MS,
} from '../../../shared/cost/prices.js';
import { COMPACT_SPREAD, FAST_INTERVAL_MS, spreadWindowMs } from '../../../shared/probe/round-schedule.js';
import { clampCpuScale, CPU_SCALE_REFRESH_MS } from '../../../shared/probe/cpu-scale.js';
import { roundBilledMs, sizeProbeRegion, type RegionSizing } from '../../../shared/probe/region-sizing.js';
import {
  LAMBDA_MB_PER_VCPU,
  vcpusOf,
  PROBE_CPU_MS,
  planLoadOf,
  shardCountForLoad,
} from '../../../shared/probe/shard-capacity.js';
import { SHARD_CAPACITY } from '../../../shared/probe/shards.js';
import { tickMemoryMbFor } from '../../../shared/probe/tick-memory.js';
import { DEFAULTS } from '../../../shared/profile/defaults.js';
import type { ProbeProtocol } from '../../../shared/profile/types.js';
import type { ReplanCpu, TickTimings } from './cost-inputs.js';
import { fleetProfiles } from './fleet.js';
import type { FleetFigures } from './fleet-sim.js';

/** CPU per probe and throughput per protocol from test/bench/probers.bench.ts `--json`. */
export type CoreFigures = Record<string, Record<string, { cpuMsPerProbe: number; probesPerSecond: number }>>;

/** Endpoint counts the model prices. */
export const COST_SIZES: readonly number[] = [10, 1_000, 10_000, 100_000];

/** A Route 53 health check doing the same work: non-AWS endpoint, fast interval, HTTPS a feature too ($4.75). */
function route53FastCheck(protocol: ProbeProtocol): number {
  return PRICE.route53NonAwsCheck + PRICE.route53NonAwsFeature * (protocol === 'HTTPS' ? 2 : 1);
}
const REGIONS = 3;
/** The definitions' default interval, priced beside the 10 s the targets name. */
const SLOW_INTERVAL_MS = 30_000;
const roundsPerMonth = (intervalMs: number) => (MINUTES_PER_MONTH * 60_000) / intervalMs;
const ROUNDS_PER_MONTH = roundsPerMonth(FAST_INTERVAL_MS);
/** An interval's default (and longest) timeout: what a round that has a timing-out target lasts past its spread. */
const timeoutMsOf = (intervalMs: number) =>
  (DEFAULTS.timeoutInSeconds as Readonly<Record<number, number>>)[intervalMs / 1000]! * 1_000;
const TIMEOUT_MS = timeoutMsOf(FAST_INTERVAL_MS);
/** Assumption: the config (or a runtime control) changes this often a month. */
const CONFIG_CHANGES_PER_MONTH = 30;
/** Assumption: each function (the tick, every shard) gets a new container once a day. */
const NEW_CONTAINERS_PER_MONTH = 30;
/**
 * Full config reads per reader (the tick, every shard) a month: after each change, at least
 * one an hour (config-cache.ts) and one in each new container.
 */
const HOURS_PER_MONTH = MINUTES_PER_MONTH / 60;
const UNCHANGED_REREADS_PER_MONTH = HOURS_PER_MONTH * (3_600_000 / CONFIG_CACHE_MAX_AGE_MS);
const FULL_CONFIG_READS_PER_MONTH =
  CONFIG_CHANGES_PER_MONTH + UNCHANGED_REREADS_PER_MONTH + NEW_CONTAINERS_PER_MONTH;
/**
 * Re-plans per reader a month: after a change and in a new container. An hourly re-read that
 * finds the same config keeps the object (config-cache.ts), so the tick's `planned` and the
 * round handler's `refreshConfig` keep their plan; it pays the read and the comparison only.
 */
const REPLANS_PER_MONTH = CONFIG_CHANGES_PER_MONTH + NEW_CONTAINERS_PER_MONTH;
/** The share of endpoints timing out in the model's second figure (the fleet bench black-holes 10 %). */
const TIMING_OUT_SHARE = 0.1;

export interface CostInputs {
  readonly writeUnitsPerTargetHour: number;
  readonly ticks: TickTimings;
  /** Per endpoint count of `COST_SIZES`. */
  readonly replan: readonly ReplanCpu[];
  /** The 10,000-target fleet run: CPU per probe of a shard's round, worker included (HTTP). */
  readonly fleet: FleetFigures;
  readonly cores: CoreFigures;
  /** Probes of each kind the probers bench ran unmeasured before it measured. */
  readonly probersWarmUp: number;
}

/** Lambda bills by the millisecond; CPU-bound work on one thread runs at the memory's share of a vCPU. */
function lambdaWallMs(cpuMs: number, memoryMb: number): number {
  return cpuMs / vcpusOf(memoryMb);
}

/** `endpoints` requests of `protocol` due every `intervalMs`. */
function dueOf(protocol: ProbeProtocol, endpoints: number, intervalMs: number) {
  return Array.from({ length: endpoints }, () => ({ protocol, intervalMs }));
}

/** What the CDK app deploys for `endpoints` requests of `protocol`: memory and most shards (infra/cdk/probe-sizing.ts). */
export function deployedFor(
  protocol: ProbeProtocol,
  endpoints: number,
  intervalMs = FAST_INTERVAL_MS,
): RegionSizing {
  return sizeProbeRegion(planLoadOf(dueOf(protocol, endpoints, intervalMs), intervalMs));
}

/**
 * The shards the probe tick chooses for `endpoints` requests of `protocol` in the region the CDK
 * app deploys for them, with the shards' measured CPU scale (1: the constants alone).
 */
export function shardsFor(
  protocol: ProbeProtocol,
  endpoints: number,
  cpuScale = 1,
  intervalMs = FAST_INTERVAL_MS,
): number {
  const deployed = deployedFor(protocol, endpoints, intervalMs);
  return shardCountForLoad(
    planLoadOf(dueOf(protocol, endpoints, intervalMs), intervalMs),
    deployed.maxShards,
    deployed.memoryMb,
    cpuScale,
  );
}

const sum = (items: Record<string, number>) => Object.values(items).reduce((a, b) => a + b, 0);
const money = (x: number): string => `$${x < 1 ? x.toFixed(4) : x.toFixed(2)}`;
const n = (x: number): string => x.toLocaleString('en-US');

export function printCost(inputs: CostInputs): void {
  const { cores, ticks } = inputs;
  // CPU per probe in a shard: the fleet's measured per-probe CPU (HTTP, worker included, its
  // warm-up round discarded) plus what the protocol's prober costs beyond HTTP's (the probers
  // bench, its warm-up probes discarded).
  const httpCpu = inputs.fleet.roundCpuMs / Math.max(1, inputs.fleet.probesPerRound);
  const engineCpu = (protocol: ProbeProtocol) => cores[protocol]?.engine?.cpuMsPerProbe ?? NaN;
  const cpuPerProbe = (protocol: ProbeProtocol): number =>
    Math.max(engineCpu(protocol), httpCpu + engineCpu(protocol) - engineCpu('HTTP'));
  const httpsCpu = cpuPerProbe('HTTPS');
  // The scale the shards would measure and store (their CPU against the constants'), by which
  // the tick sizes the region.
  const cpuScale = (protocol: ProbeProtocol) => clampCpuScale(cpuPerProbe(protocol) / PROBE_CPU_MS[protocol]);
  const shardsOf = (protocol: ProbeProtocol, endpoints: number, intervalMs = FAST_INTERVAL_MS) =>
    shardsFor(protocol, endpoints, cpuScale(protocol), intervalMs);
  console.log(
    `\ncost model inputs (measured, warmed up: the fleet's first round and the probers' ${inputs.probersWarmUp} first probes per run discarded): ` +
      `shard CPU per HTTP probe ${httpCpu.toFixed(3)} ms (fleet run, worker included); per probe HTTPS ${httpsCpu.toFixed(3)} ms, ` +
      `HTTP ${cpuPerProbe('HTTP').toFixed(3)} ms, TCP ${cpuPerProbe('TCP').toFixed(3)} ms (HTTP + the prober's difference from HTTP), ` +
      `the CPU scale the shards would measure (against the tick's constants) HTTPS ${cpuScale('HTTPS').toFixed(2)}, ` +
      `HTTP ${cpuScale('HTTP').toFixed(2)}, TCP ${cpuScale('TCP').toFixed(2)}, by which the tick sizes the region ` +
      `(the fleet's real tick read ${inputs.fleet.cpuScale?.toFixed(2) ?? 'none'} from its HTTP shards); ` +
      `tick without targets ${ticks.idleMs.toFixed(1)} ms, with targets ${ticks.workMs.toFixed(1)} ms + ${ticks.waitMs.toFixed(0)} ms wait; ` +
      `writes ${inputs.writeUnitsPerTargetHour.toFixed(4)} WCU per target-region-hour steady; ` +
      `assumed: ${REMOTE_PROBE_MS} ms slowest remote probe of a healthy round, ${IDLE_POLL_REQUESTS_PER_MINUTE} idle SQS receives a minute per queue, ` +
      `${CONFIG_CHANGES_PER_MONTH} config changes a month, a new container per function once a day ` +
      `(so each reader — the tick, every shard — checks 2 revision counters a minute, reads the whole config ` +
      `${FULL_CONFIG_READS_PER_MONTH} times a month: ${CONFIG_CHANGES_PER_MONTH} changes, ${UNCHANGED_REREADS_PER_MONTH} hourly re-reads, ` +
      `${NEW_CONTAINERS_PER_MONTH} new containers, and re-plans ${REPLANS_PER_MONTH} times: not after an unchanged re-read)`,
  );
  const configBytesPerEndpoint =
    JSON.stringify(fleetProfiles({ targets: 1_000, intervalInSeconds: 10, ports: [443] })).length / 1_000;

  // Memory per shard: a full shard's probe starts are CPU-bound at the memory's vCPU share.
  const fullShard = SHARD_CAPACITY;
  const windowOf = (probes: number) => spreadWindowMs(COMPACT_SPREAD, FAST_INTERVAL_MS, probes, TIMEOUT_MS);
  console.log(`memory per shard (a full shard: ${n(fullShard)} HTTPS requests every 10 s):`);
  for (const sizeMb of [128, 512, 1_024, LAMBDA_MB_PER_VCPU]) {
    const startMs = lambdaWallMs(fullShard * httpsCpu, sizeMb);
    const wallMs = Math.max(windowOf(fullShard), startMs) + REMOTE_PROBE_MS;
    const perMonth = ROUNDS_PER_MONTH * durationCost(wallMs, sizeMb);
    console.log(
      `  ${String(sizeMb).padStart(5)} MB (${(Math.min(1, sizeMb / LAMBDA_MB_PER_VCPU) * 100).toFixed(0)} % of a vCPU): ` +
        `starts a full round's probes in ${(startMs / 1000).toFixed(2)} s (lateness target ≤ 1 s: ${startMs <= 1_000 ? 'met' : 'NOT met'}), ` +
        `duration ${money(perMonth)} per shard-month`,
    );
  }

  // Fixed part: no endpoints, maxProbeShards 1. The tick finds no targets: it checks the
  // config's revision counters, sends nothing and does not wait; the idle round queue is polled.
  const fixedTickMb = tickMemoryMbFor(1);
  const scheduler = MINUTES_PER_MONTH * PRICE.schedulerInvocation;
  const idleTick = MINUTES_PER_MONTH * invocationCost(ticks.idleMs, fixedTickMb);
  const idleQueue = MINUTES_PER_MONTH * IDLE_POLL_REQUESTS_PER_MINUTE * PRICE.sqsRequest;
  const configCheck = MINUTES_PER_MONTH * 2 * PRICE.dynamoReadUnit;
  const fixed = REGIONS * (scheduler + idleTick + idleQueue + configCheck);
  console.log(
    `cost, fixed (no endpoints, maxProbeShards 1), 3 regions/month: ${money(fixed)} (target ≤ $1: ${fixed <= 1 ? 'met' : 'NOT met'}) = ` +
      `3 × (scheduler ${money(scheduler)} + tick ${money(idleTick)} (${fixedTickMb} MB, ${ticks.idleMs.toFixed(1)} ms measured without targets) + ` +
      `idle queue polling ${money(idleQueue)} + config checks ${money(configCheck)}); each further deployed shard adds its idle queue polling, ${money(idleQueue)}, and its alarm, ${money(PRICE.alarmMonth)}, per region`,
  );
  console.log(
    `cost per endpoint-month, every 10 s from 3 regions, deployed as the CDK app sizes a region by default (its probe memory and most shards ` +
      `from the definitions: sizeProbeRegion; the tick's memory follows the most shards), running as many shards as the probe tick chooses ` +
      `at the scale the shards measure; deployed shards it does not use pay their idle queue polling and alarm; ` +
      `a healthy round lasts its spread or its probes' start, whichever is longer, + ${REMOTE_PROBE_MS} ms; with ${TIMING_OUT_SHARE * 100} % of the endpoints ` +
      `timing out every shard has one in every round, which then lasts + ${TIMEOUT_MS / 1000} s (the default timeout; Lambda bills the invocation's wall time):`,
  );
  /** One region's month at `endpoints` requests of `protocol` due every `intervalMs`, item by item. */
  const priceRegion = (protocol: ProbeProtocol, endpoints: number, intervalMs: number, replan: ReplanCpu) => {
    // Priced as production deploys the region (memory, most shards: infra/cdk/probe-sizing.ts)
    // and runs it (as many shards as the tick chooses at the measured scale, by requests and CPU).
    const deployed = deployedFor(protocol, endpoints, intervalMs);
    const memoryMb = deployed.memoryMb;
    const shards = shardsOf(protocol, endpoints, intervalMs);
    const perShard = endpoints / shards;
    const tickMb = tickMemoryMbFor(deployed.maxShards);
    const tickReplanMs = lambdaWallMs(replan.tickMs, tickMb);
    const shardReplanMs = lambdaWallMs(replan.shardMs, memoryMb);
    const tickRereadMs = lambdaWallMs(replan.rereadMs, tickMb);
    const shardRereadMs = lambdaWallMs(replan.rereadMs, memoryMb);
    const roundMs = (slowestMs: number) =>
      roundBilledMs(perShard, perShard * cpuPerProbe(protocol), memoryMb, intervalMs, slowestMs);
    const probing = (slowestMs: number) =>
      shards * roundsPerMonth(intervalMs) * invocationCost(roundMs(slowestMs), memoryMb);
    // The tick and every shard read the two revision counters once a minute (one strongly
    // consistent read unit each), and the whole config on each full-read occasion.
    const readers = 1 + shards;
    const configReads = readers * FULL_CONFIG_READS_PER_MONTH;
    const readUnits =
      readers * MINUTES_PER_MONTH * 2 + configReads * Math.ceil((endpoints * configBytesPerEndpoint) / 4_096);
    // One region's month, item by item.
    const tick = {
      scheduler,
      tick: MINUTES_PER_MONTH * invocationCost(ticks.workMs + ticks.waitMs, tickMb),
      tickReplans: REPLANS_PER_MONTH * durationCost(tickReplanMs, tickMb),
      tickRereads: UNCHANGED_REREADS_PER_MONTH * durationCost(tickRereadMs, tickMb),
      // The tick reads the shards' CAPACITY items once a minute (one small eventually consistent Query).
      capacityReads: MINUTES_PER_MONTH * 0.5 * PRICE.dynamoReadUnit,
      writes:
        (endpoints * inputs.writeUnitsPerTargetHour * HOURS_PER_MONTH +
          shards * MINUTES_PER_MONTH * (60_000 / CPU_SCALE_REFRESH_MS)) *
        PRICE.dynamoWriteUnit,
    };
    const shardWork = {
      queues: shards * (idleQueue + (MINUTES_PER_MONTH + 2 * roundsPerMonth(intervalMs)) * PRICE.sqsRequest),
      rounds: probing(REMOTE_PROBE_MS),
      // Deployed shards the tick does not use: their queues are polled all the same. Every
      // shard's function has an error alarm (the first one's is in the home table's figures).
      idleShards: (deployed.maxShards - shards) * idleQueue,
      alarms: (deployed.maxShards - 1) * PRICE.alarmMonth,
    };
    // A shard checks the revision counters after one round a minute (as long as the idle
    // tick's check), re-reads the config hourly and re-plans after a change, billed in that round.
    const config = {
      shardChecks: shards * MINUTES_PER_MONTH * durationCost(ticks.idleMs, memoryMb),
      shardReplans: shards * REPLANS_PER_MONTH * durationCost(shardReplanMs, memoryMb),
      shardRereads: shards * UNCHANGED_REREADS_PER_MONTH * durationCost(shardRereadMs, memoryMb),
      reads: readUnits * PRICE.dynamoReadUnit,
      transfer:
        ((REGIONS - 1) / REGIONS) *
        ((configReads * endpoints * configBytesPerEndpoint) / 1e9) *
        PRICE.interRegionGb,
    };
    const perRegion = sum(tick) + sum(shardWork) + sum(config);
    const total = REGIONS * perRegion;
    const timingOut = REGIONS * (perRegion - shardWork.rounds + probing(timeoutMsOf(intervalMs)));
    return {
      deployed,
      memoryMb,
      shards,
      tickMb,
      tick,
      shardWork,
      config,
      perRegion,
      total,
      timingOut,
      roundMs,
      probing,
      tickReplanMs,
      tickRereadMs,
    };
  };
  const rows: string[][] = [];
  let breakdown: string[] = [];
  for (const protocol of ['HTTPS', 'HTTP', 'TCP'] as const)
    for (const endpoints of COST_SIZES) {
      const replan = inputs.replan.find((r) => r.endpoints === endpoints);
      if (replan === undefined) continue;
      const priced = priceRegion(protocol, endpoints, FAST_INTERVAL_MS, replan);
      const { deployed, memoryMb, shards, tickMb, tick, shardWork, config, perRegion, total, timingOut } =
        priced;
      const { roundMs, probing, tickReplanMs, tickRereadMs } = priced;
      rows.push([
        protocol,
        n(endpoints),
        `${n(memoryMb)} MB`,
        `${shards} of ${deployed.maxShards}`,
        `${tickMb} MB`,
        `${money(REGIONS * shardWork.rounds)} + ${money(REGIONS * (shardWork.queues + shardWork.idleShards + shardWork.alarms))}`,
        money(REGIONS * sum(config)),
        money(REGIONS * sum(tick)),
        money(total),
        `${money(total / endpoints)}${endpoints >= 1_000 ? (total / endpoints <= 0.01 ? ' (met)' : ' (NOT met)') : ''}`,
        `${money(timingOut)} / ${money(timingOut / endpoints)}`,
        `$${route53FastCheck(protocol).toFixed(2)}`,
      ]);
      if (protocol === 'HTTP' && endpoints === COST_SIZES[0])
        breakdown = [
          `one region's month at ${n(endpoints)} HTTP endpoints (${shards} shard): ${money(perRegion)}, of which`,
          `scheduler ${money(tick.scheduler)}`,
          `tick ${money(tick.tick)} (${tickMb} MB, ${Math.ceil(ticks.workMs + ticks.waitMs)} ms billed a minute: check + wait)`,
          `tick re-plans ${money(tick.tickReplans)} (${REPLANS_PER_MONTH} × ${tickReplanMs.toFixed(0)} ms) + ` +
            `unchanged re-reads ${money(tick.tickRereads)} (${UNCHANGED_REREADS_PER_MONTH} × ${tickRereadMs.toFixed(0)} ms)`,
          `round queue ${money(shardWork.queues)} (idle polling + a send a minute + receive and delete per round)`,
          `rounds ${money(shardWork.rounds)} (${n(ROUNDS_PER_MONTH)} invocations of ${roundMs(REMOTE_PROBE_MS).toFixed(0)} ms at ${n(memoryMb)} MB; ` +
            `${money(probing(TIMEOUT_MS))} while one times out: ${roundMs(TIMEOUT_MS).toFixed(0)} ms)`,
          `shard config checks ${money(config.shardChecks)} + re-plans ${money(config.shardReplans)} + unchanged re-reads ${money(config.shardRereads)}`,
          `capacity reads ${money(tick.capacityReads)}`,
          `writes ${money(tick.writes)} (with the shard's capacity item at least every ${CPU_SCALE_REFRESH_MS / 60_000} min)`,
          `config reads ${money(config.reads)} + transfer ${money(config.transfer)}`,
        ];
    }
  printRows(
    [
      'protocol',
      'endpoints',
      'probe memory',
      'shards used of deployed',
      'tick memory',
      'rounds + queues, idle shards, alarms',
      'shards: config checks, re-plans, reads + transfer',
      'tick + scheduler + writes',
      'total',
      'per endpoint (≤ $0.01 from 1,000)',
      `${TIMING_OUT_SHARE * 100} % timing out: total / per endpoint`,
      'Route 53 per endpoint (non-AWS, 10 s)',
    ],
    rows,
  );
  const [head, ...items] = breakdown;
  console.log(`  ${head}: ${items.join('; ')}`);
  // The definitions' default interval: 30 s rounds, each request due in every one, its timeout 10 s.
  const slowRows: string[][] = [];
  for (const protocol of ['HTTPS', 'HTTP', 'TCP'] as const)
    for (const endpoints of COST_SIZES) {
      const replan = inputs.replan.find((r) => r.endpoints === endpoints);
      if (replan === undefined) continue;
      const { deployed, shards, total, timingOut } = priceRegion(
        protocol,
        endpoints,
        SLOW_INTERVAL_MS,
        replan,
      );
      slowRows.push([
        protocol,
        n(endpoints),
        `${n(deployed.memoryMb)} MB`,
        `${shards} of ${deployed.maxShards}`,
        money(total),
        money(total / endpoints),
        `${money(timingOut)} / ${money(timingOut / endpoints)}`,
      ]);
    }
  console.log(
    `cost per endpoint-month every ${SLOW_INTERVAL_MS / 1000} s (the definitions' default interval) from 3 regions, priced the same way ` +
      `(30 s rounds; a timing-out target holds its round ${timeoutMsOf(SLOW_INTERVAL_MS) / 1000} s; Route 53's standard 30 s check of a non-AWS endpoint: ` +
      `$${PRICE.route53NonAwsCheck.toFixed(2)}, HTTPS $${(PRICE.route53NonAwsCheck + PRICE.route53NonAwsFeature).toFixed(2)}):`,
  );
  printRows(
    [
      'protocol',
      'endpoints',
      'probe memory',
      'shards used of deployed',
      'total',
      'per endpoint',
      `${TIMING_OUT_SHARE * 100} % timing out: total / per endpoint`,
    ],
    slowRows,
  );
  for (const replan of inputs.replan) {
    const { memoryMb, maxShards } = deployedFor('HTTP', replan.endpoints);
    const tickMb = tickMemoryMbFor(maxShards);
    console.log(
      `  full config read + re-plan at ${n(replan.endpoints)} endpoints (HTTP), ${REPLANS_PER_MONTH} a month per reader: ` +
        `tick ${replan.tickMs.toFixed(0)} ms CPU → ${lambdaWallMs(replan.tickMs, tickMb).toFixed(0)} ms at ${tickMb} MB; ` +
        `each shard ${replan.shardMs.toFixed(0)} ms CPU → ${lambdaWallMs(replan.shardMs, memoryMb).toFixed(0)} ms at ${n(memoryMb)} MB; ` +
        `an unchanged re-read (${UNCHANGED_REREADS_PER_MONTH} a month) ${replan.rereadMs.toFixed(0)} ms CPU`,
    );
  }
  const fleet = inputs.fleet;
  const fleetMemoryMb = deployedFor('HTTP', fleet.run.spec.targets).memoryMb;
  console.log(
    `  measured beside it (the fleet section, ${n(fleet.run.spec.targets)} HTTP targets on loopback, 10 % black-holed): a round of ` +
      `${fleet.probesPerRound.toFixed(0)} probes lasted ${fleet.roundDurationMs.toFixed(0)} ms; the model's round with a timing-out target: ` +
      `${roundBilledMs(fleet.probesPerRound, fleet.probesPerRound * httpCpu, fleetMemoryMb, FAST_INTERVAL_MS, TIMEOUT_MS).toFixed(0)} ms`,
  );
  console.log(
    `prices (us-east-1): Lambda arm64 $0.0000133334/GB-s, $0.20/M requests; SQS $0.40/M requests; DynamoDB on-demand $0.625/M WRU, $0.125/M RRU; ` +
      `Scheduler $1.00/M; inter-region transfer $0.02/GB (2 of 3 regions read the home table); ${n(MINUTES_PER_MONTH)}-minute month; ` +
      `config ${configBytesPerEndpoint.toFixed(0)} B per endpoint (the bench profiles' JSON); Route 53 health check of a non-AWS endpoint at 10 s: ` +
      `$${PRICE.route53NonAwsCheck.toFixed(2)} + $${PRICE.route53NonAwsFeature.toFixed(2)} fast interval (+ $${PRICE.route53NonAwsFeature.toFixed(2)} HTTPS).`,
  );
}

function printRows(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
}
