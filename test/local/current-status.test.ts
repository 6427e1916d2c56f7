/**
 * `tm status` is current between verdict changes: after checks that change no verdict, each
 * region's vote shows the latest check's time and latency (from the heartbeats' summaries of
 * the last period), not the check that made the endpoint Online. The stack runs at time scale
 * 0.1: checks every second, a heartbeat every 6 s.
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.js';
import { startLocalStack, type LocalStack } from '../../infra/local/stack.js';
import { parseDefinitionsOrThrow } from '../../shared/profile/index.js';
import { tmInProcess } from '../support/tm.js';

const BACKEND = '127.0.0.41';
const REGIONS = ['us-east-1', 'eu-west-1'];
let delayMs = 0;
let server: Server;
let stack: LocalStack;

interface Vote {
  region: string;
  vote: string;
  checkedAt?: number;
  latencyMs?: number;
  lastPeriod?: { checks: number; failures: number; medianLatencyMs?: number };
}
type Document = { profiles: { profile: string; since: number; endpoints: { votes: Vote[] }[] }[] };

async function eventually<T>(read: () => Promise<T> | T, accept: (value: T) => boolean, timeoutMs = 40_000) {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!accept(value)) {
    if (Date.now() > deadline) throw new Error(`not met within ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await read();
  }
  return value;
}

/** `tm status --json` through the AWS path (--table --region) against the stack's DynamoDB Local. */
async function statusJson(): Promise<Document> {
  const env = {
    AWS_ENDPOINT_URL_DYNAMODB: stack.dynamodbEndpoint,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    const result = await tmInProcess('status', '--table', stack.tableName, '--region', 'us-east-1', '--json');
    if (result.code !== 0) throw new Error(result.stderr);
    return JSON.parse(result.stdout) as Document;
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

describe('tm status between verdict changes', { timeout: 150_000 }, () => {
  beforeAll(async () => {
    const port = await freePort();
    server = createServer((_req, res) => {
      setTimeout(() => res.writeHead(200).end('ok'), delayMs);
    });
    await new Promise<void>((resolve) => server.listen(port, BACKEND, resolve));
    const profiles = parseDefinitionsOrThrow([
      {
        name: 'shop',
        trafficRoutingMethod: 'Priority',
        dnsConfig: { zoneName: 'example.com', relativeName: 'shop', ttl: 5 },
        monitorConfig: {
          protocol: 'HTTP',
          port,
          path: '/health',
          intervalInSeconds: 10,
          timeoutInSeconds: 5,
        },
        endpoints: [{ name: 'a', target: BACKEND }],
      },
    ]);
    stack = await startLocalStack({ profiles, dnsPort: 0, timeScale: 0.1, regions: REGIONS });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('shows the latest check time and latency of every region, not the deciding check', async () => {
    // Prepare: the endpoint is Online; its votes hold the checks that decided it.
    const online = await eventually(
      () => stack.statuses(),
      (s) => s.get('shop')?.report.endpoints[0]?.status === 'Online',
    );
    const decided = online.get('shop')?.report.endpoints[0]?.votes ?? [];
    const decidedAt = new Map(decided.map((v) => [v.region, v.checkedAt ?? 0]));
    const since = online.get('shop')?.report.since;

    // Act: the backend gets slower; checks go on (one a second) and change no verdict.
    delayMs = 150;
    const current = await eventually(statusJson, (document) => {
      const votes = document.profiles[0]?.endpoints[0]?.votes ?? [];
      return (
        votes.length === REGIONS.length &&
        votes.every(
          (v) => (v.checkedAt ?? 0) > (decidedAt.get(v.region) ?? 0) + 3_000 && (v.latencyMs ?? 0) >= 100,
        )
      );
    });

    // Assess: the status itself did not change (no verdict was written), the votes are current.
    const [profile] = current.profiles;
    expect(profile?.since).toBe(since);
    for (const vote of profile?.endpoints[0]?.votes ?? []) {
      expect(vote.vote).toBe('up');
      expect(vote.lastPeriod?.checks).toBeGreaterThanOrEqual(1);
      // A check may time out on a loaded machine; the count says so without changing the verdict.
      expect(vote.lastPeriod?.failures).toBeLessThanOrEqual(vote.lastPeriod?.checks ?? 0);
      expect(vote.lastPeriod?.medianLatencyMs).toBeGreaterThan(0);
    }
  });
});
