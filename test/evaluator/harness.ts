/**
 * The evaluator wired to real parts: DynamoDB Local (its real stream, polled like Lambda's
 * event source mapping), the local Route 53 through the real SDK client, the production
 * handler. Tests write config, verdict and heartbeat items the way the config writer and
 * the probe workers do, and read the zone back.
 */
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { marshall } from '@aws-sdk/util-dynamodb';
import { dynamoDbClient, eventBridgeClient, route53Client } from '../../functions/shared/aws-clients.js';
import type { AwsCallRecorder } from '../support/iam/recorder.js';
import { syncConfig } from '../../functions/config-writer/sync.js';
import { DynamoDbEvaluatorStore } from '../../functions/evaluator/dynamodb-state-store.js';
import type { EvaluatorDeps } from '../../functions/evaluator/evaluation.js';
import { callbackSink, eventBridgeSink } from '../../functions/evaluator/event-sinks.js';
import { createStreamHandler } from '../../functions/evaluator/handler.js';
import {
  isStatusEvent,
  noMetrics,
  type EvaluatorEvent,
  type EvaluatorMetrics,
} from '../../functions/evaluator/ports.js';
import { Route53ZoneGateway } from '../../functions/evaluator/route53-zone-gateway.js';
import type { RetryPolicy } from '../../functions/shared/retry.js';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';
import { runTick } from '../../functions/evaluator/tick.js';
import { startLocalEventBridge, type LocalEventBridge } from '../support/local-eventbridge.js';
import { startLocalRoute53, type LocalRoute53 } from '../../infra/local/route53/server.js';
import { startLocalCloudWatch } from '../../infra/local/cloudwatch/index.js';
import { staticFailoverDeps } from '../../functions/evaluator/static-failover-deps.js';
import { startStreamPoller } from '../../infra/local/stream-poller.js';
import { parseDefinitions, type ProfileInput } from '../support/profile-api.js';
import type { Profile } from '../../shared/profile/types.js';
import { endpointVerdictKey } from '../../shared/probe/target.js';
import { type HeartbeatItem, type VerdictItem } from '../../shared/state/items.js';
import { Keys } from '../../shared/state/keys.js';
import type { StoredCheckSummary } from '../../shared/monitor/check-summary.js';
import { judgeListVersion, toColumns } from '../../shared/monitor/check-summary-columns.js';
import { periodHistogram } from '../../shared/monitor/latency-histogram.js';
import {
  checkSummariesRecord,
  heartbeatRecord,
  judgeListRecord,
} from '../../functions/shared/region-items.js';
import type { RecordSet } from '../../shared/zone/record-set.js';
import { freshTable } from '../support/dynamodb.js';
import { profileDefinition, type ProfileDefinitionFields } from '../support/profiles.js';

/**
 * How long a test waits for the stream to be handled: the suite runs three files at a time on
 * two cores, beside DynamoDB Local, so a batch a quiet machine handles in 1 s took over 30 s.
 */
const DRAIN_MS = 90_000;

export const ZONE_ID = 'Z00000000000000000001';
export const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'] as const;
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };

/** A profile definition in the harness's zone: hosted zone `ZONE_ID`, TTL 30 s unless given. */
export function definition(fields: ProfileDefinitionFields): ProfileInput {
  return profileDefinition({ ...fields, dnsConfig: { hostedZoneId: ZONE_ID, ttl: 30, ...fields.dnsConfig } });
}

/** A Priority profile of two endpoints, `east` answered first, in the harness's zone. */
export const SHOP_DEFINITION = definition({
  name: 'shop',
  endpoints: [
    { name: 'east', target: '192.0.2.10' },
    { name: 'west', target: '192.0.2.20' },
  ],
});

export function profilesFrom(input: unknown[]): Profile[] {
  const parsed = parseDefinitions(input);
  if (!parsed.ok) throw new Error(`invalid test definitions: ${JSON.stringify(parsed.issues)}`);
  return parsed.profiles;
}

export interface EvaluatorHarnessOptions {
  readonly throttleRate?: number;
  /** Records the evaluator's and the tick's AWS calls (as principals `evaluator`, `evaluatorTick`). */
  readonly recorder?: AwsCallRecorder;
  /**
   * Events go to a local EventBridge (bus `traffic-manager`) through the Lambda's sink and client
   * instead of a callback; `events`/`allEvents` then stay empty and `bus.events` has them.
   */
  readonly eventBridge?: boolean;
  /** How long the local Route 53 reports a change PENDING before INSYNC. @default 0 */
  readonly changeDelayMs?: number;
  /**
   * Static failover on, as `STATIC_FAILOVER_DEPLOYMENT` turns it on: a local CloudWatch (harness
   * clock, evaluated by hand) whose alarms the local Route 53's health checks read.
   */
  readonly staticFailover?: { readonly deployment: string };
  /**
   * The Route 53 retry policy (zone and health-check gateways). @default ROUTE53_RETRY (30 s of retries) — a test of a
   * Route 53 outage shortens it so each refused evaluation fails in one call, not 30 s.
   */
  readonly route53Retry?: RetryPolicy;
  /** The local Route 53's health checks per account. @default 200 */
  readonly healthCheckQuota?: number;
}

