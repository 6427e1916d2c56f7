/**
 * The cloud path of a probe region, simulated on one machine: the real tick
 * (`createTickHandler`, sizing shards at the construct's default memory by the CPU scale the
 * shards measured in their warm-up rounds, as deployed) sends each next minute's rounds to
 * one emulated SQS queue per shard;
 * each queue delivers a round after its `DelaySeconds` plus a receive latency to its shard,
 * a child process running the real round handler (fleet-shard.ts) against loopback
 * backends (fleet-servers.ts). Shards beyond `realShards` get their rounds but no process:
 * every shard carries the same share of the requests (jump hash), and on Lambda each has
 * its own CPU, so the real ones stand for all; what was scaled is printed.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { createTickHandler, tickPlan } from '../../../functions/probe/tick.js';
import type { RoundQueue } from '../../../functions/probe/sqs-round-queue.js';
import { planProbes } from '../../../shared/probe/plan.js';
import { shardOf } from '../../../shared/probe/shards.js';
import { sizeProbeRegions } from '../../../infra/cdk/probe-sizing.js';
import type { CapacityItem } from '../../../shared/state/items.js';
import { MINUTE_MS, roundDueAtOf } from '../../../shared/probe/round-schedule.js';
import { FLEET_REGION, fleetProfiles, type FleetSpec } from './fleet.js';
import type { CapacityMessage, ShardOrder, ShardReport, Window } from './fleet-shard.js';
import { percentile } from './stats.js';

const here = dirname(fileURLToPath(import.meta.url));
/** Emulated: a message that becomes visible reaches the function 20–120 ms later (long poll + invoke). */
const RECEIVE_LATENCY_MS = { min: 20, max: 120 };
/** Emulated: EventBridge Scheduler invokes the minute's tick 0–1,000 ms after the minute. */
const TICK_LATENESS_MS = 1_000;

export interface FleetRun {
  readonly spec: Omit<FleetSpec, 'ports'>;
  /** Shards run as processes (the rest are scaled out: rounds sent, nothing probed). */
  readonly realShards: number;
  /** Whole intervals measured after the first (cold) round. */
  readonly intervals: number;
}

export interface FleetFigures {
  readonly run: FleetRun;
  /**
   * The shards' memory size and the shards deployed, as the CDK app sizes the fleet's region
   * (infra/cdk/probe-sizing.ts): the memory the shards run as and the tick sizes them by (it
   * reads PROBE_MEMORY_MB), one round queue per deployed shard.
   */
  readonly memoryMb: number;
  readonly deployedShards: number;
  /** The shards the tick chose, by the measured scale. */
  readonly shards: number;
  /** The shards the constants alone give (the warm-up rounds ran under this split). */
  readonly priorShards: number;
  /** The shards' measured CPU scale the tick sized with (undefined: none reached it). */
  readonly cpuScale: number | undefined;
  readonly reports: readonly ShardReport[];
  /** Probe start against its round's due time (the spread included). */
  readonly lateness: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Probe start against the target's own due time (its round's due time + its place in the spread). */
  readonly ownLateness: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Mean over the real shards' measured rounds. */
  readonly roundCpuMs: number;
  readonly roundDurationMs: number;
  readonly probesPerRound: number;
}

export async function startFleetServers(ports: number): Promise<{ ports: number[]; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'fleet-servers.ts'), String(ports)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const started = await new Promise<{ ports: number[] }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`fleet servers exited (${code})`)));
    child.stdout?.once('data', (chunk: Buffer) =>
      resolve(JSON.parse(chunk.toString()) as { ports: number[] }),
    );
  });
  return { ports: started.ports, stop: () => void child.kill('SIGTERM') };
}

interface ShardProcess {
  readonly child: ChildProcess;
  send(order: ShardOrder): void;
  warmUp(body: string): Promise<void>;
  report(windows: readonly Window[]): Promise<ShardReport>;
  exited: Promise<void>;
}

