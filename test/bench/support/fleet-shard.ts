/**
 * Child process of the fleet benchmark: one probe shard as its Lambda runs it — the round
 * handler (`createRoundHandler`) over a worker with the Lambda's settings (compact spread,
 * `LAMBDA_PROBE_CONCURRENCY`, the production probers),
 * one round at a time (reserved concurrency 1). Rule states live in memory (the writes
 * are measured on DynamoDB Local elsewhere). Round messages arrive over IPC, as SQS would
 * deliver them; each probe start is recorded with the due time of its round. The handler's
 * measured CPU scale (its CAPACITY item) goes back over IPC to the tick's process, where the
 * real tick reads it.
 *
 *   node --import tsx test/bench/support/fleet-shard.ts '<FleetSpec JSON>' <shard>
 */
import type { SQSEvent } from 'aws-lambda';
import { LAMBDA_PROBE_CONCURRENCY } from '../../../functions/probe/handler.js';
import { MemoryProbeStateStore } from '../../support/memory-probe-state-store.js';
import { probe } from '../../../functions/probe/probers/registry.js';
import { createRoundHandler } from '../../../functions/probe/round-handler.js';
import { createProbeWorker } from '../../../functions/probe/worker.js';
import { parseRoundMessage } from '../../../shared/probe/round-message.js';
import { COMPACT_SPREAD, startDelayMs } from '../../../shared/probe/round-schedule.js';
import type { PlannedProbe, Prober } from '../../../shared/probe/target.js';
import type { CapacityItem } from '../../../shared/state/items.js';
import { FLEET_REGION, fleetProfiles, type FleetSpec } from './fleet.js';

/** Shard → parent, besides the answers to orders: the CAPACITY item the round handler stored. */
export interface CapacityMessage {
  readonly type: 'capacity';
  readonly item: CapacityItem;
}

/** Parent → shard. */
export type ShardOrder =
  | { readonly type: 'round'; readonly body: string }
  /** A round run before the measured ones (JIT, first connections: a cold container's first round); answered when done. */
  | { readonly type: 'warm-up'; readonly body: string }
  | { readonly type: 'report'; readonly windows: readonly Window[] }
  | { readonly type: 'exit' };

export interface Window {
  readonly from: number;
  readonly to: number;
}

export interface ShardRound {
  readonly dueAt: number;
  readonly startLagMs: number;
  /** The window the worker spread the round's probes over (the handler's round log line). */
  readonly windowMs: number;
  readonly durationMs: number;
  readonly probed: number;
  readonly cpuMs: number;
}

