import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { route53Client } from '../../functions/shared/aws-clients.js';
import { InvalidChangeBatchError } from '../../functions/evaluator/errors.js';
import { Route53ZoneGateway } from '../../functions/evaluator/route53-zone-gateway.js';
import { startLocalRoute53, type LocalRoute53 } from '../../infra/local/route53/index.js';
import type { RecordSet } from '../../shared/zone/record-set.js';

const ZONE = 'Z00000000000000000009';
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
let route53: LocalRoute53;
let gateway: Route53ZoneGateway;

const a = (name: string, value: string): RecordSet => ({ name, type: 'A', ttl: 30, values: [value] });

beforeEach(async () => {
  route53 = await startLocalRoute53();
  route53.createHostedZone('example.com', ZONE);
  // The production client but its own fast limiter: these tests make hundreds of calls.
  gateway = new Route53ZoneGateway(
    route53Client({ endpoint: route53.endpoint, credentials, requestsPerSecond: 1000 }),
  );
});
afterEach(async () => {
  await route53.stop();
});

describe('the Route 53 zone gateway (real SDK client against the local Route 53)', () => {
  it('reading many names by listing the zone gives the same records as reading name by name, in fewer calls', async () => {
    const records = Array.from({ length: 700 }, (_, i) => a(`n-${i}.example.com`, `192.0.2.${i % 250}`));
    for (let i = 0; i < records.length; i += 400) {
      await gateway.publish(ZONE, [
        records.slice(i, i + 400).map((recordSet) => ({ action: 'CREATE' as const, recordSet })),
      ]);
    }
    const wanted = new Set(records.filter((_, i) => i % 2 === 0).map((r) => r.name));

    const before = route53.calls.length;
    const listed = await gateway.readRecords(ZONE, wanted);
    const listCalls = route53.calls.length - before;
    const oneByOne = (
      await Promise.all([...wanted].map((name) => gateway.readRecords(ZONE, new Set([name]))))
    ).flat();

    const key = (r: RecordSet) => `${r.name} ${r.values.join()}`;
    expect(listed.map(key).sort()).toEqual(oneByOne.map(key).sort());
    expect(listed).toHaveLength(350);
    expect(listCalls).toBeLessThan(10);
  });

  it('retries Throttling with backoff until the change lands', async () => {
    route53.setFaults({ throttleRate: 0.6 });
    await gateway.publish(ZONE, [[{ action: 'UPSERT', recordSet: a('shop.example.com', '192.0.2.1') }]]);
    route53.setFaults({ throttleRate: 0 });
    expect(route53.records(ZONE).find((r) => r.name === 'shop.example.com')?.values).toEqual(['192.0.2.1']);
  });

  it('surfaces a rejected batch as InvalidChangeBatchError with Route 53’s reasons', async () => {
    const change = { action: 'DELETE' as const, recordSet: a('missing.example.com', '192.0.2.1') };
    const error = await gateway.publish(ZONE, [[change]]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidChangeBatchError);
    expect((error as InvalidChangeBatchError).messages.join()).toMatch(/missing\.example\.com/);
  });
});
