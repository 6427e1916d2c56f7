/**
 * `npm run bench:evaluator` — figures for issue 4 §5 (not a test; prints figures, asserts nothing):
 *  1. latency from a probe-state write (the verdict PutItem) to the change request arriving
 *     at the local Route 53, p50/p99 over 200 transitions, stream polling included;
 *  2. CPU of the handler per stream batch of 100 VERDICT# records (100 distinct profiles);
 *  3. a storm: 1,000 Priority profiles in one zone fail over at once → Route 53 calls, each
 *     batch's size against the limits, time to converge;
 *  4. 10 simulated minutes with no status change (tick every minute with fresh heartbeats,
 *     unchanged verdicts rewritten) → Route 53 calls (the reconciles the tick requests read
 *     the zone; none may change it);
 *  5. the reconcile's cost in Route 53 calls per zone-hour at 1,000 and 10,000 owned names,
 *     without drift and with one drifted record.
 *
 * The storm's 1,000 profiles: one definitions file (one deployment) may hold at most 200
 * profiles, so they are validated as five files of 200 and written to one table by the
 * config writer's own sync code — the load of five deployments' worth of profiles on one
 * evaluator (the evaluator has no per-deployment cap; a single deployment's storm is at most
 * a fifth of this).
 * DynamoDB Local (Java) and the local Route 53 run in their own processes, so the CPU figure
 * is the evaluator's alone. The evaluator runs with its production settings: the Route 53
 * rate limit of 5 requests/s and the stream settings of functions/evaluator/stream-settings.ts.
 *
 * The storm's 3,000 verdicts are written with BatchWriteItem (16 requests in flight): DynamoDB
 * Local takes about 2 s for them that way, where real probe regions write theirs within a
 * round. `STORM_WRITES=put` writes them one PutItem each as the probe workers do (32 in
 * flight); DynamoDB Local then needs some 10 s, longer than the batching window, and the
 * storm arrives in several batches.
 * `npm run bench:evaluator -- latency cpu storm reconcile` picks parts (default: all);
 * `RECONCILE_NAMES=1000` picks the reconcile's zone sizes (default 1000,10000); `TRANSITIONS=50` shortens part 1.
 */
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local.js';
import { type VerdictItem } from '../../shared/state/items.js';
import { Keys } from '../../shared/state/keys.js';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { Profile } from '../../shared/profile/types.js';
import { startBenchEvaluator, type BenchEvaluatorOptions } from './support/evaluator-stack.js';
import { BENCH_ZONE_ID, priorityProfiles, verdictsFor } from './support/profiles.js';
import { startRoute53Process, type Route53Process } from './support/route53-process.js';
import { mean, percentile, round1, sleep } from './support/stats.js';
import { ChangeResourceRecordSetsCommand } from '@aws-sdk/client-route-53';
import type { EvaluatorDeps } from '../../functions/evaluator/evaluation.js';
import { callbackSink } from '../../functions/evaluator/event-sinks.js';
import {
  noMetrics,
  type EvaluatorEvent,
  type EvaluatorStateStore,
  type StoredStatus,
} from '../../functions/evaluator/ports.js';
import { reconcileZones } from '../../functions/evaluator/reconcile.js';
import { DEFAULT_RECONCILE_INTERVAL_MS } from '../../functions/evaluator/reconcile-interval.js';
import { toSdkRecordSet } from '../../functions/evaluator/route53-codec.js';
import { Route53ZoneGateway } from '../../functions/evaluator/route53-zone-gateway.js';
import { route53Client } from '../../functions/shared/aws-clients.js';
import type { RecordSet } from '../../shared/zone/record-set.js';

const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];
const START = Date.parse('2026-01-01T00:00:00Z');
const TRANSITIONS = Number(process.env.TRANSITIONS ?? 200);
const ROUTE53_SPACING_MS = 200; // 1 / (5 requests per second)
const RECONCILE_NAMES = (process.env.RECONCILE_NAMES ?? '1000,10000').split(',').map(Number);

