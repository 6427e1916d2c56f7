/**
 * End-to-end: the whole local stack (`tm local`'s code) with real probe workers against
 * loopback backends, the evaluator on the real DynamoDB Local stream, the local Route 53,
 * and answers read with `dig` over real DNS. Time scale 0.2: checks every 2 s, 1 s timeout
 * (generous enough for a loaded CI machine; the rules are the same at any scale).
 */
import { QueryCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { createServer, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dynamoDbClient } from '../../functions/shared/aws-clients.js';
import { freePort } from '../../infra/local/dynamodb-local.js';
import { localLog } from '../../infra/cli/local-log.js';
import { startLocalStack, type LocalStack } from '../../infra/local/stack.js';
import { parseDefinitions, type MonitorConfigInput } from '../support/profile-api.js';
import type { HistoryItem } from '../../shared/state/items.js';
import { profileDefinition, type ProfileDefinitionFields } from '../support/profiles.js';
import { eventually } from '../support/eventually.js';
import { stackStatuses } from '../support/stack-statuses.js';
import { tmAgainstTable } from '../support/tm.js';
import { dig, digAvailable } from './dns-fixtures.js';

const TIME_SCALE = 0.2;
const BACKENDS = { a: '127.0.0.21', b: '127.0.0.22', c: '127.0.0.23', d: '127.0.0.24' } as const;
type Backend = keyof typeof BACKENDS;

const healthy = new Map<Backend, boolean>(Object.keys(BACKENDS).map((k) => [k as Backend, true]));
const servers: Server[] = [];
/** What `tm local` prints. */
const logged: string[] = [];
let stack: LocalStack;
let port: number;

function definitions(overrides: Record<string, Partial<ProfileDefinitionFields>> = {}) {
  const monitorConfig: MonitorConfigInput = {
    port,
    intervalInSeconds: 10,
    timeoutInSeconds: 5,
    toleratedNumberOfFailures: 2,
  };
  const profile = (fields: ProfileDefinitionFields) =>
    profileDefinition({ dnsConfig: { ttl: 5 }, monitorConfig, ...fields, ...overrides[fields.name] });
  const list = [
    profile({
      name: 'prio',
      endpoints: [
        { name: 'a', target: BACKENDS.a },
        { name: 'b', target: BACKENDS.b },
      ],
    }),
    profile({
      name: 'wtd',
      trafficRoutingMethod: 'Weighted',
      endpoints: [
        { name: 'a', target: BACKENDS.a, weight: 1 },
        { name: 'b', target: BACKENDS.b, weight: 1 },
      ],
    }),
    profile({
      name: 'perf',
      trafficRoutingMethod: 'Performance',
      endpoints: [
        { name: 'a', target: BACKENDS.a, endpointLocation: 'us-east-1' },
        { name: 'b', target: BACKENDS.b, endpointLocation: 'eu-central-1' },
      ],
    }),
    profile({
      name: 'geo',
      trafficRoutingMethod: 'Geographic',
      endpoints: [
        { name: 'a', target: BACKENDS.a, geoMapping: ['GEO-EU'] },
        { name: 'b', target: BACKENDS.b, geoMapping: ['WORLD'] },
      ],
    }),
    profile({
      name: 'mv',
      trafficRoutingMethod: 'MultiValue',
      endpoints: [
        { name: 'a', target: BACKENDS.a },
        { name: 'b', target: BACKENDS.b },
        { name: 'c', target: BACKENDS.c },
      ],
      maxReturn: 8,
    }),
    profile({
      name: 'net',
      trafficRoutingMethod: 'Subnet',
      endpoints: [
        { name: 'a', target: BACKENDS.a, subnets: ['192.0.2.0/24'] },
        { name: 'b', target: BACKENDS.b },
      ],
    }),
    profile({
      name: 'parent',
      endpoints: [
        { name: 'child', type: 'nested', targetProfile: 'child' },
        { name: 'd', target: BACKENDS.d },
      ],
    }),
    profile({ name: 'child', endpoints: [{ name: 'c', target: BACKENDS.c }] }),
  ];
  const parsed = parseDefinitions(list);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.issues));
  return parsed.profiles;
}

async function answers(name: string, ...args: string[]): Promise<string[]> {
  const result = await dig(stack.dnsPort, [name, 'A', ...args]);
  return result.answers
    .filter((a) => a.type === 'A')
    .map((a) => a.data)
    .sort();
}

/** The history items of a profile, as `tm history` reads them from the table. */
async function historyOf(profile: string): Promise<HistoryItem[]> {
  const client = dynamoDbClient({
    endpoint: stack.dynamodbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    const page = await client.send(
      new QueryCommand({
        TableName: stack.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: `HISTORY#${profile}` } },
        ConsistentRead: true,
      }),
    );
    return (page.Items ?? []).map((item) => unmarshall(item) as HistoryItem);
  } finally {
    client.destroy();
  }
}

