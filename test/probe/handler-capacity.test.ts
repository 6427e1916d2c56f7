/**
 * The deployed round handler (functions/probe/handler.ts, as Lambda builds it from the
 * environment) stores its shard's measured CPU scale, which the region's tick sizes the region
 * by (docs/adr/0001-probe-cadence.md, "Shard size"), and reports each round's start lateness.
 */
import type { SQSEvent } from 'aws-lambda';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dynamoDbCapacityStore } from '../../functions/probe/capacity-store.js';
import { createProbeHandler } from '../../functions/probe/handler.js';
import { roundDueAtOf } from '../../shared/probe/round-schedule.js';
import { Keys } from '../../shared/state/keys.js';
import { freshTable, handlerEnvironment, putProfiles } from '../support/dynamodb.js';
import { logLinesOf } from '../support/log-lines.js';
import { external, monitor, profile } from './worker.fixtures.js';

/** The deployed handler; a new one is a new container's. */
let handler = createProbeHandler();

const REGION = 'eu-west-1';
const PERIOD = 10_000;
/** Enough requests for the constants to predict a round worth measuring (≥ 25 ms at 0.2 ms each). */
const TARGETS = 150;

const round = (dueAt: number): SQSEvent =>
  ({
    Records: [{ messageId: `m-${dueAt}`, body: JSON.stringify({ dueAt, roundPeriodMs: PERIOD }) }],
  }) as unknown as SQSEvent;

describe('the deployed round handler (DynamoDB Local, loopback HTTP targets)', () => {
  let server: Server;
  let table: Awaited<ReturnType<typeof freshTable>>;
  const saved = { ...process.env };

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    table = await freshTable();
    const fleet = Array.from({ length: TARGETS / 10 }, (_, i) =>
      profile(`fleet-${i}`, {
        monitorConfig: monitor({ port, path: `/p/${i}`, intervalInSeconds: 10, timeoutInSeconds: 5 }),
        endpoints: Array.from({ length: 10 }, (_, j) =>
          external(`e${j}`, `127.0.0.${j + 1}`, { targetKind: 'ipv4' }),
        ),
      }),
    );
    await putProfiles(table, fleet, [REGION]);
    Object.assign(process.env, handlerEnvironment(table, REGION));
    handler = createProbeHandler();
  });

  afterAll(async () => {
    process.env = saved;
    await new Promise((resolve) => server.close(resolve));
  });

  it('stores the shard’s measured CPU scale from its second round, where the tick reads it, and reports every round’s start lateness', async () => {
    // Act: a container's first round is not measured; the next one is, and nothing is stored yet.
    const first = roundDueAtOf(Date.now(), PERIOD);
    const raw: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write');
    const lines = await logLinesOf(async () => {
      await handler(round(first));
      // Delivered on time: a round more than 2 s early is skipped.
      await new Promise((resolve) => setTimeout(resolve, first + PERIOD - Date.now()));
      await handler(round(first + PERIOD));
      raw.push(...stderr.mock.calls.map(([chunk]) => String(chunk)));
    });
    stderr.mockRestore();
    // Assess
    const readings = await dynamoDbCapacityStore(table.dynamodb, table.tableName).read(REGION);
    expect(readings).toEqual([
      {
        ...Keys.capacity(REGION, 0),
        region: REGION,
        shard: 0,
        shards: 1,
        scale: expect.any(Number),
        at: expect.any(Number),
      },
    ]);
    expect(readings[0]!.scale).toBeGreaterThanOrEqual(0.5);
    const lateness = lines.filter((line) => 'ProbeStartLateness' in line);
    expect(lateness).toHaveLength(2);
    expect(lateness[0]).toMatchObject({ Region: REGION, ProbeStartLateness: expect.any(Number) });
    // Nothing else to publish is not worth a warning every round.
    expect(raw.filter((text) => text.includes('No application metrics'))).toEqual([]);
  });
});
