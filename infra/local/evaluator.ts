/**
 * The local stack's evaluator, wired as the deployment's: its stream handler driven by the stream
 * poller over the home table's stream, its tick, the local Route 53 as its zones and static
 * failover against the local stand-ins. Starting it writes the definitions and the reconcile
 * request that is the first publish.
 */
import { syncConfig } from '../../functions/config-writer/sync.js';
import { DynamoDbEvaluatorStore } from '../../functions/evaluator/dynamodb-state-store.js';
import type { EvaluatorDeps } from '../../functions/evaluator/evaluation.js';
import { callbackSink } from '../../functions/evaluator/event-sinks.js';
import { createStreamHandler } from '../../functions/evaluator/handler.js';
import { isStatusEvent, noMetrics, type EvaluatorEvent } from '../../functions/evaluator/ports.js';
import { Route53ZoneGateway } from '../../functions/evaluator/route53-zone-gateway.js';
import { staticFailoverDeps } from '../../functions/evaluator/static-failover-deps.js';
import { runTick } from '../../functions/evaluator/tick.js';
import { route53Client } from '../../functions/shared/aws-clients.js';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';
import type { Profile } from '../../shared/profile/types.js';
import { KeyPrefix } from '../../shared/state/keys.js';
import type { LocalCloudWatch } from './cloudwatch/index.js';
import { watchFirstPublish } from './first-publish.js';
import { LOCAL_CREDENTIALS as credentials, LOCAL_TABLE_NAME, type HomeTable } from './home-table.js';
import type { LocalRoute53 } from './route53/index.js';
import { startStreamPoller } from './stream-poller.js';

export async function startLocalEvaluator(options: {
  readonly home: HomeTable;
  readonly route53: LocalRoute53;
  readonly cloudWatch: LocalCloudWatch;
  /** The static failover deployment name. */
  readonly deployment: string;
  readonly regions: readonly string[];
  readonly timeScale: number;
  readonly reconcileIntervalMs: number;
  /** The definitions, written to the table before the first publish. */
  readonly profiles: readonly Profile[];
  readonly onEvent: (event: EvaluatorEvent) => void;
  /** Re-plans the probe workers from the effective config: called when a runtime control changes. */
  readonly replanWorkers: () => Promise<void>;
  /** The home-region fault: while it is on, the stream is not polled and the tick does nothing. */
  readonly homeRegionDown: () => boolean;
  readonly log: (line: string) => void;
  /** Where each part's stop goes, in start order. */
  readonly cleanup: (() => Promise<void>)[];
}) {
  const { home, route53, regions, timeScale, reconcileIntervalMs, log } = options;
  const { dynamodb, logStoreError } = home;
  // Static failover, as the deployment runs it: the evaluator applies the structure and its tick
  // publishes the guard.
  const staticFailover = staticFailoverDeps({
    deployment: options.deployment,
    tableName: LOCAL_TABLE_NAME,
    dynamodb: { endpoint: home.ddb.endpoint, region: 'us-east-1', credentials },
    route53: { endpoint: route53.endpoint, credentials },
    cloudWatch: { endpoint: options.cloudWatch.endpoint, credentials },
    onError: (error) =>
      logStoreError(`static failover: ${(error as Error).message} (retried on the next trigger)`, error),
  });
  const events: TransitionRecord[] = [];
  const allEvents: EvaluatorEvent[] = [];
  const now = () => Date.now();
  const store = new DynamoDbEvaluatorStore(dynamodb, LOCAL_TABLE_NAME);
  const deps: EvaluatorDeps = {
    store,
    zones: new Route53ZoneGateway(route53Client({ endpoint: route53.endpoint, credentials })),
    events: callbackSink((event) => {
      allEvents.push(event);
      if (isStatusEvent(event)) events.push(event.record);
      options.onEvent(event);
    }),
    metrics: noMetrics,
    now,
    timeScale,
    staticFailover,
    onPublishError: (error) => log(`events: ${(error as Error).message} (kept in the outbox, retried)`),
  };

  await syncConfig(dynamodb, LOCAL_TABLE_NAME, options.profiles, regions);
  // After the definitions: its reconcile is the first publish; DNS answers once it landed.
  const firstPublish = watchFirstPublish(now());
  await store.saveReconcileRequest({ requestedAt: firstPublish.requestedAt });
  const evaluator = createStreamHandler(() => deps, {
    onError: (error) =>
      logStoreError(`evaluator: ${(error as Error).message} (the batch will be retried)`, error),
  });
  const poller = startStreamPoller({
    client: home.streams,
    streamArn: home.streamArn,
    handler: async (event) => {
      // A runtime control (`tm endpoint disable` from another terminal) changes what is probed:
      // the workers re-plan from the effective config, as the cloud's probe handlers do each
      // minute — beside the evaluation, which does not wait for it.
      const replan = event.Records.some((r) => r.dynamodb?.Keys?.pk?.S === KeyPrefix.control)
        ? options.replanWorkers()
        : undefined;
      const [response] = await Promise.all([evaluator(event), replan]);
      firstPublish.observe(event, response);
      return response;
    },
    onError: (error) => logStoreError(`stream poller: ${(error as Error).message}`, error),
    paused: options.homeRegionDown,
    onDeadLetter: (record, reason) =>
      log(
        `evaluator: dead-lettered ${record.dynamodb?.Keys?.pk?.S}/${record.dynamodb?.Keys?.sk?.S}: ${reason}`,
      ),
  });
  options.cleanup.push(() => poller.stop());

  /** One evaluator tick; none while the home region is down. */
  const tick = async () => {
    if (options.homeRegionDown()) return;
    const outcome = await runTick({ store, metrics: noMetrics, now, reconcileIntervalMs, staticFailover });
    if (outcome.changed && outcome.stale.length > 0) log(`stale probe regions: ${outcome.stale.join(', ')}`);
  };
  /** `published` resolves once the first publish has landed. */
  return { published: firstPublish.ready, poller, events, allEvents, tick };
}
