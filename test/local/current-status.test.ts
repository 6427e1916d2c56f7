/**
 * `tm status` is current between verdict changes: after checks that change no verdict, each
 * region's vote shows the latest check's time and latency (from the heartbeats' summaries of
 * the last period), not the check that made the endpoint Online. The stack runs at time scale
 * 0.1: checks every second, a heartbeat every 6 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../infra/local/stack.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import { eventually } from '../support/eventually.js';
import { stackStatuses } from '../support/stack-statuses.js';
import { startLoopbackBackend, type LoopbackBackend } from '../support/loopback-backend.js';
import { profileDefinition } from '../support/profiles.js';
import { tmAgainstTable } from '../support/tm.js';

const BACKEND = '127.0.0.41';
const REGIONS = ['us-east-1', 'eu-west-1'];
let delayMs = 0;
let backend: LoopbackBackend;
let stack: LocalStack;

interface Vote {
  region: string;
  vote: string;
  checkedAt?: number;
  latencyMs?: number;
  lastPeriod?: { checks: number; failures: number; medianLatencyMs?: number };
}
type Document = { profiles: { profile: string; since: number; endpoints: { votes: Vote[] }[] }[] };

/** `tm status --json` through the AWS path (--table --region) against the stack's DynamoDB Local. */
async function statusJson(): Promise<Document> {
  const result = await tmAgainstTable(stack, 'status', '--json');
  if (result.code !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as Document;
}

describe('tm status between verdict changes', { timeout: 150_000 }, () => {
  beforeAll(async () => {
    backend = await startLoopbackBackend(BACKEND, (_req, res) => {
      setTimeout(() => res.writeHead(200).end('ok'), delayMs);
    });
    const profiles = parseDefinitionsOrThrow([
      profileDefinition({
        name: 'shop',
        dnsConfig: { ttl: 5 },
        monitorConfig: { port: backend.port, intervalInSeconds: 10, timeoutInSeconds: 5 },
        endpoints: [{ name: 'a', target: BACKEND }],
      }),
    ]);
    stack = await startLocalStack({ profiles, dnsPort: 0, timeScale: 0.1, regions: REGIONS });
    await stack.published; // DNS answers SERVFAIL until the first publish
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await backend?.close();
  });

  it('shows the latest check time and latency of every region, not the deciding check', async () => {
    // Prepare: the endpoint is Online; its votes hold the checks that decided it.
    const online = await eventually(
      () => stackStatuses(stack),
      (s) => s.get('shop')?.report.endpoints[0]?.status === 'Online',
      40_000,
    );
    const decided = online.get('shop')?.report.endpoints[0]?.votes ?? [];
    const decidedAt = new Map(decided.map((v) => [v.region, v.checkedAt ?? 0]));
    const since = online.get('shop')?.report.since;

    // Act: the backend gets slower; checks go on (one a second) and change no verdict.
    delayMs = 150;
    const current = await eventually(
      statusJson,
      (document) => {
        const votes = document.profiles[0]?.endpoints[0]?.votes ?? [];
        return (
          votes.length === REGIONS.length &&
          votes.every(
            (v) => (v.checkedAt ?? 0) > (decidedAt.get(v.region) ?? 0) + 3_000 && (v.latencyMs ?? 0) >= 100,
          )
        );
      },
      40_000,
    );

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