interface SummaryRow {
  readonly figure: string;
  readonly target: string;
  readonly value: string;
  readonly met: boolean;
}
const summary: SummaryRow[] = [];

interface Servers {
  readonly route53: Route53Process;
  readonly base: (clock: { now: number }) => BenchEvaluatorOptions;
}

/**
 * Each part gets its own DynamoDB Local and local Route 53: DynamoDB Local slows down as
 * tables and stream records from earlier parts pile up in its memory, which would blur
 * one part's figures with another's leftovers.
 */
async function withFreshServers(part: (servers: Servers) => Promise<void>): Promise<void> {
  const ddb = await startDynamoDbLocal();
  const route53 = await startRoute53Process(BENCH_ZONE_ID);
  try {
    await part({
      route53,
      base: (clock) => ({
        dynamodbEndpoint: ddb.endpoint,
        route53Endpoint: route53.endpoint,
        regions: REGIONS,
        clock,
      }),
    });
  } finally {
    await route53.stop();
    await ddb.stop();
  }
}

const benchStarted = Date.now();
const only = process.argv.slice(2);
const wanted = (part: string) => only.length === 0 || only.includes(part);
if (wanted('latency')) await withFreshServers(latency);
if (wanted('cpu')) await withFreshServers(cpuPerBatch);
if (wanted('storm')) await withFreshServers(stormAndQuiet);
if (wanted('reconcile')) for (const names of RECONCILE_NAMES) await reconcileCost(names);
printSummary();

// ───────────────────────────── 1. write → Route 53 latency ─────────────────────────────
async function latency({ route53, base }: Servers): Promise<void> {
  const clock = { now: START };
  const ev = await startBenchEvaluator(base(clock));
  try {
    // 100 other profiles in the table (every evaluation reads the config), plus the measured
    // one, probed from one region so that a single verdict write decides its status.
    const others = priorityProfiles({ count: 100, prefix: 'other' });
    const [measured] = priorityProfiles({ count: 1, prefix: 'latency', probeRegions: ['us-east-1'] }) as [
      Profile,
    ];
    await ev.heartbeats();
    await ev.bulkVerdicts([
      ...verdictsFor(others, ['primary', 'secondary'], REGIONS, 'up', clock.now),
      ...verdictsFor([measured], ['primary', 'secondary'], ['us-east-1'], 'up', clock.now),
    ]);
    await ev.define([...others, measured]);
    ev.startPoller();
    await ev.poller.drain(60_000);

    let streamDelays: number[] = [];
    let evaluations: number[] = [];
    const run = async (count: number, pauseMs: number): Promise<number[]> => {
      streamDelays = [];
      evaluations = [];
      const samples: number[] = [];
      for (let i = 0; i < count; i++) {
        clock.now += 100;
        const verdict = i % 2 === 0 ? 'down' : 'up';
        const [item] = verdictsFor([measured], ['primary'], ['us-east-1'], verdict, clock.now) as [
          VerdictItem,
        ];
        const landedBefore = route53.landed.length;
        const invokedBefore = ev.invocations.length;
        const written = Date.now();
        await ev.put({ ...Keys.verdict(item.targetKey, item.region), ...item });
        const change = await route53.waitForLanded(landedBefore + 1, 10_000);
        samples.push(change.at - written);
        const invocation = ev.invocations.slice(invokedBefore).find((inv) => inv.startedAt >= written);
        if (invocation !== undefined) {
          streamDelays.push(invocation.startedAt - written);
          evaluations.push(change.at - invocation.startedAt);
        }
        if (pauseMs > 0) await sleep(pauseMs);
      }
      return samples;
    };
    await run(6, ROUTE53_SPACING_MS); // warm-up: JIT, connections
    const paced = await run(TRANSITIONS, ROUTE53_SPACING_MS);
    const p50 = percentile(paced, 50);
    const p99 = percentile(paced, 99);
    console.log(
      `1. write → change request at Route 53, ${TRANSITIONS} transitions (down/up alternating, next write ${ROUTE53_SPACING_MS} ms after each lands): ` +
        `p50 ${p50} ms, p99 ${p99} ms, max ${Math.max(...paced)} ms, mean ${round1(mean(paced))} ms`,
    );
    console.log(
      `   where the time goes: write → handler invoked (stream + poller) p50 ${percentile(streamDelays, 50)} ms, p99 ${percentile(streamDelays, 99)} ms; ` +
        `handler invoked → change at Route 53 (evaluation + publish) p50 ${percentile(evaluations, 50)} ms, p99 ${percentile(evaluations, 99)} ms`,
    );
    summary.push({
      figure: 'write → Route 53 change, p99',
      target: '≤ 250 ms',
      value: `${p99} ms (p50 ${p50} ms)`,
      met: p99 <= 250,
    });

    const backToBack = await run(20, 0);
    console.log(
      `   back to back (next write as soon as the previous change lands; the 5 req/s limiter spaces the calls): ` +
        `p50 ${percentile(backToBack, 50)} ms, p99 ${percentile(backToBack, 99)} ms over ${backToBack.length}`,
    );
    if (ev.errors.length > 0)
      console.log(`   evaluator errors: ${ev.errors.length} (first: ${String(ev.errors[0])})`);
  } finally {
    await ev.stop();
  }
}

