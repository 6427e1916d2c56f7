/**
 * A table upgraded in place still holds heartbeats of the earlier layout, which carried each
 * judge's check summary and certificate themselves. Readers show what they carry, a replaced
 * worker takes their certificates over into its own item, and region items that cannot be
 * read (a summary whose judge list was replaced, an attribute that is not compressed JSON)
 * give nothing instead of an error. DynamoDB Local, the production store and codec.
 */
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbEvaluatorStore } from '../../functions/evaluator/dynamodb-state-store.js';
import { DynamoDbProbeStateStore } from '../../functions/probe/dynamodb-state-store.js';
import { createProbeWorker } from '../../functions/probe/worker.js';
import {
  checkSummariesRecord,
  judgeListRecord,
  readRegionItems,
} from '../../functions/shared/region-items.js';
import { judgeListVersion, toColumns } from '../../shared/monitor/check-summary-columns.js';
import { isRegionFresh } from '../../shared/monitor/staleness.js';
import { Keys } from '../../shared/state/keys.js';
import { withCertificates } from '../../shared/status/certificates.js';
import { withCurrentChecks } from '../../shared/status/current-checks.js';
import type { ProfileStatusReport } from '../../shared/status/report.js';
import { freshTable } from '../support/dynamodb.js';
import { fakeClock, noSleep, planned, scriptedProber } from './worker.fixtures.js';

const REGION = 'eu-west-1';
const T = Date.parse('2026-01-01T00:00:00Z');
const KEY = 'HTTPS:shop.example.net:443/health#0f1e2d3c|4b5a6978';

const report: ProfileStatusReport = {
  profile: 'shop',
  status: 'Online',
  since: T,
  stale: false,
  endpoints: [
    {
      endpoint: 'east',
      status: 'Online',
      since: T,
      reason: 'up in 1/1 regions',
      stale: false,
      targetKey: KEY,
      votes: [
        { region: REGION, vote: 'up', since: T, checkedAt: T, latencyMs: 5, detail: 'check succeeded' },
      ],
    },
  ],
};

async function setup() {
  const { dynamodb, tableName } = await freshTable();
  const put = (item: Record<string, unknown>) =>
    dynamodb.send(new PutItemCommand({ TableName: tableName, Item: marshall(item) }));
  return { dynamodb, tableName, put, evaluator: new DynamoDbEvaluatorStore(dynamodb, tableName) };
}

/** A heartbeat as the earlier layout wrote it: summaries and certificates inside. */
const oldHeartbeat = {
  ...Keys.heartbeat(REGION),
  region: REGION,
  at: T + 60_000,
  targets: 1,
  periodMs: 60_000,
  checkpoint: {},
  summaries: { [KEY]: [T + 55_000, 6, 1, 140, 120] },
  certificates: { [KEY]: [T + 30 * 86_400_000, 'shop.example.net', 'R11'] },
};

describe('region items after an upgrade', () => {
  it('a heartbeat of the earlier layout: staleness, tm status and the certificate read what it carries', async () => {
    // Prepare
    const { put, evaluator } = await setup();
    await put(oldHeartbeat);
    // Act
    const heartbeats = await evaluator.loadHeartbeats([REGION]);
    const checks = await evaluator.loadRegionChecks([REGION]);
    const [current] = withCertificates(withCurrentChecks([report], checks), checks, T + 60_000);
    // Assess
    expect(isRegionFresh(heartbeats, T + 60_000)).toBe(true);
    expect(current?.endpoints[0]?.votes[0]).toMatchObject({
      checkedAt: T + 55_000,
      latencyMs: 140,
      lastPeriod: { checks: 6, failures: 1, medianLatencyMs: 120 },
    });
    expect(current?.endpoints[0]).toMatchObject({
      certificate: { notAfter: T + 30 * 86_400_000, subject: 'shop.example.net', daysLeft: 29 },
    });
  });

  it('a worker replacing one of the earlier layout writes the certificates it restored into its own item', async () => {
    // Prepare
    const { dynamodb, tableName, put } = await setup();
    await put(oldHeartbeat);
    const clock = fakeClock(T + 70_000);
    const script = scriptedProber(clock);
    script.down.add(KEY); // its checks see no certificate
    const worker = createProbeWorker({
      region: REGION,
      store: new DynamoDbProbeStateStore(dynamodb, tableName),
      prober: script.prober,
      clock,
      sleep: noSleep,
      logger: { warn: () => undefined },
    });
    worker.setTargets([planned(KEY, { protocol: 'HTTPS', port: 443, toleratedNumberOfFailures: 5 })]);
    // Act
    await worker.runRound(T + 70_000, 10_000);
    // Assess
    const items = await readRegionItems(dynamodb, tableName, REGION);
    expect(items.certificates.map((c) => c.certificates)).toEqual([oldHeartbeat.certificates]);
    expect(items.heartbeats.map((h) => [h.summaries, h.certificates])).toEqual([[undefined, undefined]]);
  });

  it('a summary read against another judge list, or an attribute that is not compressed JSON, gives nothing', async () => {
    // Prepare: the summaries were written for [KEY]; the list was replaced by another since
    const { put, evaluator } = await setup();
    await put({
      ...Keys.heartbeat(REGION),
      region: REGION,
      at: T,
      targets: 1,
      periodMs: 60_000,
      checkpoint: {},
    });
    const summaries = new Map([[KEY, [T - 5_000, 6, 0, 12, 11] as const]]);
    await put(
      checkSummariesRecord({
        region: REGION,
        at: T,
        judges: judgeListVersion([KEY]),
        columns: toColumns([KEY], summaries, T),
      }),
    );
    await put(
      judgeListRecord({ region: REGION, at: T, version: judgeListVersion(['other']), keys: ['other'] }),
    );
    await put({
      ...Keys.certificates(REGION),
      region: REGION,
      at: T,
      certificates: new Uint8Array([1, 2, 3]),
    });
    // Act
    const checks = await evaluator.loadRegionChecks([REGION]);
    const [current] = withCertificates(withCurrentChecks([report], checks), checks, T);
    // Assess: the verdict's own check, no certificate
    expect(current?.endpoints[0]?.votes[0]).toEqual(report.endpoints[0]?.votes[0]);
    expect(current?.endpoints[0]).not.toHaveProperty('certificate');
  });
});
