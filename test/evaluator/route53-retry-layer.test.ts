/**
 * One retry layer for Route 53, sized for the account: the evaluator's own dependencies (built
 * from the environment exactly as the Lambda builds them) against the local Route 53. Every
 * attempt — first tries and retries alike — goes through the 5 requests/s limiter, so under
 * throttling the requests that reach Route 53 are exactly the limiter's slots.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Route53Client } from '@aws-sdk/client-route-53';
import { depsFromEnvironment } from '../../functions/evaluator/environment.js';
import { startLocalRoute53, type LocalRoute53 } from '../../infra/local/route53/index.js';
import type { Change } from '../../shared/zone/record-set.js';
import { clientsSeenBy } from '../support/aws-clients.js';

const ZONE = 'Z00000000000000000042';
/** Route 53's per-account API rate, which the evaluator's limiter enforces. */
const REQUESTS_PER_SECOND = 5;
const SLOT_MS = 1000 / REQUESTS_PER_SECOND;
/**
 * How much shorter than a slot an observed gap may be. The send time is read a few microtask hops
 * after the limiter reads its own clock, and the operating system may pause the process between
 * the two reads; the next gap then looks shorter by the pause (2.5 ms seen on a loaded
 * 2-core machine). A tenth of a slot still tells the limiter's spacing apart from none: the gateway
 * retries without a backoff of its own, so without the limiter its attempts go out milliseconds apart.
 */
const OBSERVATION_SLACK_MS = SLOT_MS / 10;

let route53: LocalRoute53;
/** performance.now() of every Route 53 request, taken as it goes to the socket. */
const sentAt: number[] = [];

const upsert = (name: string, value: string): Change => ({
  action: 'UPSERT',
  recordSet: { name, type: 'A', ttl: 30, values: [value] },
});

function lambdaDeps() {
  // The Lambda's environment: the SDK finds the endpoint and credentials the standard way.
  vi.stubEnv('AWS_ENDPOINT_URL_ROUTE_53', route53.endpoint);
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'local');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'local');
  vi.stubEnv('AWS_REGION', 'us-east-1');
  return depsFromEnvironment({ TABLE_NAME: 'tm-unused' }, timedClients);
}

/** One call first, so the client's one-off start (credentials, connection) is not in a measured gap. */
async function warm(deps: ReturnType<typeof lambdaDeps>): Promise<void> {
  await deps.zones.publish(ZONE, [upsert('warm.example.com', '192.0.2.250')]);
  await new Promise((resolve) => setTimeout(resolve, SLOT_MS));
}

function gaps(times: readonly number[]): number[] {
  return times.slice(1).map((t, i) => t - (times[i] as number));
}

/** The production factory; its Route 53 clients note when each request leaves the limiter. */
const timedClients = clientsSeenBy((client, service) => {
  if (service !== 'route53') return;
  const record = (next: (args: object) => Promise<object>) => (args: object) => {
    sentAt.push(performance.now());
    return next(args);
  };
  (client as Route53Client).middlewareStack.addRelativeTo(record as never, {
    relation: 'after',
    toMiddleware: 'route53RateLimit',
    name: 'testSentAt',
  });
});

beforeAll(async () => {
  route53 = await startLocalRoute53();
  route53.createHostedZone('example.com', ZONE);
});
afterEach(() => {
  route53.setFaults({ throttleRate: 0 });
  vi.unstubAllEnvs();
});
afterAll(async () => {
  await route53.stop();
});

describe('Route 53 retries: one layer, every attempt through the limiter', () => {
  it('under 100 % throttling for 3 s, the requests are exactly the limiter’s slots, then the change lands', async () => {
    const deps = lambdaDeps();
    await warm(deps);
    const windowMs = 3000;
    const before = route53.calls.length;
    const sentBefore = sentAt.length;
    route53.setFaults({ throttleRate: 1 });
    const throttled = setTimeout(() => route53.setFaults({ throttleRate: 0 }), windowMs);
    // Start half a slot into the window, so its end falls between two slots, not on one.
    await new Promise((resolve) => setTimeout(resolve, SLOT_MS / 2));

    await deps.zones.publish(ZONE, [upsert('shop.example.com', '192.0.2.1')]);
    clearTimeout(throttled);

    const calls = route53.calls.slice(before);
    const slotsInWindow = Math.ceil((windowMs - SLOT_MS / 2) / SLOT_MS);
    // Throttled in every slot of the window, then accepted. The window's end is a timer too: on
    // a loaded machine it and the slots may drift apart by one slot either way.
    const throttledCalls = calls.slice(0, -1);
    expect(throttledCalls.every((c) => c.status === 400)).toBe(true);
    expect(throttledCalls.length).toBeGreaterThanOrEqual(slotsInWindow - 1);
    expect(throttledCalls.length).toBeLessThanOrEqual(slotsInWindow + 1);
    expect(calls.at(-1)?.status).toBe(200);
    expect(calls.every((c) => c.operation === 'ChangeResourceRecordSets')).toBe(true);
    const sent = sentAt.slice(sentBefore);
    expect(sent).toHaveLength(calls.length);
    for (const gap of gaps(sent)) {
      expect(gap).toBeGreaterThanOrEqual(SLOT_MS - OBSERVATION_SLACK_MS);
      // The next attempt takes the next slot: no backoff on top of the limiter.
      expect(gap).toBeLessThan(2 * SLOT_MS);
    }
    expect(route53.records(ZONE).find((r) => r.name === 'shop.example.com')?.values).toEqual(['192.0.2.1']);
  });

  it('two evaluations at once share the limiter: together they stay at 5 requests/s', async () => {
    const deps = lambdaDeps();
    await warm(deps);
    const before = route53.calls.length;
    const sentBefore = sentAt.length;
    route53.setFaults({ throttleRate: 0.5 });

    await Promise.all(
      ['a', 'b'].map(async (profile) => {
        for (let i = 0; i < 3; i++)
          await deps.zones.publish(ZONE, [upsert(`${profile}.example.com`, `192.0.2.${i + 1}`)]);
      }),
    );

    const times = sentAt.slice(sentBefore);
    expect(times).toHaveLength(route53.calls.length - before);
    expect(times.length).toBeGreaterThanOrEqual(6);
    for (const gap of gaps(times)) expect(gap).toBeGreaterThanOrEqual(SLOT_MS - OBSERVATION_SLACK_MS);
  });
});