// ───────────────────────────── 2. CPU per stream batch ─────────────────────────────
async function cpuPerBatch({ base }: Servers): Promise<void> {
  const clock = { now: START };
  const ev = await startBenchEvaluator(base(clock));
  try {
    // The handler is invoked directly (no poller) with batches of 100 VERDICT# records for
    // 100 distinct profiles; the verdicts are written to the table first, untimed.
    const profiles = priorityProfiles({ count: 100, prefix: 'cpu', probeRegions: ['us-east-1'] });
    await ev.heartbeats();
    await ev.bulkVerdicts(verdictsFor(profiles, ['primary', 'secondary'], ['us-east-1'], 'up', clock.now));
    await ev.define(profiles);
    await ev.handler(eventOf(profiles.map((p, i) => configRecord(p, i))));

    let sequence = 1_000;
    const batch = async (verdict: 'up' | 'down'): Promise<{ cpuMs: number; wallMs: number }> => {
      clock.now += 1_000;
      const items = verdictsFor(profiles, ['primary'], ['us-east-1'], verdict, clock.now);
      await ev.bulkVerdicts(items);
      const event = eventOf(items.map((item) => verdictRecord(item, sequence++)));
      const cpu = process.cpuUsage();
      const started = performance.now();
      await ev.handler(event);
      const used = process.cpuUsage(cpu);
      return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started };
    };
    for (let i = 0; i < 4; i++) await batch(i % 2 === 0 ? 'down' : 'up'); // warm-up
    const changing: { cpuMs: number; wallMs: number }[] = [];
    for (let i = 0; i < 20; i++) changing.push(await batch(i % 2 === 0 ? 'down' : 'up'));
    const quiet: { cpuMs: number; wallMs: number }[] = [];
    for (let i = 0; i < 10; i++) quiet.push(await batch('up')); // same verdict again: nothing to change

    const describe = (rows: readonly { cpuMs: number; wallMs: number }[]) =>
      `CPU mean ${round1(mean(rows.map((r) => r.cpuMs)))} ms, p50 ${round1(
        percentile(
          rows.map((r) => r.cpuMs),
          50,
        ),
      )} ms, ` +
      `max ${round1(Math.max(...rows.map((r) => r.cpuMs)))} ms; wall p50 ${round1(
        percentile(
          rows.map((r) => r.wallMs),
          50,
        ),
      )} ms`;
    console.log(
      `2. handler, batch of 100 VERDICT# records / 100 profiles, 100 profiles flip (1 Route 53 call): ${describe(changing)} over ${changing.length} batches`,
    );
    console.log(
      `   same, nothing changes (0 Route 53 calls): ${describe(quiet)} over ${quiet.length} batches`,
    );
    const cpu = round1(mean(changing.map((r) => r.cpuMs)));
    summary.push({
      figure: 'CPU per batch of 100 records',
      target: '(figure only)',
      value: `${cpu} ms (quiet ${round1(mean(quiet.map((r) => r.cpuMs)))} ms)`,
      met: true,
    });
    if (ev.errors.length > 0)
      console.log(`   evaluator errors: ${ev.errors.length} (first: ${String(ev.errors[0])})`);
  } finally {
    await ev.stop();
  }
}