async function startShard(
  spec: FleetSpec,
  shard: number,
  memoryMb: number,
  onCapacity: (item: CapacityItem) => void,
): Promise<ShardProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(here, 'fleet-shard.ts'), JSON.stringify(spec), String(shard)],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: { ...process.env, AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(memoryMb) },
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // Answers to orders come in order; the capacity items the handler stores come in between.
  const answers: ((message: unknown) => void)[] = [];
  child.on('message', (message) => {
    if ((message as Partial<CapacityMessage>).type === 'capacity')
      onCapacity((message as CapacityMessage).item);
    else answers.shift()?.(message);
  });
  const answer = <T>(order?: ShardOrder) =>
    new Promise<T>((resolve) => {
      answers.push((message) => resolve(message as T));
      if (order !== undefined) child.send(order);
    });
  await Promise.race([
    answer(),
    new Promise((_, reject) =>
      child.once('exit', (code) => reject(new Error(`shard ${shard} exited (${code})`))),
    ),
  ]);
  return {
    child,
    send: (order) => void child.send(order),
    warmUp: (body) => answer<void>({ type: 'warm-up', body }),
    report: (windows) => answer<ShardReport>({ type: 'report', windows }),
    exited,
  };
}

export async function simulateFleet(run: FleetRun, ports: readonly number[]): Promise<FleetFigures> {
  const spec: FleetSpec = { ...run.spec, ports };
  const intervalMs = spec.intervalInSeconds * 1000;
  const profiles = fleetProfiles(spec);
  const plan = planProbes(profiles, FLEET_REGION, [FLEET_REGION]);
  const [deployed] = sizeProbeRegions(profiles, [FLEET_REGION], {});
  const { memoryMb, maxShards: deployedShards } = deployed!;
  // What the tick chooses before any shard measured: by request count and the constants' CPU.
  const prior = tickPlan(profiles, FLEET_REGION, [FLEET_REGION], deployedShards, memoryMb).shards;
  // The CAPACITY items the real shards' handlers stored, as the tick's Query reads them.
  const capacity = new Map<number, CapacityItem>();
  const real = await Promise.all(
    Array.from({ length: Math.min(prior, run.realShards) }, (_, shard) =>
      startShard(spec, shard, memoryMb, (item) => capacity.set(item.shard, item)),
    ),
  );
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, action: () => void): void => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      action();
    }, ms);
    timers.add(timer);
  };
  let end = Infinity;
  let deliverFrom = Infinity;
  /** Rounds sent and not yet delivered, by due time (the tick sends a minute ahead). */
  const undelivered: number[] = [];
  const delivered = new Array<number>(deployedShards).fill(0);
  const queues = Array.from({ length: deployedShards }, (_, shard): RoundQueue => ({
    sendRounds: async (entries) => {
      for (const entry of entries) {
        const latency =
          RECEIVE_LATENCY_MS.min + Math.random() * (RECEIVE_LATENCY_MS.max - RECEIVE_LATENCY_MS.min);
        const { dueAt } = JSON.parse(entry.MessageBody) as { dueAt: number };
        undelivered.push(dueAt);
        later((entry.DelaySeconds ?? 0) * 1000 + latency, () => {
          undelivered.splice(undelivered.indexOf(dueAt), 1);
          // The warm-up rounds stand for the rounds before the delivered ones (the shard is idle
          // until the first measured round, as after any round that ended on time).
          if (dueAt < deliverFrom) return;
          delivered[shard]!++;
          real[shard]?.send({ type: 'round', body: entry.MessageBody });
        });
      }
    },
  }));
  const config = { profiles, defaultProbeRegions: [FLEET_REGION] };
  const tick = createTickHandler({
    region: FLEET_REGION,
    clock: { now: () => Date.now() },
    queues,
    // One object while nothing changes, as the deployed config cache returns: planned once.
    loadConfig: async () => config,
    fallbackProbeRegions: [],
    probeMemoryMb: memoryMb,
    capacity: { read: async () => [...capacity.values()] },
  });
  // Warm-up: two rounds per shard under the constants' split, on the round grid, as a new
  // container's first rounds. The first (JIT, first connections) the handler does not measure;
  // the second it does, and stores its CPU scale. Then the tick's first run (a new container:
  // the rest of this minute and the next) reads the scales and sizes the region. Delivered from
  // the first round it enqueued ahead of its due time, as a steady tick sends them (the round
  // already due, which a first run also sends, is not); when the count changed, that first
  // round is the reshard (a one-off: the moved states restore) and is not measured either.
  const periodMs = intervalMs;
  const warmUp = (dueAt: number) =>
    Promise.all(
      real.map((shard) => shard.warmUp(JSON.stringify({ dueAt, roundPeriodMs: periodMs, shards: prior }))),
    );
  const until = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
  const firstWarmUp = roundDueAtOf(Date.now(), periodMs) + periodMs;
  await until(firstWarmUp);
  await warmUp(firstWarmUp);
  // The next round, or the one due when the first ended (never a whole period late, so never skipped).
  const secondWarmUp = Math.max(firstWarmUp + periodMs, roundDueAtOf(Date.now(), periodMs));
  await until(secondWarmUp);
  await warmUp(secondWarmUp);
  const first = await tick();
  const { shards } = first;
  deliverFrom = roundDueAtOf(Date.now(), periodMs) + periodMs;
  const from = deliverFrom + (shards === prior ? 0 : periodMs);
  // Measured: whole intervals on the interval grid.
  const windows: Window[] = Array.from({ length: run.intervals }, (_, i) => ({
    from: from + i * intervalMs,
    to: from + (i + 1) * intervalMs,
  }));
  end = windows.at(-1)!.to;
  const everyMinute = (): void =>
    later(
      Math.floor(Date.now() / MINUTE_MS + 1) * MINUTE_MS - Date.now() + Math.random() * TICK_LATENESS_MS,
      () => {
        void tick();
        everyMinute();
      },
    );
  everyMinute();
  // Every measured round delivered (a loaded machine may tick late), then the shards report
  // once their last round is done.
  await new Promise((resolve) => setTimeout(resolve, end - 1_000 - Date.now()));
  while (undelivered.some((dueAt) => dueAt >= from && dueAt < end))
    await new Promise((resolve) => setTimeout(resolve, 200));
  for (const timer of timers) clearTimeout(timer);
  timers.clear();
  const reports = await Promise.all(real.map((shard) => shard.report(windows)));
  for (const shard of real) shard.send({ type: 'exit' });
  await Promise.all(real.map((shard) => shard.exited));

  const lateness = reports.flatMap((r) => r.lateness);
  const ownLateness = reports.flatMap((r) => r.ownLateness);
  const spread = (values: number[]) => ({
    p50: percentile(values, 50),
    p99: percentile(values, 99),
    max: Math.max(...values),
  });
  const rounds = reports.flatMap((r) => r.rounds);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  const figures: FleetFigures = {
    run,
    memoryMb,
    deployedShards,
    shards,
    priorShards: prior,
    cpuScale: first.cpuScale,
    reports,
    lateness: spread(lateness),
    ownLateness: spread(ownLateness),
    roundCpuMs: mean(rounds.map((r) => r.cpuMs)),
    roundDurationMs: mean(rounds.map((r) => r.durationMs)),
    probesPerRound: mean(rounds.map((r) => r.probed)),
  };
  printFleet(
    figures,
    plan.map((p) => shardOf(p.key, shards)),
    delivered,
  );
  return figures;
}