const statusOf = async (profile: string, endpoint: string) =>
  (await stackStatuses(stack)).get(profile)?.report.endpoints.find((e) => e.endpoint === endpoint);

async function allBackendsUpAndOnline() {
  for (const key of healthy.keys()) healthy.set(key, true);
  await eventually(
    () => stackStatuses(stack),
    (statuses) =>
      statuses.size === stack.profiles.length &&
      [...statuses.values()].every((s) => s.report.endpoints.every((e) => e.status === 'Online')),
    60_000,
  );
}

describe.skipIf(!digAvailable)('the local stack over real DNS', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    port = await freePort();
    for (const [key, address] of Object.entries(BACKENDS)) {
      const server = createServer((_req, res) => {
        res.writeHead(healthy.get(key as Backend) === true ? 200 : 503).end();
      });
      await new Promise<void>((resolve) => server.listen(port, address, resolve));
      servers.push(server);
    }
    stack = await startLocalStack({
      profiles: definitions(),
      dnsPort: 0,
      timeScale: TIME_SCALE,
      log: (line) => logged.push(line),
      ...localLog((line) => logged.push(line)),
    });
    await stack.published; // DNS answers SERVFAIL until the first publish
    await allBackendsUpAndOnline();
  }, 120_000);

  afterEach(() => {
    for (const key of healthy.keys()) healthy.set(key, true);
  });

  afterAll(async () => {
    await stack?.stop();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  });

  it('SPEC §3 timeline: Degraded exactly after tolerated+1 failed checks, Online again after one success', async () => {
    expect(await answers('prio.example.com')).toEqual([BACKENDS.a]);
    const seen = stack.events.length;
    healthy.set('a', false);
    await eventually(
      () => answers('prio.example.com'),
      (v) => v[0] === BACKENDS.b,
    );
    // The zone changes first; the status event follows in the same evaluation.
    await eventually(
      async () =>
        stack.events
          .slice(seen)
          .filter((e) => e.profile === 'prio' && e.endpoint === 'a' && e.to === 'Degraded'),
      (events) => events.length > 0,
    );
    const toDegraded = stack.events.slice(seen).filter((e) => e.endpoint === 'a' && e.profile === 'prio');
    const degraded = toDegraded.filter((e) => e.to === 'Degraded');
    expect(degraded).toHaveLength(1);
    expect(degraded[0]?.reason).toMatch(/^3 consecutive failures \(tolerated 2\)/);
    // Every transition timed: the history item has every field, its times in order.
    const [item] = (await historyOf('prio')).filter((i) => i.eventId === degraded[0]?.eventId);
    expect(item).toMatchObject({ profile: 'prio', endpoint: 'a', from: 'Online', to: 'Degraded' });
    expect(item?.votes).toHaveLength(3);
    expect(item?.recordsChanged.map((c) => c.values)).toContainEqual([BACKENDS.b]);
    const timing = item?.timing;
    const ms = (at: string | null | undefined) => Date.parse(at ?? '');
    for (const field of ['firstFailedCheckAt', 'decidedAt', 'changeSubmittedAt', 'inSyncAt'] as const)
      expect(Number.isFinite(ms(timing?.[field])), field).toBe(true);
    expect(ms(timing?.firstFailedCheckAt)).toBeLessThanOrEqual(ms(timing?.decidedAt));
    expect(ms(timing?.decidedAt)).toBeLessThanOrEqual(ms(timing?.changeSubmittedAt));
    expect(ms(timing?.changeSubmittedAt)).toBeLessThanOrEqual(ms(timing?.inSyncAt));
    expect(timing?.detectToPublishMs).toBe(ms(timing?.inSyncAt) - ms(timing?.firstFailedCheckAt));
    expect(timing?.expectedFormula).toMatch(
      /^\(\(2\+1\) × 10 s interval \+ 5 s timeout\) × time scale 0\.2 \+ 62 s publish \+ \d+ s TTL = /,
    );
    expect(degraded[0]?.timing).toEqual(timing); // the event carries the same timing
    console.info(
      `prio/a failover: detectToPublishMs ${timing?.detectToPublishMs} ms; formula ${timing?.expectedFormula}`,
    );

    const beforeRecovery = stack.events.length;
    healthy.set('a', true);
    await eventually(
      () => answers('prio.example.com'),
      (v) => v[0] === BACKENDS.a,
    );
    const recovered = () =>
      stack.events.slice(beforeRecovery).filter((e) => e.endpoint === 'a' && e.profile === 'prio');
    const toOnline = await eventually(
      async () => recovered(),
      (changes) => changes.length > 0,
    );
    expect(toOnline.map((e) => `${e.from}→${e.to}`)).toEqual(['Degraded→Online']);
    // Online once at least half of the three regions say up (the default quorum): the third
    // region's first success may land in the same evaluation or in the next one.
    expect(toOnline[0]?.reason).toMatch(/^up in [23]\/3 regions/);
  });

  it.each([
    { name: 'Priority answers the first endpoint', query: ['prio.example.com'], expected: [BACKENDS.a] },
    {
      name: 'Performance answers the endpoint in the client’s region (ECS 192.0.2.1 → eu-central-1)',
      query: ['perf.example.com', '+subnet=192.0.2.1/32'],
      expected: [BACKENDS.b],
    },
    {
      name: 'Performance answers us-east-1 to a client there (source 127.0.0.1)',
      query: ['perf.example.com'],
      expected: [BACKENDS.a],
    },
    {
      name: 'Geographic answers the continent mapping to a European client',
      query: ['geo.example.com', '+subnet=192.0.2.1/32'],
      expected: [BACKENDS.a],
    },
    { name: 'Geographic answers WORLD to anyone else', query: ['geo.example.com'], expected: [BACKENDS.b] },
    {
      name: 'MultiValue answers every healthy address',
      query: ['mv.example.com'],
      expected: [BACKENDS.a, BACKENDS.b, BACKENDS.c],
    },
    {
      name: 'Subnet answers the endpoint whose range holds the client',
      query: ['net.example.com', '+subnet=192.0.2.1/32'],
      expected: [BACKENDS.a],
    },
    {
      name: 'Subnet answers the fallback to an unmapped client',
      query: ['net.example.com', '+subnet=198.51.100.1/32'],
      expected: [BACKENDS.b],
    },
    {
      name: 'a nested endpoint answers the child profile’s address',
      query: ['parent.example.com'],
      expected: [BACKENDS.c],
    },
  ])('$name', async ({ query, expected }) => {
    const [name = '', ...args] = query;
    expect(await answers(name, ...args)).toEqual(expected);
  });

  it('Weighted answers both endpoints over many queries', async () => {
    const seen = new Set<string>();
    for (let i = 0; i < 30 && seen.size < 2; i++)
      for (const a of await answers('wtd.example.com')) seen.add(a);
    expect([...seen].sort()).toEqual([BACKENDS.a, BACKENDS.b]);
  });

  it('Geographic keeps answering a Degraded endpoint (no failover)', async () => {
    healthy.set('a', false);
    await eventually(
      () => statusOf('geo', 'a'),
      (s) => s?.status === 'Degraded',
    );
    expect(await answers('geo.example.com', '+subnet=192.0.2.1/32')).toEqual([BACKENDS.a]);
    expect(await answers('prio.example.com')).toEqual([BACKENDS.b]);
    await allBackendsUpAndOnline();
  });

  it('nested: the child’s only endpoint Degraded → the parent fails over to its next endpoint', async () => {
    healthy.set('c', false);
    await eventually(
      () => answers('parent.example.com'),
      (v) => v[0] === BACKENDS.d,
    );
    // Route 53 is changed before the status item is written: wait for the status too.
    await eventually(
      () => statusOf('parent', 'child'),
      (s) => s?.status === 'Degraded',
    );
    await allBackendsUpAndOnline();
    await eventually(
      () => answers('parent.example.com'),
      (v) => v[0] === BACKENDS.c,
    );
  });

  it('all degraded: every eligible endpoint is served again (MultiValue), and tm local says so', async () => {
    const seen = logged.length;
    for (const key of ['a', 'b', 'c'] as const) healthy.set(key, false);
    await eventually(
      () => statusOf('mv', 'c'),
      (s) => s?.status === 'Degraded',
    );
    await eventually(
      () => Promise.all(['a', 'b'].map((e) => statusOf('mv', e))),
      (s) => s.every((x) => x?.status === 'Degraded'),
    );
    expect(await answers('mv.example.com')).toEqual([BACKENDS.a, BACKENDS.b, BACKENDS.c]);
    expect((await stackStatuses(stack)).get('mv')?.report.status).toBe('Degraded');
    // The status items are written before the evaluation's events (and their log lines) go out.
    await eventually(
      async () => logged.slice(seen),
      (lines) =>
        lines.includes(
          'mv: every endpoint is Degraded — DNS now answers with all of them, as if all were Online (best effort: the all-degraded rule); the profile shows Degraded',
        ),
    );
    await allBackendsUpAndOnline();
    await eventually(
      async () => logged.slice(seen),
      (lines) =>
        lines.some((line) =>
          /^mv: \w+ is Online — DNS answers with the available endpoints only again$/.test(line),
        ),
    );
  });

  it('an endpoint disabled in the definitions is gone from the answers at once', async () => {
    const before = stack.events.length;
    await stack.setProfiles(
      definitions({
        prio: {
          endpoints: [
            { name: 'a', target: BACKENDS.a, endpointStatus: 'Disabled' },
            { name: 'b', target: BACKENDS.b },
          ],
        },
      }),
    );
    // No check can take a healthy endpoint out: only the definitions do. The bound is for a
    // loaded machine (the evaluation also applies static failover's structure), not a target.
    await eventually(
      () => answers('prio.example.com'),
      (v) => v[0] === BACKENDS.b,
      60_000,
    );
    await stack.setProfiles(definitions());
    await eventually(
      () => answers('prio.example.com'),
      (v) => v[0] === BACKENDS.a,
      60_000,
    );
    // Re-enabled means CheckingEndpoint (served) until checks after the re-enable decide; the
    // verdict of target a, probed all along for the other profiles, is from before and never counts.
    // On a loaded machine a check made after the re-enable can be in before the evaluation runs:
    // then that check decides at once (Disabled → Online), never a verdict from before.
    const prioA = await eventually(
      async () =>
        stack.events
          .slice(before)
          .filter((e) => e.profile === 'prio' && e.endpoint === 'a')
          .map((e) => `${e.from}→${e.to}`)
          .filter((t, i, all) => i >= all.indexOf('Online→Disabled') && all.includes('Online→Disabled')),
      (transitions) => transitions.at(-1)?.endsWith('→Online') === true,
      60_000,
    );
    expect([
      ['Online→Disabled', 'Disabled→CheckingEndpoint', 'CheckingEndpoint→Online'],
      ['Online→Disabled', 'Disabled→Online'],
    ]).toContainEqual(prioA);
  });

  it('a disabled profile answers NXDOMAIN', async () => {
    await stack.setProfiles(definitions({ wtd: { profileStatus: 'Disabled' } }));
    const result = await eventually(
      () => dig(stack.dnsPort, ['wtd.example.com', 'A']),
      (r) => r.status === 'NXDOMAIN',
    );
    expect(result.answers).toEqual([]);
    await stack.setProfiles(definitions());
    await eventually(
      () => answers('wtd.example.com'),
      (v) => v.length > 0,
    );
  });

  it('tm status prints every profile, endpoint, region vote and latency from the table', async () => {
    // The AWS path (--table --region) with the SDK's standard endpoint override pointing at DynamoDB Local.
    const human = await tmAgainstTable(stack, 'status', '--profile', 'prio');
    const json = await tmAgainstTable(stack, 'status', '--json');
    expect([human.code, json.code]).toEqual([0, 0]);
    expect(human.stdout).toMatch(/^prio {2}Online {2}since /);
    expect(human.stdout).toMatch(/\n {2}a +Online .*up in 3\/3 regions\n/);
    expect(human.stdout).toMatch(
      /us-east-1 up \d+ms[^·\n]* · eu-west-1 up \d+ms[^·\n]* · ap-southeast-1 up \d+ms/,
    );
    const document = JSON.parse(json.stdout) as { profiles: { profile: string }[] };
    expect(document.profiles.map((p) => p.profile).sort()).toEqual(stack.profiles.map((p) => p.name).sort());
  });

  it('a killed probe region: the other regions still decide', async () => {
    stack.faults.inject('region:ap-southeast-1');
    healthy.set('a', false);
    await eventually(
      () => answers('prio.example.com'),
      (v) => v[0] === BACKENDS.b,
    );
    // Route 53 is changed before the status item is written: wait for the status too.
    const status = await eventually(
      () => statusOf('prio', 'a'),
      (s) => s?.status === 'Degraded',
    );
    const votes = status?.votes.map((v) => `${v.region}:${v.vote}`);
    expect(votes).toContain('us-east-1:down');
    expect(votes).toContain('eu-west-1:down');
    healthy.set('a', true);
    await eventually(
      () => answers('prio.example.com'),
      (v) => v[0] === BACKENDS.a,
    );
  });

  it('every probe region killed: the answers stay as they were (fail static) and the status says stale', async () => {
    const before = await answers('prio.example.com');
    stack.faults.inject('region:us-east-1');
    stack.faults.inject('region:eu-west-1');
    healthy.set('a', false); // nobody probes any more: this must not change DNS
    await eventually(
      async () => {
        await stack.tick();
        return statusOf('prio', 'a');
      },
      (s) => s?.stale === true,
      80_000,
    );
    expect(await answers('prio.example.com')).toEqual(before);
    expect((await statusOf('prio', 'a'))?.status).toBe('Online');
  }, 120_000);
});
