/**
 * Integration: two profiles that check the same endpoint (same host, port, path, method,
 * headers) share the probe, and each profile's rule still sees only its own cadence and
 * its own timeout. Real loopback HTTP backend, the local probe region's real worker and
 * probers writing to DynamoDB Local, the evaluator's pure evaluation over what is stored.
 * Time scale 0.1: a 10 s interval is 1 s, a 30 s interval 3 s, timeouts 0.9 s / 1 s.
 */
import { ScanCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalProbeRegion, type LocalProbeRegion } from '../../infra/local/probe-region.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import type { Profile } from '../../shared/profile/types.js';
import { type HeartbeatItem, type VerdictItem } from '../../shared/state/items.js';
import { KeyPrefix } from '../../shared/state/keys.js';
import { evaluateProfiles, type ProfileStatusReport } from '../../shared/status/evaluate.js';
import { freshTable } from '../support/dynamodb.js';
import { profileDefinition } from '../support/profiles.js';

const TIME_SCALE = 0.1;
const REGION = 'eu-west-1';
const HOST = '127.0.0.31';
const FAST_MS = 10_000 * TIME_SCALE;
const SLOW_MS = 30_000 * TIME_SCALE;
const TOLERATED = 3;
/** Evaluation here runs every POLL_MS. */
const POLL_MS = 50;
/** Upper bounds allow for a loaded machine: the lower bounds are what these tests prove. */
const SLACK_MS = 1_500;

interface Backend {
  readonly port: number;
  healthy: boolean;
  /** Accepts the request and never answers. */
  hanging: boolean;
  /** Arrival times of the health-check requests. */
  readonly requests: number[];
  close(): Promise<void>;
}