function printFleet(
  figures: FleetFigures,
  shardOfRequest: readonly number[],
  delivered: readonly number[],
): void {
  const { run, shards, reports } = figures;
  const perShard = new Array<number>(shards).fill(0);
  for (const shard of shardOfRequest) perShard[shard]!++;
  const checked = reports.reduce(
    (sum, r) => ({
      none: sum.none + r.checkedTimes.none,
      once: sum.once + r.checkedTimes.once,
      more: sum.more + r.checkedTimes.more,
    }),
    { none: 0, once: 0, more: 0 },
  );
  const realTargets = reports.reduce((sum, r) => sum + r.targets, 0);
  const n = (x: number) => x.toLocaleString('en-US');
  console.log(
    `\nfleet ${n(run.spec.targets)} HTTP targets at ${run.spec.intervalInSeconds} s (10 % black-holed): ` +
      `deployed as the CDK app sizes it: ${figures.deployedShards} shard(s) of ${n(figures.memoryMb)} MB; ` +
      `tick chose ${shards} (${n(shardOfRequest.length)} requests, ${Math.min(...perShard)}–${Math.max(...perShard)} per shard); ` +
      `rounds delivered per shard ${Math.min(...delivered.slice(0, shards))}–${Math.max(...delivered.slice(0, shards))}`,
  );
  console.log(
    `  sized by the shards' measured CPU: ` +
      (figures.cpuScale === undefined
        ? `no measurement reached the tick, so the constants' ${figures.priorShards} shard(s)`
        : `scale ${figures.cpuScale.toFixed(2)}× the constants' prediction (the worst shard's, from its second warm-up round) → ${shards} shard(s), ` +
          `against ${figures.priorShards} by the constants alone`),
  );
  console.log(
    `  scaled: ${reports.length} of ${shards} shards ran as processes (${n(realTargets)} targets probed for real on loopback); ` +
      `the other ${shards - reports.length} got their rounds but probed nothing (on Lambda each shard has its own CPU; here all share 2 cores); ` +
      `two warm-up rounds per shard (the first not measured, the second measures the CPU scale), ` +
      `${figures.shards === figures.priorShards ? '' : "the tick's first round (the reshard, not measured), "}then ${run.intervals} measured interval(s); SQS emulated: DelaySeconds + ${RECEIVE_LATENCY_MS.min}–${RECEIVE_LATENCY_MS.max} ms receive, tick 0–${TICK_LATENESS_MS} ms after the minute`,
  );
  console.log(
    `  every target checked once per interval: ${checked.once === realTargets * run.intervals ? 'yes' : 'NO'} ` +
      `(target-intervals: ${n(checked.once)} once, ${n(checked.none)} never, ${n(checked.more)} more than once)`,
  );
  const skipped = reports.map((r) => r.skippedRounds);
  console.log(
    `  rounds due in the measured intervals: ${reports.map((r) => r.rounds.length).join('/')} run, ${skipped.join('/')} skipped by the real shards ` +
      `(a round starting a whole period late is skipped: the shard's previous round overran); ` +
      `they started ${reports.flatMap((r) => r.rounds.map((round) => round.startLagMs)).join('/')} ms after their due time ` +
      `(a round waits for the previous one, whose black-holed probes end ≥ 9.25 s after their start)`,
  );
  if (figures.lateness.max === -Infinity) return;
  const { ownLateness: own, lateness } = figures;
  console.log(
    `  start lateness vs each target's own due time (its round's due time + its stable place in the window the worker spread the round over): ` +
      `p50 ${own.p50} ms, p99 ${own.p99} ms, max ${own.max} ms (target p99 ≤ 1,000 ms: ${own.p99 <= 1_000 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `  start lateness vs the round's due time (the spread included): p50 ${lateness.p50} ms, p99 ${lateness.p99} ms, max ${lateness.max} ms`,
  );
  const rss = reports.map((r) => r.maxRssMb);
  console.log(
    `  per shard: peak RSS ${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)} MB (memory ${figures.memoryMb} MB: ${Math.max(...rss) <= figures.memoryMb ? 'fits' : 'EXCEEDS'}), ` +
      `a round: ${figures.probesPerRound.toFixed(0)} probes, ` +
      `${figures.roundCpuMs.toFixed(0)} ms CPU, ${figures.roundDurationMs.toFixed(0)} ms long (≥ the black-holed probes' timeout)`,
  );
  const answered = reports.flatMap((r) => r.answeredMs);
  const unanswered = reports.reduce((sum, r) => sum + r.unanswered, 0);
  console.log(
    `  probes in the measured rounds: ${n(answered.length)} answered (duration p50 ${percentile(answered, 50).toFixed(0)} ms, p99 ${percentile(answered, 99).toFixed(0)} ms), ` +
      `${n(unanswered)} unanswered (${((100 * unanswered) / Math.max(1, unanswered + answered.length)).toFixed(1)} %; 10 % are black-holed)`,
  );
}