// ───────────────────────────── 3. storm, 4. quiet minutes ─────────────────────────────
async function stormAndQuiet({ route53, base }: Servers): Promise<void> {
  const clock = { now: START };
  const ev = await startBenchEvaluator(base(clock));
  try {
    const profiles = priorityProfiles({ count: 1_000, prefix: 'storm' });
    const setupStarted = Date.now();
    await route53.resetCalls();
    await ev.heartbeats();
    await ev.bulkVerdicts(verdictsFor(profiles, ['primary', 'secondary'], REGIONS, 'up', clock.now));
    ev.startPoller();
    await ev.define(profiles);
    await ev.poller.drain(150_000);
    const setupCalls = await route53.calls();
    const initial = await route53.records();
    console.log(
      `3. storm setup: 1,000 Priority profiles (3 regions, 2 endpoints each) defined and published in ${Date.now() - setupStarted} ms, ` +
        `${initial.filter((r) => r.name.startsWith('storm')).length} record sets, Route 53 calls: ${describeCalls(setupCalls)}`,
    );

    // The storm: every primary target goes down in every region at once.
    await route53.resetCalls();
    const landedBefore = route53.landed.length;
    clock.now += 1_000;
    const down = verdictsFor(profiles, ['primary'], REGIONS, 'down', clock.now);
    const started = Date.now();
    await (process.env.STORM_WRITES === 'put' ? ev.verdicts(down, 32) : ev.bulkVerdicts(down, 16));
    const written = Date.now();
    await ev.poller.drain(120_000);
    const calls = await route53.calls();
    const landed = route53.landed.slice(landedBefore);
    const records = await route53.records();
    const failedOver = profiles.filter((p, i) => {
      const values = records.filter((r) => r.name === p.dnsConfig.fqdn).flatMap((r) => r.values);
      return values.length === 1 && values[0] === `10.${(i >> 8) & 255}.${i & 255}.2`;
    }).length;
    const changeCalls = calls.filter((c) => c.operation === 'ChangeResourceRecordSets');
    const convergedMs = landed.length === 0 ? NaN : Math.max(...landed.map((l) => l.at)) - started;
    const withinLimits = landed.every((l) => l.resourceRecords <= 1_000 && l.valueCharacters <= 32_000);
    console.log(
      `   storm: ${down.length} verdict writes (1,000 targets × 3 regions) in ${written - started} ms → ` +
        `${changeCalls.length} ChangeResourceRecordSets call(s) (all calls: ${describeCalls(calls)}), ` +
        `batches ${landed.map((l) => `${l.changes} changes / ${l.resourceRecords} records / ${l.valueCharacters} value chars`).join('; ')}; ` +
        `${failedOver}/1000 names failed over; converged ${convergedMs} ms after the first write; stream batches delivered: ${ev.invocations.length}`,
    );
    summary.push({
      figure: 'storm of 1,000 profiles: Route 53 change calls',
      target: '≤ 2, each within limits',
      value: `${changeCalls.length} (within limits: ${withinLimits ? 'yes' : 'NO'}; ${failedOver}/1000 converged)`,
      met: changeCalls.length <= 2 && withinLimits && failedOver === 1000,
    });
    summary.push({
      figure: 'storm: time to converge',
      target: '(figure only)',
      value: `${convergedMs} ms`,
      met: true,
    });

    await quietMinutes(route53, ev, clock, profiles);
    if (ev.errors.length > 0)
      console.log(`   evaluator errors: ${ev.errors.length} (first: ${String(ev.errors[0])})`);
  } finally {
    await ev.stop();
  }
}