async function startBackend(): Promise<Backend> {
  const backend = { healthy: true, hanging: false, requests: [] as number[] };
  const server: Server = createServer((request, response) => {
    if (request.url === '/health') backend.requests.push(Date.now());
    if (!backend.hanging) response.writeHead(backend.healthy ? 200 : 500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  return Object.assign(backend, {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

function definitions(port: number, slowTimeoutInSeconds: number | undefined): Profile[] {
  const profile = (name: string, intervalInSeconds: 10 | 30, timeoutInSeconds: number | undefined) =>
    profileDefinition({
      name,
      dnsConfig: { hostedZoneId: 'Z0123456789ABC', ttl: 5 },
      monitorConfig: {
        port,
        intervalInSeconds,
        ...(timeoutInSeconds === undefined ? {} : { timeoutInSeconds }),
        toleratedNumberOfFailures: TOLERATED,
      },
      probeRegions: [REGION],
      endpoints: [{ name: 'shared', target: HOST }],
    });
  return parseDefinitionsOrThrow([profile('fast', 10, undefined), profile('slow', 30, slowTimeoutInSeconds)]);
}

/** The evaluator's view of what the probe region has stored so far. */
async function evaluate(
  dynamodb: DynamoDBClient,
  tableName: string,
  profiles: readonly Profile[],
): Promise<ProfileStatusReport[]> {
  const items =
    (await dynamodb.send(new ScanCommand({ TableName: tableName, ConsistentRead: true }))).Items ?? [];
  const verdicts: VerdictItem[] = [];
  const heartbeats: HeartbeatItem[] = [];
  for (const raw of items) {
    const { pk, sk: _sk, ...item } = unmarshall(raw) as { pk: string; sk: string };
    if (pk.startsWith(KeyPrefix.verdict)) verdicts.push(item as unknown as VerdictItem);
    else if (pk.startsWith(KeyPrefix.region)) heartbeats.push(item as unknown as HeartbeatItem);
  }
  return evaluateProfiles({
    profiles,
    verdicts,
    heartbeats,
    previous: new Map(),
    defaultProbeRegions: [REGION],
    now: Date.now(),
  });
}

function statusOf(reports: readonly ProfileStatusReport[], profile: string): string | undefined {
  return reports.find((r) => r.profile === profile)?.endpoints[0]?.status;
}

/** Polls the evaluation until `done` holds for it (bounded by `limitMs`); returns when each profile first reached `status`. */
async function watch(
  context: { dynamodb: DynamoDBClient; tableName: string; profiles: readonly Profile[] },
  status: string,
  limitMs: number,
): Promise<Map<string, number>> {
  const reached = new Map<string, number>();
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline && reached.size < context.profiles.length) {
    const reports = await evaluate(context.dynamodb, context.tableName, context.profiles);
    for (const { name } of context.profiles)
      if (!reached.has(name) && statusOf(reports, name) === status) reached.set(name, Date.now());
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return reached;
}

let region: LocalProbeRegion | undefined;
let backend: Backend | undefined;

afterEach(async () => {
  await region?.stop();
  await backend?.close();
  region = undefined;
  backend = undefined;
});

async function start(slowTimeoutInSeconds: number | undefined) {
  backend = await startBackend();
  const { dynamodb, tableName } = await freshTable('tm-shared');
  const profiles = definitions(backend.port, slowTimeoutInSeconds);
  region = startLocalProbeRegion({
    region: REGION,
    dynamodb,
    tableName,
    profiles,
    defaultProbeRegions: [REGION],
    timeScale: TIME_SCALE,
    logger: { warn: () => undefined },
  });
  const context = { dynamodb, tableName, profiles };
  const online = await watch(context, 'Online', 8 * SLOW_MS);
  expect([...online.keys()].sort()).toEqual(['fast', 'slow']);
  return { context, backend };
}

describe('a target shared by a 10 s and a 30 s profile (SPEC §3 timeline for each)', () => {
  it('each profile is Degraded on its own 4th failed check at its own interval, not at the shared 10 s cadence', async () => {
    // Prepare: both profiles with the same timeout (9 s), so their checks are identical but for the interval.
    const { context, backend: server } = await start(9);
    // Act: the service goes down
    const downAt = Date.now();
    server.healthy = false;
    const degraded = await watch(context, 'Degraded', (TOLERATED + 2) * SLOW_MS + SLACK_MS);
    // Assess: the 4th failed check starts at least 3 of the profile's intervals after its first one,
    // which comes after the outage; and each gets there.
    const fast = (degraded.get('fast') ?? Infinity) - downAt;
    const slow = (degraded.get('slow') ?? Infinity) - downAt;
    expect(fast).toBeGreaterThanOrEqual(TOLERATED * FAST_MS);
    expect(slow).toBeGreaterThanOrEqual(TOLERATED * SLOW_MS);
    expect(slow).toBeLessThan(Infinity);
    expect(fast).toBeLessThan(slow);
  });

  it('profiles with the default timeouts (9 s at 10 s, 10 s at 30 s) share one probe per round, and each times out on its own schedule', async () => {
    // Prepare
    const { context, backend: server } = await start(undefined);
    // Act: count the health checks the backend receives over whole rounds while both are Online
    const from = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 3 * SLOW_MS));
    const until = Date.now();
    const checks = server.requests.filter((t) => t >= from && t < until).length;
    const rounds = (until - from) / FAST_MS;
    // Assess: at most one request per 10 s round (a separate 30 s probe would add one every third round)
    expect(checks).toBeLessThanOrEqual(Math.ceil(rounds) + 1);
    expect(checks).toBeGreaterThanOrEqual(rounds / 2);
    // Act: the service hangs; in the 30 s profile's rounds the probe waits 10 s (scaled), else 9 s
    const hungAt = Date.now();
    server.hanging = true;
    const degraded = await watch(context, 'Degraded', (TOLERATED + 2) * SLOW_MS + SLACK_MS);
    // Assess: each reaches Degraded, no sooner than its own tolerated intervals allow
    const fast = (degraded.get('fast') ?? Infinity) - hungAt;
    const slow = (degraded.get('slow') ?? Infinity) - hungAt;
    expect(fast).toBeGreaterThanOrEqual(TOLERATED * FAST_MS);
    expect(slow).toBeGreaterThanOrEqual(TOLERATED * SLOW_MS);
    expect(slow).toBeLessThan(Infinity);
    expect(fast).toBeLessThan(slow);
  });
});
