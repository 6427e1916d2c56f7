/**
 * Child process of the round CPU bench (test/bench/round-cpu.bench.ts): one shard's rounds on
 * the round grid against the fleet's loopback backends, either as the deployed shard runs them
 * (`worker`: the round handler over a worker with the Lambda's settings, as fleet-shard.ts) or
 * the same requests sent by the bare prober (`bare`: the same start times, the same limit of
 * probes in flight, nothing judged or kept). Prints one JSON line: per measured round, the
 * process's CPU and the requests sent.
 *
 *   node --import tsx test/bench/support/round-cpu-child.ts '<FleetSpec JSON>' worker|bare <rounds> [<profile file>]
 *
 * With a profile file, the measured rounds (not the warm-up) run under the V8 CPU profiler.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import type { SQSEvent } from 'aws-lambda';
import { LAMBDA_PROBE_CONCURRENCY } from '../../../functions/probe/handler.js';
import { MemoryProbeStateStore } from '../../support/memory-probe-state-store.js';
import { probe } from '../../../functions/probe/probers/registry.js';
import { createRoundHandler } from '../../../functions/probe/round-handler.js';
import { createProbeWorker } from '../../../functions/probe/worker.js';
import { concurrencyLimit } from '../../../functions/shared/concurrency.js';
import { planProbes } from '../../../shared/probe/plan.js';
import {
  COMPACT_SPREAD,
  isDueInRound,
  roundDueAtOf,
  spreadWindowMs,
  startDelayMs,
} from '../../../shared/probe/round-schedule.js';
import type { Prober } from '../../../shared/probe/target.js';
import { FLEET_REGION, fleetProfiles, type FleetSpec } from './fleet.js';
import { sleep } from './stats.js';

export interface RoundCpu {
  readonly cpuMs: number;
  readonly probed: number;
}

const spec = JSON.parse(process.argv[2] ?? '{}') as FleetSpec;
const mode = process.argv[3] === 'bare' ? 'bare' : 'worker';
const measured = Number(process.argv[4] ?? 4);
const profileFile = process.argv[5];
const periodMs = spec.intervalInSeconds * 1000;
const clock = { now: () => Date.now() };
const plan = planProbes(fleetProfiles(spec), FLEET_REGION, [FLEET_REGION]);

/** The deployed shard: the round handler over a worker (one shard holding the whole plan). */
function workerRound(): (dueAt: number) => Promise<number> {
  const quiet = { warn: () => undefined };
  let probed = 0;
  const worker = createProbeWorker({
    region: FLEET_REGION,
    store: new MemoryProbeStateStore(),
    prober: probe,
    clock,
    spread: COMPACT_SPREAD,
    concurrency: LAMBDA_PROBE_CONCURRENCY,
    logger: quiet,
  });
  const config = { profiles: fleetProfiles(spec), defaultProbeRegions: [FLEET_REGION] };
  const handler = createRoundHandler({
    worker,
    clock,
    loadConfig: async () => config,
    fallbackProbeRegions: [],
    logger: {
      ...quiet,
      info: (message, fields) => {
        if (message === 'round') probed = fields.probed as number;
      },
    },
  });
  return async (dueAt) => {
    const body = JSON.stringify({ dueAt, roundPeriodMs: periodMs, shard: 0, shards: 1 });
    probed = 0;
    await handler({ Records: [{ messageId: `m-${dueAt}`, body }] } as unknown as SQSEvent);
    return probed;
  };
}

/** The same requests at the same start times by the prober alone: one timer per distinct start. */
function bareRound(prober: Prober): (dueAt: number) => Promise<number> {
  const limit = concurrencyLimit(LAMBDA_PROBE_CONCURRENCY);
  return async (dueAt) => {
    const due = plan.filter((p) =>
      p.judges.some((j) => isDueInRound({ intervalMs: j.intervalMs, offsetMs: p.offsetMs }, dueAt, periodMs)),
    );
    const timeout = Math.max(0, ...due.flatMap((p) => p.judges.map((j) => j.timeoutMs)));
    const windowMs = spreadWindowMs(COMPACT_SPREAD, periodMs, due.length, timeout);
    const starts = due
      .map((probe) => ({ probe, at: dueAt + startDelayMs(probe, periodMs, windowMs) }))
      .sort((a, b) => a.at - b.at);
    const running: Promise<unknown>[] = [];
    for (let i = 0; i < starts.length;) {
      const wait = starts[i]!.at - clock.now();
      if (wait > 0) await sleep(wait);
      const now = clock.now();
      for (; i < starts.length && starts[i]!.at <= now; i++) {
        const { probe } = starts[i]!;
        running.push(limit(() => prober(probe, timeout)));
      }
    }
    await Promise.all(running);
    return due.length;
  };
}

const round = mode === 'worker' ? workerRound() : bareRound(probe);
const rounds: RoundCpu[] = [];
const session = profileFile === undefined ? undefined : new Session();
session?.connect();
// The first round is a cold container's (JIT, first connections): run, not measured.
let dueAt = roundDueAtOf(clock.now(), periodMs) + periodMs;
for (let i = 0; i <= measured; i++, dueAt += periodMs) {
  // A round that overran delays the next one (SQS delivers it to the busy shard, which runs it
  // late); one a whole period late is skipped, as the round handler does.
  if (clock.now() - dueAt >= periodMs) dueAt = roundDueAtOf(clock.now(), periodMs) + periodMs;
  await sleep(dueAt - clock.now());
  if (i === 1 && session !== undefined) {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const before = process.cpuUsage();
  const probed = await round(dueAt);
  const used = process.cpuUsage(before);
  if (i > 0) rounds.push({ cpuMs: (used.user + used.system) / 1000, probed });
}
if (session !== undefined && profileFile !== undefined) {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(profileFile, JSON.stringify(profile));
  session.disconnect();
}
process.stdout.write(`${JSON.stringify({ mode, rounds })}\n`);