async function quietMinutes(
  route53: Route53Process,
  ev: Awaited<ReturnType<typeof startBenchEvaluator>>,
  clock: { now: number },
  profiles: readonly Profile[],
): Promise<void> {
  await route53.resetCalls();
  const invocationsBefore = ev.invocations.length;
  let ticksWritten = 0;
  let reconciles = 0;
  for (let minute = 1; minute <= 10; minute++) {
    clock.now += 60_000;
    await ev.heartbeats(clock.now);
    const tick = await ev.tick();
    if (tick.changed) ticksWritten++;
    if (tick.reconcileRequested) reconciles++;
    // Probe workers rewrite unchanged verdicts now and then (checkedAt moves, the verdict does not).
    const sample = profiles.filter((_, i) => (i + minute) % 10 === 0);
    const rewrites = verdictsFor(sample, ['primary'], REGIONS, 'down', clock.now).map((v) => ({
      ...v,
      since: START + 1_000,
    }));
    await ev.verdicts(rewrites, 16);
    await ev.poller.drain(60_000);
  }
  const calls = await route53.calls();
  const changeCalls = calls.filter((c) => c.operation === 'ChangeResourceRecordSets');
  console.log(
    `4. 10 simulated minutes, no status change (tick each minute with fresh heartbeats: ${ticksWritten} TICK write(s), ` +
      `${reconciles} reconcile(s) requested; 300 unchanged verdicts rewritten per minute; ` +
      `${ev.invocations.length - invocationsBefore} stream batches evaluated) → ` +
      `ChangeResourceRecordSets calls: ${changeCalls.length}; all Route 53 calls: ${describeCalls(calls)} (the reconciles' reads)`,
  );
  summary.push({
    figure: '10 quiet minutes: ChangeResourceRecordSets',
    target: '0',
    value: `${changeCalls.length} (reads by ${reconciles} reconciles: ${calls.length - changeCalls.length})`,
    met: changeCalls.length === 0,
  });
}

// ───────────────────────────── 5. reconcile cost ─────────────────────────────
/**
 * The reconcile as the evaluator runs it (reconcileZones: the production gateway, its 5 req/s
 * limiter) against a zone of `names` owned names, one A record set each, plus the zone's NS
 * and SOA. The statuses say what was published (no DynamoDB needed: the reconcile reads only
 * them). Calls per zone-hour = calls per reconcile × 12 (the default 5-minute interval).
 */