/** Shard → parent, answering `report`. */
export interface ShardReport {
  readonly shard: number;
  readonly targets: number;
  /** Per measured window, how many of the shard's targets were checked 0, 1 or more times. */
  readonly checkedTimes: { readonly none: number; readonly once: number; readonly more: number };
  /** Probe start minus its round's due time (ms), for the rounds due in the windows. */
  readonly lateness: readonly number[];
  /**
   * Probe start minus the target's own due time: its round's due time plus its stable place in
   * the compact spread (`startDelayMs`, as the worker computes it), for the same probes.
   */
  readonly ownLateness: readonly number[];
  readonly rounds: readonly ShardRound[];
  /** Durations of the answered probes and the count of the unanswered, in the measured rounds. */
  readonly answeredMs: readonly number[];
  readonly unanswered: number;
  /** Rounds due in the windows that the handler skipped. */
  readonly skippedRounds: number;
  readonly maxRssMb: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as FleetSpec;
const shard = Number(process.argv[3] ?? 0);
const clock = { now: () => Date.now() };
/** Due times of the rounds the handler skipped (a whole period late: the previous round overran). */
const skipped: number[] = [];
const logger = {
  warn: (message: string, fields?: Record<string, unknown>) => {
    if (message.startsWith('skipping') && typeof fields?.dueAt === 'number') skipped.push(fields.dueAt);
  },
};

/**
 * Per request key: [due time of the round, the target's own due time, start time] of every
 * probe sent; the own due time is filled in when the round has told its spread window.
 */
const starts = new Map<string, [number, number, number][]>();
let roundDueAt = 0;

/** A target's own due time in the round due at `dueAt`: its place in the window the worker spread the round over. */
function ownDueAtOf(target: PlannedProbe, dueAt: number, periodMs: number, windowMs: number): number {
  return dueAt + startDelayMs(target, periodMs, windowMs);
}
/** [due time of the round, duration] of every answered probe; due time of every unanswered one. */
const answeredMs: [number, number][] = [];
const unanswered: number[] = [];
const prober: Prober = (request, timeoutMs) => {
  let list = starts.get(request.key);
  if (list === undefined) starts.set(request.key, (list = []));
  list.push([roundDueAt, NaN, Date.now()]);
  const dueAt = roundDueAt;
  return probe(request, timeoutMs).then((observation) => {
    if (observation.answered) answeredMs.push([dueAt, observation.durationMs]);
    else unanswered.push(dueAt);
    return observation;
  });
};

const worker = createProbeWorker({
  region: FLEET_REGION,
  shard,
  store: new MemoryProbeStateStore(),
  prober,
  clock,
  spread: COMPACT_SPREAD,
  concurrency: LAMBDA_PROBE_CONCURRENCY,
  logger,
});
const config = { profiles: fleetProfiles(spec), defaultProbeRegions: [FLEET_REGION] };
let lastRound: Omit<ShardRound, 'cpuMs'> | undefined;
const handler = createRoundHandler({
  worker,
  clock,
  // One object while nothing changes, as the deployed config cache returns: planned once.
  loadConfig: async () => config,
  fallbackProbeRegions: [],
  logger: {
    ...logger,
    info: (message, fields) => {
      if (message === 'round') lastRound = fields as unknown as Omit<ShardRound, 'cpuMs'>;
    },
  },
  // As the deployed handler stores it (REGION#<region> / CAPACITY#<shard>), for the tick to read.
  capacity: {
    write: async (item) => void process.send?.({ type: 'capacity', item } satisfies CapacityMessage),
  },
});

const rounds: ShardRound[] = [];
let chain = Promise.resolve();

async function runRound(body: string): Promise<void> {
  const message = parseRoundMessage(body);
  if ('problem' in message) throw new Error(message.problem);
  roundDueAt = message.dueAt;
  lastRound = undefined;
  const cpu = process.cpuUsage();
  await handler({ Records: [{ messageId: `m-${message.dueAt}`, body }] } as unknown as SQSEvent);
  const used = process.cpuUsage(cpu);
  // Set by the handler's 'round' log line (TypeScript cannot see the callback assign it).
  const logged = lastRound as Omit<ShardRound, 'cpuMs'> | undefined;
  if (logged === undefined) return;
  rounds.push({ ...logged, cpuMs: (used.user + used.system) / 1000 });
  for (const target of worker.targets())
    for (const sent of starts.get(target.key) ?? [])
      if (sent[0] === message.dueAt)
        sent[1] = ownDueAtOf(target, message.dueAt, message.roundPeriodMs, logged.windowMs);
}

function report(windows: readonly Window[]): ShardReport {
  const inWindows = (dueAt: number) => windows.some((w) => dueAt >= w.from && dueAt < w.to);
  const checkedTimes = { none: 0, once: 0, more: 0 };
  const lateness: number[] = [];
  const ownLateness: number[] = [];
  for (const target of worker.targets()) {
    const sent = starts.get(target.key) ?? [];
    for (const window of windows) {
      const times = sent.filter(([dueAt]) => dueAt >= window.from && dueAt < window.to).length;
      if (times === 0) checkedTimes.none++;
      else if (times === 1) checkedTimes.once++;
      else checkedTimes.more++;
    }
    for (const [dueAt, own, at] of sent)
      if (inWindows(dueAt)) {
        lateness.push(at - dueAt);
        // NaN: a round the handler did not log (skipped), whose spread is unknown.
        if (!Number.isNaN(own)) ownLateness.push(at - own);
      }
  }
  return {
    shard,
    targets: worker.targets().length,
    checkedTimes,
    lateness,
    ownLateness,
    rounds: rounds.filter((r) => inWindows(r.dueAt)),
    answeredMs: answeredMs.filter(([dueAt]) => inWindows(dueAt)).map(([, ms]) => ms),
    unanswered: unanswered.filter(inWindows).length,
    skippedRounds: skipped.filter(inWindows).length,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

process.on('message', (order: ShardOrder) => {
  if (order.type === 'round') chain = chain.then(() => runRound(order.body));
  else if (order.type === 'warm-up')
    chain = chain.then(() => runRound(order.body)).then(() => void process.send?.({ warm: true }));
  else if (order.type === 'report') chain = chain.then(() => void process.send?.(report(order.windows)));
  else void chain.then(() => process.exit(0));
});
process.send?.({ ready: true });