/** The deployment's bus name (the default deployment name), so IAM sees the bus the stacks grant. */
export const EVENT_BUS = 'traffic-manager';

export async function startEvaluatorHarness(options: EvaluatorHarnessOptions = {}) {
  const table = await freshTable('tm-eval');
  // Near the real time: DynamoDB Local's TTL deletes items whose `expiresAt` has passed, and
  // history items live HISTORY_RETENTION_DAYS after their decision.
  const clock = { now: Math.floor(Date.now() / 60_000) * 60_000 };
  const cloudWatch =
    options.staticFailover === undefined
      ? undefined
      : await startLocalCloudWatch({ clock: { now: () => clock.now }, evaluateOnTimer: false });
  const route53 = await startLocalRoute53({
    ...(cloudWatch === undefined ? {} : { alarmStates: cloudWatch, healthCheckTickMs: 0 }),
    faults: { throttleRate: options.throttleRate ?? 0 },
    ...(options.healthCheckQuota === undefined ? {} : { healthCheckQuota: options.healthCheckQuota }),
    // PENDING until the harness clock has moved on by changeDelayMs.
    ...(options.changeDelayMs === undefined
      ? {}
      : { changeDelayMs: options.changeDelayMs, clock: { now: () => clock.now } }),
  });
  const bus: LocalEventBridge | undefined = options.eventBridge
    ? await startLocalEventBridge({ eventBuses: [EVENT_BUS] })
    : undefined;
  route53.createHostedZone('example.com', ZONE_ID);
  /** Status changes only; `allEvents` has every event the evaluator emitted. */
  const events: TransitionRecord[] = [];
  const allEvents: EvaluatorEvent[] = [];
  /** What static failover reported (its onError). */
  const staticErrors: unknown[] = [];
  // Each function has clients of its own, as in AWS (the test's own writes use table.dynamodb).
  const clientOf = (principal: string) => {
    const client = dynamoDbClient({ endpoint: table.endpoint, region: 'us-east-1', credentials });
    options.recorder?.attach(client, 'dynamodb', principal);
    return client;
  };
  const evaluatorDynamoDb = clientOf('evaluator');
  const store = new DynamoDbEvaluatorStore(evaluatorDynamoDb, table.tableName);
  const tickStore = new DynamoDbEvaluatorStore(clientOf('evaluatorTick'), table.tableName);
  // The Lambda's client and gateway settings; only the endpoint differs.
  const route53Api = route53Client({ endpoint: route53.endpoint, credentials });
  options.recorder?.attach(route53Api, 'route53', 'evaluator');
  const eventsApi =
    bus === undefined
      ? undefined
      : eventBridgeClient({ endpoint: bus.endpoint, region: 'us-east-1', credentials });
  if (eventsApi !== undefined) options.recorder?.attach(eventsApi, 'eventBridge', 'evaluator');
  const deps: EvaluatorDeps = {
    store,
    zones: new Route53ZoneGateway(
      route53Api,
      options.route53Retry === undefined ? {} : { retry: options.route53Retry },
    ),
    events:
      eventsApi === undefined
        ? callbackSink((event) => {
            allEvents.push(event);
            if (isStatusEvent(event)) events.push(event.record);
          })
        : eventBridgeSink(eventsApi, EVENT_BUS),
    metrics: noMetrics,
    now: () => clock.now,
    ...(options.staticFailover === undefined || cloudWatch === undefined
      ? {}
      : {
          staticFailover: staticFailoverDeps({
            deployment: options.staticFailover.deployment,
            tableName: table.tableName,
            dynamodb: { endpoint: table.endpoint, region: 'us-east-1', credentials },
            route53: { endpoint: route53.endpoint, credentials },
            cloudWatch: { endpoint: cloudWatch.endpoint, credentials },
            onError: (error) => staticErrors.push(error),
            ...(options.recorder === undefined ? {} : { clients: options.recorder.clients('evaluator') }),
            ...(options.route53Retry === undefined ? {} : { route53Retry: options.route53Retry }),
          }),
        }),
  };
  const deadLetters: { record: DynamoDBRecord; reason: string }[] = [];
  const poller = startStreamPoller({
    client: table.streams,
    streamArn: table.streamArn,
    handler: createStreamHandler(() => deps),
    pollIntervalMs: 20,
    onDeadLetter: (record, reason) => deadLetters.push({ record, reason }),
  });
  let profiles: Profile[] = [];

  const put = (item: Record<string, unknown>) =>
    table.dynamodb.send(
      new PutItemCommand({
        TableName: table.tableName,
        Item: marshall(item, { removeUndefinedValues: true }),
      }),
    );

  return {
    ...table,
    route53: route53 as LocalRoute53,
    /** The local CloudWatch (with `staticFailover`). */
    cloudWatch,
    staticErrors,
    /** The local EventBridge (with `eventBridge: true`). */
    bus,
    /** The evaluator's own DynamoDB client (tests inject faults into it). */
    evaluatorDynamoDb,
    deps,
    events,
    allEvents,
    clock,
    poller,
    /** Records the poller dead-lettered, oldest first. */
    deadLetters,
    /** Writes the definitions like the config writer does, and waits for the evaluation. */
    async define(input: unknown[], defaultRegions: readonly string[] = REGIONS) {
      profiles = profilesFrom(input);
      await syncConfig(table.dynamodb, table.tableName, profiles, defaultRegions, clock.now);
      await poller.drain(DRAIN_MS);
    },
    /** Every region reports alive now (with these check summaries of its last period; as shard `split.shard` of `split.shards`). */
    async heartbeat(
      regions: readonly string[] = REGIONS,
      at = clock.now,
      summaries?: Readonly<Record<string, StoredCheckSummary>>,
      split?: { readonly shard: number; readonly shards: number },
    ) {
      for (const region of regions) {
        // As the probe worker stores them: the period's latencies in the heartbeat, the
        // summaries in the shard's SUMMARY item, positional over its JUDGES list.
        const item: HeartbeatItem = {
          region,
          ...split,
          at,
          targets: 0,
          periodMs: 60_000,
          checkpoint: {},
          ...(summaries === undefined ? {} : { latencies: periodHistogram(summaries, at, 60_000) }),
        };
        await put(heartbeatRecord(item));
        if (summaries === undefined) continue;
        const keys = Object.keys(summaries).sort();
        const shard = split?.shard === undefined || split.shard === 0 ? {} : { shard: split.shard };
        const version = judgeListVersion(keys);
        await put(judgeListRecord({ region, ...shard, at, version, keys }));
        await put(
          checkSummariesRecord({
            region,
            ...shard,
            at,
            judges: version,
            columns: toColumns(keys, new Map(Object.entries(summaries)), at),
          }),
        );
      }
    },
    /** A region's verdict about one profile endpoint, as the probe worker writes it. */
    async verdict(
      profile: string,
      endpoint: string,
      verdict: 'up' | 'down',
      regions: readonly string[] = REGIONS,
      fields: (region: string) => Partial<VerdictItem> = () => ({}),
    ) {
      const p = profiles.find((x) => x.name === profile);
      const e = p?.endpoints.find((x) => x.name === endpoint);
      if (p === undefined || e === undefined || e.type !== 'external')
        throw new Error(`${profile}/${endpoint}?`);
      const targetKey = endpointVerdictKey(p, e);
      for (const region of regions) {
        const item: VerdictItem = {
          targetKey,
          region,
          verdict,
          since: clock.now,
          checkedAt: clock.now,
          detail: verdict === 'up' ? 'check succeeded' : '4 consecutive failures (tolerated 3)',
          ...fields(region),
        };
        await put({ ...Keys.verdict(targetKey, region), ...item });
      }
    },
    async allUp(regions: readonly string[] = REGIONS) {
      for (const p of profiles) {
        for (const e of p.endpoints) {
          if (e.type === 'external' && !e.alwaysServe) await this.verdict(p.name, e.name, 'up', regions);
        }
      }
    },
    settle: () => poller.drain(DRAIN_MS),
    /** The evaluator tick at the harness clock; `metrics` to capture what it emits. */
    tick: (metrics: EvaluatorMetrics = noMetrics) =>
      runTick({
        store: tickStore,
        metrics,
        now: () => clock.now,
        ...(deps.staticFailover === undefined ? {} : { staticFailover: deps.staticFailover }),
      }),
    records(name?: string): RecordSet[] {
      const all = route53.records(ZONE_ID);
      return name === undefined ? all : all.filter((r) => r.name === name);
    },
    /** The values a name answers with, sorted (all records of the name). */
    values(name: string): string[] {
      return this.records(name)
        .flatMap((r) => (r.aliasTarget !== undefined ? [`ALIAS ${r.aliasTarget.dnsName}`] : r.values))
        .sort();
    },
    changeCalls: () =>
      route53.calls.filter((c) => c.operation === 'ChangeResourceRecordSets' && c.status === 200),
    async stop() {
      await poller.stop();
      await route53.stop();
      await bus?.stop();
      await cloudWatch?.stop();
    },
  };
}

export type EvaluatorHarness = Awaited<ReturnType<typeof startEvaluatorHarness>>;