async function reconcileCost(names: number): Promise<void> {
  const route53 = await startRoute53Process(BENCH_ZONE_ID);
  const client = route53Client({ endpoint: route53.endpoint, credentials: LOCAL_CREDENTIALS });
  try {
    const published: RecordSet[] = Array.from({ length: names }, (_, i) => ({
      name: `owned${i}.example.com`,
      type: 'A',
      ttl: 30,
      values: [`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`],
    }));
    for (let start = 0; start < names; start += 1_000) {
      const batch = published.slice(start, start + 1_000);
      await client.send(
        new ChangeResourceRecordSetsCommand({
          HostedZoneId: BENCH_ZONE_ID,
          ChangeBatch: {
            Changes: batch.map((r) => ({ Action: 'CREATE', ResourceRecordSet: toSdkRecordSet(r) })),
          },
        }),
      );
    }
    const statuses = new Map<string, StoredStatus>(
      published.map((record, i) => [
        `owned${i}`,
        {
          // The reconcile reads only the zone, the name and what was published.
          report: { profile: `owned${i}`, status: 'Online', since: START, stale: false, endpoints: [] },
          hostedZoneId: BENCH_ZONE_ID,
          ownedName: record.name,
          published: [record],
          cidrCollections: [],
          revision: 1,
        },
      ]),
    );
    const events: EvaluatorEvent[] = [];
    // Repairs are written to the outbox with the zone's reconcile item (the publisher sends them).
    const store: Pick<EvaluatorStateStore, 'loadStatuses' | 'saveZoneReconciles'> = {
      loadStatuses: async () => statuses,
      saveZoneReconciles: async (_zones, outbox = []) => {
        for (const entry of outbox) events.push(...entry.events);
      },
    };
    const deps: EvaluatorDeps = {
      store: store as EvaluatorStateStore,
      zones: new Route53ZoneGateway(client),
      events: callbackSink(() => undefined),
      metrics: noMetrics,
      now: () => Date.now(),
    };
    const measure = async () => {
      await route53.resetCalls();
      const started = Date.now();
      await reconcileZones(deps);
      return { calls: await route53.calls(), ms: Date.now() - started };
    };
    await measure(); // warm-up
    const quiet = await measure();
    await client.send(
      new ChangeResourceRecordSetsCommand({
        HostedZoneId: BENCH_ZONE_ID,
        ChangeBatch: {
          Changes: [
            {
              Action: 'UPSERT',
              ResourceRecordSet: toSdkRecordSet({ ...published[0]!, values: ['203.0.113.66'] }),
            },
          ],
        },
      }),
    );
    const drifted = await measure();
    const repaired = events.filter((e) => e.kind === 'DriftRepaired').length;
    const perHour = (calls: number) => (calls * 3_600_000) / DEFAULT_RECONCILE_INTERVAL_MS;
    console.log(
      `5. reconcile, ${names.toLocaleString('en-US')} owned names in one zone: no drift ${quiet.calls.length} calls per reconcile ` +
        `(${describeCalls(quiet.calls)}; ${quiet.ms} ms at 5 req/s) = ${perHour(quiet.calls.length)} per zone-hour at the 5-minute default; ` +
        `one drifted record: ${drifted.calls.length} calls (${describeCalls(drifted.calls)}; ${drifted.ms} ms), ${repaired} DriftRepaired event(s)`,
    );
    summary.push({
      figure: `reconcile, ${names.toLocaleString('en-US')} owned names: Route 53 calls per zone-hour`,
      target: '(figure only)',
      value: `${perHour(quiet.calls.length)} (${quiet.calls.length} per reconcile; drift +${drifted.calls.length - quiet.calls.length})`,
      met: true,
    });
  } finally {
    client.destroy();
    await route53.stop();
  }
}

// ───────────────────────────── helpers ─────────────────────────────
function describeCalls(calls: readonly { operation: string; status: number }[]): string {
  const counts = new Map<string, number>();
  for (const call of calls)
    counts.set(
      `${call.operation}${call.status === 200 ? '' : ` (${call.status})`}`,
      (counts.get(`${call.operation}${call.status === 200 ? '' : ` (${call.status})`}`) ?? 0) + 1,
    );
  return calls.length === 0 ? 'none' : [...counts].map(([op, n]) => `${n} ${op}`).join(', ');
}

function eventOf(records: DynamoDBRecord[]): DynamoDBStreamEvent {
  return { Records: records };
}

function verdictRecord(item: VerdictItem, sequence: number): DynamoDBRecord {
  const keys = Keys.verdict(item.targetKey, item.region);
  return streamRecord(keys, { ...keys, ...item }, sequence);
}

function configRecord(profile: Profile, sequence: number): DynamoDBRecord {
  const keys = Keys.config(profile.name);
  return streamRecord(keys, { ...keys, name: profile.name, definition: JSON.stringify(profile) }, sequence);
}

function streamRecord(
  keys: { pk: string; sk: string },
  image: Record<string, unknown>,
  sequence: number,
): DynamoDBRecord {
  return {
    eventID: `bench-${sequence}`,
    eventName: 'MODIFY',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      Keys: marshall(keys) as never,
      NewImage: marshall(image, { removeUndefinedValues: true }) as never,
      SequenceNumber: String(sequence).padStart(21, '0'),
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
  };
}

function printSummary(): void {
  console.log(`\nsummary (whole bench ${round1((Date.now() - benchStarted) / 1000)} s)`);
  const widths = [46, 26, 44];
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 10)).join('  ');
  console.log(line(['figure', 'target', 'measured', 'met']));
  for (const row of summary) {
    console.log(
      line([
        row.figure,
        row.target,
        row.value,
        row.target.startsWith('(') ? '—' : row.met ? 'met' : 'NOT MET',
      ]),
    );
  }
}
