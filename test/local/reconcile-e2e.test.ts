/**
 * Done when (drift repair): in `tm local`, a record changed through the local Route 53 API by
 * someone else is back in DNS within one reconcile interval — `dig` shows it — and the event
 * says what was repaired; `tm status` shows the zone's last reconcile. The whole local stack:
 * real probe workers, the evaluator on DynamoDB Local's stream, the local Route 53, real DNS.
 */
import { ChangeResourceRecordSetsCommand, Route53Client } from '@aws-sdk/client-route-53';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriftRepairedEvent } from '../../functions/evaluator/ports.js';
import { startLocalStack, type LocalStack } from '../../infra/local/stack.js';
import { parseDefinitions } from '../support/profile-api.js';
import { eventually } from '../support/eventually.js';
import { startLoopbackBackend, type LoopbackBackend } from '../support/loopback-backend.js';
import { profileDefinition } from '../support/profiles.js';
import { tmAgainstTable } from '../support/tm.js';
import { dig, digAvailable } from './dns-fixtures.js';

/** Ticks every 6 s; the reconcile interval of 4 minutes becomes 24 s (4 ticks). */
const TIME_SCALE = 0.1;
const RECONCILE_INTERVAL_MS = 4 * 60_000;
/** The evaluator's own time to read the zone, publish and wait for INSYNC, on a loaded machine. */
const PROCESSING_SLACK_MS = 5_000;
const BACKEND = '127.0.0.31';

let stack: LocalStack;
let backend: LoopbackBackend;
let outsider: Route53Client;

async function answers(): Promise<string[]> {
  const result = await dig(stack.dnsPort, ['shop.example.com', 'A']);
  return result.answers
    .filter((a) => a.type === 'A')
    .map((a) => a.data)
    .sort();
}

describe.skipIf(!digAvailable)('tm local repairs drift at owned names', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    backend = await startLoopbackBackend(BACKEND, (_req, res) => res.writeHead(200).end());
    const parsed = parseDefinitions([
      profileDefinition({
        name: 'shop',
        // Today's path: the evaluator owns the name itself (static failover's records have their own e2e).
        staticFailover: false,
        dnsConfig: { ttl: 5 },
        monitorConfig: { port: backend.port, intervalInSeconds: 10, timeoutInSeconds: 9 },
        // One endpoint: whatever the checks say on a loaded machine, it is the answer (all degraded).
        endpoints: [{ name: 'only', target: BACKEND }],
      }),
    ]);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
    stack = await startLocalStack({
      profiles: parsed.profiles,
      dnsPort: 0,
      timeScale: TIME_SCALE,
      reconcileIntervalMs: RECONCILE_INTERVAL_MS,
    });
    await stack.published; // DNS answers SERVFAIL until the first publish
    outsider = new Route53Client({
      endpoint: stack.route53Endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'someone', secretAccessKey: 'else' },
    });
    await eventually(answers, (v) => v[0] === BACKEND, 60_000);
  }, 120_000);

  afterAll(async () => {
    outsider?.destroy();
    await stack?.stop();
    await backend?.close();
  });

  it('a record someone else changes is back in DNS within one reconcile interval, and the DriftRepaired event says what was repaired', async () => {
    expect(stack.reconcileIntervalMs).toBe(RECONCILE_INTERVAL_MS * TIME_SCALE);
    const zoneId = stack.profiles[0]!.dnsConfig.hostedZoneId!;
    await outsider.send(
      new ChangeResourceRecordSetsCommand({
        HostedZoneId: zoneId,
        ChangeBatch: {
          Changes: [
            {
              Action: 'UPSERT',
              ResourceRecordSet: {
                Name: 'shop.example.com',
                Type: 'A',
                TTL: 300,
                ResourceRecords: [{ Value: '203.0.113.66' }],
              },
            },
          ],
        },
      }),
    );
    const changedAt = Date.now();
    expect(await answers()).toEqual(['203.0.113.66']);

    await eventually(answers, (v) => v[0] === BACKEND, stack.reconcileIntervalMs + PROCESSING_SLACK_MS);
    const backAfterMs = Date.now() - changedAt;
    expect(backAfterMs).toBeLessThanOrEqual(stack.reconcileIntervalMs + PROCESSING_SLACK_MS);

    // The event follows the zone change: it waits in the outbox until Route 53 reports the repair INSYNC.
    const driftEvents = async () =>
      stack.allEvents.filter((e): e is DriftRepairedEvent => e.kind === 'DriftRepaired');
    const repaired = await eventually(driftEvents, (events) => events.length > 0, PROCESSING_SLACK_MS);
    expect(repaired).toEqual([
      expect.objectContaining({
        profile: 'shop',
        name: 'shop.example.com',
        type: 'A',
        found: expect.objectContaining({ ttl: 300, values: ['203.0.113.66'] }),
        written: expect.objectContaining({ ttl: 5, values: [BACKEND] }),
        inSyncAt: expect.any(Number),
      }),
    ]);

    // tm status over the AWS path (--table --region), the SDK's endpoint override at DynamoDB Local.
    const human = await tmAgainstTable(stack, 'status');
    const json = await tmAgainstTable(stack, 'status', '--json');
    expect([human.code, json.code]).toEqual([0, 0]);
    expect(human.stdout).toMatch(
      new RegExp(`\\n {2}${zoneId} {2}.+ 1 owned name, 1 record set repaired \\(change \\S+\\)\\n`),
    );
    const document = JSON.parse(json.stdout) as {
      zones: { hostedZoneId: string; lastReconcile: { repaired: number; changeId?: string } | null }[];
    };
    expect(document.zones).toEqual([
      {
        hostedZoneId: zoneId,
        lastReconcile: expect.objectContaining({ names: 1, repaired: 1, changeId: repaired[0]?.changeId }),
      },
    ]);
  });
});
