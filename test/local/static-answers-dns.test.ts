/**
 * Same answers as today, through the local DNS server (issue 23, "done when" item 2): for a table
 * of profiles — every routing method, nested, all degraded — and seeded random endpoint statuses,
 * the static-failover structure (docs/adr/0011-static-failover.md) published in the local Route 53
 * answers `dig` exactly what today's planner publishes for the same statuses, except the
 * differences the ADR documents. (test/core/static-failover.property.test.ts checks the same
 * against the pure oracle of Route 53's rules; this goes through the real pieces.)
 *
 * Per case and draw, in a hosted zone and a deployment of its own (so every health check is new):
 * - **Published as the evaluator does**: the production planner (`planStatic`); its health checks
 *   created children first through the production gateway and client (`route53Client`), logical
 *   ids mapped to HealthCheckIds; the records — `_static.<fqdn>` with those ids, the switch at the
 *   fqdn, and `_fast.<fqdn>` — by the evaluator's `publishZone`. `_fast` holds what the evaluator
 *   published before the fault: today's planner for other ("stale") statuses, drawn too.
 * - **The fault**: the guard's alarm is in ALARM in every probe region (the evaluator stopped
 *   publishing: home region or Route 53's API down). We query the fqdn, through the switch, not
 *   `_static.<fqdn>`: that is the name clients ask during the fault, and the switch's own rule (no
 *   healthy record under `_static` → `_fast`) is then part of what is compared.
 * - **Statuses → alarms**, per target (verdict key), in each probe region (`setVotes`): Online →
 *   at least the quorum's up votes OK, the other regions ALARM; Degraded → fewer OK than the
 *   quorum needs; CheckingEndpoint → no alarm state anywhere (INSUFFICIENT_DATA: a new check with
 *   LastKnownStatus is healthy, as CheckingEndpoint is available today; the ADR row "not yet
 *   decided" differs only once a region has voted down, which a new check has not); Disabled →
 *   `tm endpoint disable` during the fault, which (ADR "Steering without the control plane")
 *   forces the vote alarm to ALARM in every region while the record stays. Disabled in the
 *   configuration is in the table too (`p3`, `asia`): neither the structure nor today has it.
 *   alwaysServe endpoints carry no check (Unmonitored today).
 * - **Expected**: today's planner (`planRecords` over `statusesFromOverrides`, as `tm plan
 *   --status` computes it) answered for the same client by the same answer rules, in process
 *   (`answerQuestion` over records without health checks: only the routing policies decide).
 *   Compared per profile and client: the rcode and the set of values over a sweep of the DNS
 *   server's random source — every g = (i + ½) / K with K at least the total weight of the
 *   weighted profile on the way, so every weighted record that can be answered is answered at
 *   least once; the same sweep on both sides. Deterministic: no sampling, nothing flaky. (The
 *   table has at most one weighted profile on any path, which is what makes one g per query
 *   enough.)
 *
 * Documented differences (ADR 0011, "Where the data plane cannot carry an Azure rule exactly"),
 * each replacing today's answer by the documented one, and named in a failure (`ROWS`):
 * - "all endpoints down with the guard unhealthy": a failover profile with no endpoint up answers
 *   `_fast` — expected: today's planner for the stale statuses;
 * - "Disabled under all-degraded (outage-time disable)": the static path cannot tell an endpoint
 *   disabled during the fault from a Degraded one, which shows once every endpoint is down (above
 *   at the switch; under a Geographic or Subnet parent, whose alias does not evaluate health, the
 *   child's all-unhealthy rule serves the disabled one too) — expected: today's planner with such
 *   endpoints of failover profiles Degraded;
 * - "MultiValue `maxReturn`": every healthy record, up to 8 — expected: today's planner with
 *   `maxReturn` 8.
 * Rows the table never draws, so nothing is excluded for them: "a silent probe region" (every
 * region votes, or none: CheckingEndpoint), "`minChildEndpoints` > 1" (all 1), "nested endpoint
 * under a host-name (CNAME) parent" (the host-name profile has no nested endpoint), "Priority with
 * both IPv4 and IPv6 endpoints" (one family per profile: the switch would alias a type `_fast`
 * lacks, the ADR's open point), "overrides set during an outage" (no overrides).
 *
 * Kept out of the table — disagreements that are no documented difference (defects, reported with
 * issue 23; this test found them with such cases in the table):
 * 1. A nested endpoint whose child is Geographic or Subnet, under a failover parent (seen under
 *    Priority, Weighted and Performance parents). The child's `_static` records carry no check
 *    (Azure's no-failover rule for the child itself), so the parent's alias to it
 *    (EvaluateTargetHealth) is always healthy and the parent never fails over away from it;
 *    today the nested endpoint is Degraded once every child endpoint is, and the parent fails
 *    over. E.g. `guarded` (Priority: nested
 *    `regional` (Geographic: `de` DE, `world` WORLD), then `backup`), `de` and `world` Degraded,
 *    `backup` Online: today answers `backup`, the structure `regional`'s record for the client.
 * 2. `tm endpoint disable` during the fault, of an endpoint of a Geographic or Subnet profile:
 *    its record carries no check, so forcing its alarm changes nothing and it keeps answering;
 *    today its location or range loses it. E.g. `geo` with `california` (US-CA) disabled: a client
 *    in California gets `california`, today `world`. Disabled is therefore drawn only for
 *    endpoints of failover profiles (`drawStatuses`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Route53HealthCheckGateway } from '../../functions/evaluator/health-check-gateway.js';
import { noMetrics } from '../../functions/evaluator/ports.js';
import { publishZone } from '../../functions/evaluator/publish-zone.js';
import { Route53ZoneGateway } from '../../functions/evaluator/route53-zone-gateway.js';
import { planStatic } from '../../functions/evaluator/static-failover-publisher.js';
import { route53Client } from '../../functions/shared/aws-clients.js';
import {
  answerQuestion,
  DEFAULT_CLIENT_LOCATIONS,
  MAX_MULTIVALUE_RECORDS,
  startDnsServer,
  type DnsServer,
} from '../../infra/local/dns/index.js';
import { startLocalRoute53, type LocalRoute53 } from '../../infra/local/route53/server.js';
import { withCollectionIds } from '../../shared/evaluation/cidr-collections.js';
import { parseIp } from '../../shared/ip/addresses.js';
import { upVotesNeeded } from '../../shared/monitor/quorum.js';
import { endpointVerdictKey } from '../../shared/probe/target.js';
import { parseDefinitions } from '../../shared/profile/parse.js';
import { profileDefinition, type ProfileDefinitionFields } from '../../shared/profile/profile-definition.js';
import type { EndpointInput } from '../../shared/profile/schema.js';
import type { Profile, RoutingMethod } from '../../shared/profile/types.js';
import { createAddressing } from '../../shared/routing/addressing.js';
import { cidrCollectionOf } from '../../shared/routing/cidr-collections.js';
import { failsOver } from '../../shared/routing/failover-methods.js';
import { planRecords, type RecordPlan } from '../../shared/routing/planner.js';
import { targetIdOf, voteAlarmNameOf } from '../../shared/static-failover/identity.js';
import { fastPathRecords } from '../../shared/static-failover/records.js';
import { CheckRole, type StaticRecord } from '../../shared/static-failover/types.js';
import { endpointStatusLookup, statusesFromOverrides } from '../../shared/status/evaluate.js';
import { AVAILABLE_STATUSES, EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import type { CidrCollection, RecordSet, RecordType } from '../../shared/zone/record-set.js';
import { fakeAlarmStates, type FakeAlarmStates } from '../support/alarm-states.js';
import { dig, digAvailable, inMemoryZones, seededRandom } from './dns-fixtures.js';

/** Change it to see other draws; a failure names the case and the draw, which reproduce with it. */
const SEED = 23;
/**
 * Per case: the first draws give every monitored endpoint one status — all Degraded (all
 * degraded), then all disabled during the fault (where drawn: failover profiles; the others
 * Degraded) — the others are random. 14 cases × 5 draws: 295 dig queries.
 */
const DRAWS = 5;
const FIRST_DRAWS: readonly Drawn[] = ['Degraded', 'Disabled'];
const DEFAULT_PROBE_REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];
const NOW = Date.UTC(2026, 0, 1);

// Clients, as ECS addresses, where the built-in client-location table puts them.
const US = '127.0.0.1'; // US, NA, us-east-1 (plain `dig @127.0.0.1`)
const DE = '192.0.2.1'; // DE, EU, eu-central-1
const GB = '2001:db8::1'; // GB, EU, eu-west-2
const JP = '198.51.100.1'; // JP, AS, ap-northeast-1
const US_CA = '203.0.113.1'; // US, NA, subdivision CA, us-west-1
const AU = '100.64.1.1'; // AU, OC, ap-southeast-2

/** The clients a method's answer depends on; the others answer every client alike. */
const CLIENTS: Partial<Record<RoutingMethod, readonly string[]>> = {
  Performance: [US, DE, JP, AU],
  Geographic: [DE, GB, US_CA, JP],
  Subnet: [DE, JP, US_CA, US],
};

type Monitored = 'Online' | 'Degraded' | 'CheckingEndpoint';
/** A drawn status: a monitor status, or `Disabled` — `tm endpoint disable` during the fault. */
type Drawn = Monitored | 'Disabled';

interface Case {
  readonly name: string;
  /** Definitions (the file format); zone and hosted zone id are set per draw. */
  readonly profiles: readonly ProfileDefinitionFields[];
}

const ip = (name: string, target: string, fields: Partial<EndpointInput> = {}): EndpointInput =>
  ({ name, target, ...fields }) as EndpointInput;
const child = (name: string, targetProfile: string, fields: Partial<EndpointInput> = {}): EndpointInput =>
  ({ name, type: 'nested', targetProfile, ...fields }) as EndpointInput;

const CASES: readonly Case[] = [
  {
    name: 'Priority, one probe region, a Disabled endpoint and an alwaysServe one last',
    profiles: [
      {
        name: 'prio',
        probeRegions: ['eu-west-1'],
        endpoints: [
          ip('p1', '10.1.0.1'),
          ip('p2', '10.1.0.2'),
          ip('p3', '10.1.0.3', { endpointStatus: 'Disabled' }),
          ip('p4', '10.1.0.4', { alwaysServe: true }),
        ],
      },
    ],
  },
  {
    name: 'Priority, three probe regions, quorum all',
    profiles: [
      {
        name: 'prio3',
        monitorConfig: { regionQuorum: 'all' },
        endpoints: [ip('a', '10.2.0.1'), ip('b', '10.2.0.2'), ip('c', '10.2.0.3')],
      },
    ],
  },
  {
    name: 'Priority of host names (CNAME), two probe regions, quorum any',
    profiles: [
      {
        name: 'hosts',
        probeRegions: ['us-east-1', 'eu-west-1'],
        monitorConfig: { regionQuorum: 'any' },
        endpoints: [ip('h1', 'h1.example.net'), ip('h2', 'h2.example.net'), ip('h3', 'h3.example.net')],
      },
    ],
  },
  {
    name: 'Weighted, three probe regions (Azure’s half rule)',
    profiles: [
      {
        name: 'weighted',
        trafficRoutingMethod: 'Weighted',
        endpoints: [
          ip('w1', '10.4.0.1', { weight: 1 }),
          ip('w2', '10.4.0.2', { weight: 2 }),
          ip('w3', '10.4.0.3', { weight: 3 }),
          ip('w4', '10.4.0.4', { weight: 1 }),
        ],
      },
    ],
  },
  {
    name: 'Performance, two regions with two endpoints each, quorum majority',
    profiles: [
      {
        name: 'perf',
        trafficRoutingMethod: 'Performance',
        monitorConfig: { regionQuorum: 'majority' },
        endpoints: [
          ip('use1a', '10.5.0.1', { endpointLocation: 'us-east-1' }),
          ip('euc1a', '10.5.0.2', { endpointLocation: 'eu-central-1' }),
          ip('use1b', '10.5.0.3', { endpointLocation: 'us-east-1' }),
          ip('apne1', '10.5.0.4', { endpointLocation: 'ap-northeast-1' }),
          ip('euc1b', '10.5.0.5', { endpointLocation: 'eu-central-1' }),
        ],
      },
    ],
  },
  {
    name: 'MultiValue, maxReturn 2, quorum 2 of 3',
    profiles: [
      {
        name: 'multi',
        trafficRoutingMethod: 'MultiValue',
        maxReturn: 2,
        monitorConfig: { regionQuorum: 2 },
        endpoints: [1, 2, 3, 4, 5].map((i) => ip(`m${i}`, `10.6.0.${i}`)),
      },
    ],
  },
  {
    name: 'Geographic (no failover), a Disabled endpoint',
    profiles: [
      {
        name: 'geo',
        trafficRoutingMethod: 'Geographic',
        endpoints: [
          ip('world', '10.7.0.1', { geoMapping: ['WORLD'] }),
          ip('europe', '10.7.0.2', { geoMapping: ['GEO-EU'] }),
          ip('germany', '10.7.0.3', { geoMapping: ['DE'] }),
          ip('california', '10.7.0.4', { geoMapping: ['US-CA'] }),
          ip('asia', '10.7.0.5', { geoMapping: ['GEO-AS'], endpointStatus: 'Disabled' }),
        ],
      },
    ],
  },
  {
    name: 'Subnet (no failover), three ranges and a fallback',
    profiles: [
      {
        name: 'subnet',
        trafficRoutingMethod: 'Subnet',
        endpoints: [
          ip('germany', '10.8.0.1', { subnets: ['192.0.2.0/24'] }),
          ip('tokyo', '10.8.0.2', { subnets: ['198.51.100.0/24'] }),
          ip('california', '10.8.0.3', { subnets: ['203.0.113.0/24'] }),
          ip('fallback', '10.8.0.4'),
        ],
      },
    ],
  },
  {
    name: 'nested: Priority over Weighted',
    profiles: [
      {
        name: 'pool',
        trafficRoutingMethod: 'Weighted',
        endpoints: [
          ip('w1', '10.9.0.1', { weight: 1 }),
          ip('w2', '10.9.0.2', { weight: 1 }),
          ip('w3', '10.9.0.3', { weight: 2 }),
        ],
      },
      { name: 'front', endpoints: [child('pool', 'pool'), ip('backup', '10.9.1.1')] },
    ],
  },
  {
    name: 'nested: Weighted over Priority',
    profiles: [
      { name: 'pair', endpoints: [ip('first', '10.10.0.1'), ip('second', '10.10.0.2')] },
      {
        name: 'mix',
        trafficRoutingMethod: 'Weighted',
        endpoints: [
          child('pair', 'pair', { weight: 2 }),
          ip('x', '10.10.1.1', { weight: 1 }),
          ip('y', '10.10.1.2', { weight: 1 }),
        ],
      },
    ],
  },
  {
    name: 'nested: Geographic over Priority',
    profiles: [
      { name: 'eu', endpoints: [ip('fra', '10.11.0.1'), ip('dub', '10.11.0.2')] },
      { name: 'na', endpoints: [ip('iad', '10.11.1.1'), ip('sfo', '10.11.1.2')] },
      {
        name: 'world',
        trafficRoutingMethod: 'Geographic',
        endpoints: [
          child('eu', 'eu', { geoMapping: ['GEO-EU'] }),
          child('na', 'na', { geoMapping: ['GEO-NA'] }),
          ip('rest', '10.11.2.1', { geoMapping: ['WORLD'] }),
        ],
      },
    ],
  },
  {
    name: 'nested: Performance over Priority',
    profiles: [
      { name: 'fra', endpoints: [ip('a', '10.12.0.1'), ip('b', '10.12.0.2')] },
      {
        name: 'lat',
        trafficRoutingMethod: 'Performance',
        endpoints: [
          child('fra', 'fra', { endpointLocation: 'eu-central-1' }),
          ip('use1', '10.12.1.1', { endpointLocation: 'us-east-1' }),
          ip('apne1', '10.12.1.2', { endpointLocation: 'ap-northeast-1' }),
        ],
      },
    ],
  },
  {
    name: 'nested: Subnet over Priority',
    profiles: [
      { name: 'office', endpoints: [ip('a', '10.13.0.1'), ip('b', '10.13.0.2')] },
      {
        name: 'cidr',
        trafficRoutingMethod: 'Subnet',
        endpoints: [child('office', 'office', { subnets: ['192.0.2.0/24'] }), ip('rest', '10.13.1.1')],
      },
    ],
  },
  {
    name: 'nested: three levels, Priority over Priority over Weighted',
    profiles: [
      {
        name: 'leaf',
        trafficRoutingMethod: 'Weighted',
        endpoints: [ip('l1', '10.14.0.1'), ip('l2', '10.14.0.2')],
      },
      { name: 'mid', endpoints: [child('leaf', 'leaf'), ip('m', '10.14.1.1')] },
      { name: 'top', endpoints: [child('mid', 'mid'), ip('t', '10.14.2.1')] },
    ],
  },
];

interface Answer {
  readonly rcode: string;
  readonly values: readonly string[];
}

interface Disagreement {
  readonly draw: number;
  readonly profile: string;
  readonly client: string;
  /** The ADR rows whose documented answer replaced today's in `expected`. */
  readonly documented: readonly string[];
  readonly statuses: string;
  readonly stale: string;
  readonly expected: Answer;
  readonly answered: Answer;
}

let route53: LocalRoute53;
let client: ReturnType<typeof route53Client>;
let dns: DnsServer;
let alarms: FakeAlarmStates;
/** The DNS server's random source: set before each query (the sweep). */
let nextRandom = 0.5;
let queries = 0;

beforeAll(async () => {
  alarms = fakeAlarmStates();
  route53 = await startLocalRoute53({ alarmStates: alarms, healthCheckTickMs: 0, healthCheckQuota: 10_000 });
  client = route53Client({
    endpoint: route53.endpoint,
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    requestsPerSecond: 1000,
  });
  dns = await startDnsServer({ zones: route53, port: 0, random: () => nextRandom });
});

afterAll(async () => {
  client?.destroy();
  await dns?.stop();
  await route53?.stop();
  console.info(`static-answers-dns: ${queries} dig queries`);
});

function profilesOf(c: Case, zoneName: string, hostedZoneId: string): Profile[] {
  const parsed = parseDefinitions(
    c.profiles.map((fields) => profileDefinition({ ...fields, dnsConfig: { zoneName, hostedZoneId } })),
  );
  if (!parsed.ok) throw new Error(`invalid case ${c.name}: ${JSON.stringify(parsed.issues)}`);
  return parsed.profiles;
}

/**
 * A status per target (endpoints sharing a verdict key share it); `all` forces one. Disabled
 * only for endpoints of failover profiles (`disabling`): see the header on Geographic and Subnet.
 */
function drawStatuses(
  profiles: readonly Profile[],
  random: () => number,
  options: { readonly all?: Drawn; readonly disabling: boolean },
): Map<string, Drawn> {
  const byKey = new Map<string, Drawn>();
  for (const { profile, key } of monitoredEndpoints(profiles)) {
    if (byKey.has(key)) continue;
    const r = random();
    const drawn: Drawn =
      r < 0.4 ? 'Online' : r < 0.75 ? 'Degraded' : r < 0.88 ? 'CheckingEndpoint' : 'Disabled';
    const disabling = options.disabling && failsOver(profile.trafficRoutingMethod);
    const status = options.all ?? drawn;
    byKey.set(key, status === 'Disabled' && !disabling ? 'Degraded' : status);
  }
  return byKey;
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Every monitored endpoint (external, enabled, not alwaysServe) with its verdict key. */
function monitoredEndpoints(profiles: readonly Profile[]) {
  return profiles.flatMap((p) =>
    p.endpoints.flatMap((e) =>
      e.type === 'external' && !e.alwaysServe && e.endpointStatus === 'Enabled'
        ? [{ profile: p, endpoint: e, key: endpointVerdictKey(p, e) }]
        : [],
    ),
  );
}

/**
 * Today's plan for these statuses, as `tm plan --status` computes it (nested endpoints follow
 * their child); `planned`: the profiles as planned (MultiValue's documented difference).
 */
function todayPlan(
  profiles: readonly Profile[],
  byKey: ReadonlyMap<string, EndpointMonitorStatus>,
  planned = profiles,
) {
  const overrides = new Map(
    monitoredEndpoints(profiles).map(({ profile, endpoint, key }) => [
      `${profile.name}/${endpoint.name}`,
      byKey.get(key) ?? EndpointMonitorStatus.Online,
    ]),
  );
  const statusOf = endpointStatusLookup(statusesFromOverrides(profiles, overrides, NOW));
  return { plan: planRecords(planned, statusOf), statusOf };
}

/**
 * Each target's vote alarm in each probe region, so that its check says what the status says:
 * Online → at least the quorum's up votes OK, the other regions ALARM; Degraded → fewer OK than
 * the quorum needs; Disabled → ALARM everywhere (the alarm `tm endpoint disable` writes during
 * an outage, ADR 0011 "Steering without the control plane"); CheckingEndpoint → no state at all.
 */
function setVotes(
  profiles: readonly Profile[],
  deployment: string,
  byKey: ReadonlyMap<string, Drawn>,
  random: () => number,
) {
  const done = new Set<string>();
  for (const { profile, key } of monitoredEndpoints(profiles)) {
    const status = byKey.get(key);
    if (done.has(key) || status === undefined || status === 'CheckingEndpoint') continue;
    done.add(key);
    const regions = profile.probeRegions ?? DEFAULT_PROBE_REGIONS;
    const needed = upVotesNeeded(profile.monitorConfig.regionQuorum, regions.length);
    const ups =
      status === 'Online'
        ? needed + Math.floor(random() * (regions.length - needed + 1))
        : status === 'Degraded'
          ? Math.floor(random() * needed)
          : 0;
    shuffled(regions, random).forEach((region, i) =>
      alarms.set(region, voteAlarmNameOf(deployment, targetIdOf(key)), i < ups ? 'OK' : 'ALARM'),
    );
  }
}

/** K of the sweep: the total weight of the weighted profile on the way (1 when none). */
function sweepOf(p: Profile, byName: ReadonlyMap<string, Profile>): number {
  const enabled = p.endpoints.filter((e) => e.endpointStatus === 'Enabled');
  const own = p.trafficRoutingMethod === 'Weighted' ? enabled.reduce((sum, e) => sum + e.weight, 0) : 1;
  const children = enabled.flatMap((e) => {
    const target = e.type === 'nested' ? byName.get(e.targetProfile) : undefined;
    return target === undefined ? [] : [sweepOf(target, byName)];
  });
  return Math.max(own, ...children);
}

function clientsOf(p: Profile, byName: ReadonlyMap<string, Profile>): string[] {
  const children = p.endpoints.flatMap((e) => {
    const target = e.type === 'nested' ? byName.get(e.targetProfile) : undefined;
    return target === undefined ? [] : clientsOf(target, byName);
  });
  const all = [...new Set([...(CLIENTS[p.trafficRoutingMethod] ?? []), ...children])];
  return all.length > 0 ? all : [US];
}

const subnetOf = (address: string) => `+subnet=${address}/${address.includes(':') ? 128 : 32}`;

function union(answers: readonly Answer[]): Answer {
  return {
    rcode: [...new Set(answers.map((a) => a.rcode))].sort().join('|'),
    values: [...new Set(answers.flatMap((a) => a.values))].sort(),
  };
}

async function digAnswer(name: string, type: RecordType, address: string, g: number): Promise<Answer> {
  nextRandom = g;
  queries += 1;
  const result = await dig(dns.port, [name, type, subnetOf(address)]);
  return {
    rcode: result.status,
    values: result.answers.filter((a) => a.type === type).map((a) => a.data.toLowerCase()),
  };
}

/** What `plan` answers at `name` for the client, by the same answer rules (no health checks in it). */
function planAnswer(
  plan: RecordPlan,
  zone: { hostedZoneId: string; zoneName: string },
  name: string,
  type: RecordType,
  address: string,
  g: number,
): Answer {
  const zones = inMemoryZones([{ ...zone, records: plan.records }], plan.cidrCollections);
  const clientIp = parseIp(address);
  if (clientIp === undefined) throw new Error(`bad client ${address}`);
  const answer = answerQuestion({ name, type }, clientIp, zones, DEFAULT_CLIENT_LOCATIONS, () => g);
  return {
    rcode: answer.rcode,
    values: answer.answers.filter((a) => a.type === type).map((a) => String(a.data).toLowerCase()),
  };
}

const describeStatuses = (profiles: readonly Profile[], byKey: ReadonlyMap<string, Drawn>) =>
  monitoredEndpoints(profiles)
    .map(({ profile, endpoint, key }) => `${profile.name}/${endpoint.name}=${byKey.get(key)}`)
    .join(' ');

const ROWS = {
  allDown: 'ADR 0011 differences, row "all endpoints down with the guard unhealthy"',
  disabled: 'ADR 0011 differences, row "Disabled under all-degraded (outage-time disable)"',
  maxReturn: 'ADR 0011 differences, row "MultiValue maxReturn"',
};

async function runDraw(c: Case, index: number, draw: number, random: () => number): Promise<Disagreement[]> {
  // Prepare: a zone and a deployment of this draw's own, so every health check is new
  const deployment = `c${index}d${draw}`;
  const zoneName = `${deployment}.example.com`;
  const hostedZoneId = route53.createHostedZone(zoneName, `Z${deployment.toUpperCase()}`);
  const profiles = profilesOf(c, zoneName, hostedZoneId);
  const byName = new Map(profiles.map((p) => [p.name, p]));
  const statuses = drawStatuses(profiles, random, {
    disabling: true,
    ...(draw < FIRST_DRAWS.length ? { all: FIRST_DRAWS[draw] } : {}),
  });
  // What the evaluator published at `_fast` before the fault (nothing disabled then).
  const staleStatuses = drawStatuses(profiles, random, { disabling: false });

  const { structure, switched } = planStatic(deployment, {
    profiles,
    defaultProbeRegions: DEFAULT_PROBE_REGIONS,
  });
  expect([...switched].sort()).toEqual(profiles.map((p) => p.name).sort());
  const gateway = new Route53HealthCheckGateway(client);
  const ids = new Map<string, string>();
  const idOf = (logicalId: string) => {
    const id = ids.get(logicalId);
    if (id === undefined) throw new Error(`health check ${logicalId} not created yet`);
    return id;
  };
  for (const check of structure.healthChecks) ids.set(check.id, await gateway.create(check, 1, idOf));
  const zones = new Route53ZoneGateway(client);
  const collections: CidrCollection[] = profiles.flatMap((p) => cidrCollectionOf(p) ?? []);
  const withIds = collections.length === 0 ? [] : await zones.syncCidrCollections(collections);
  const resolved = ({ healthCheckRef, ...record }: StaticRecord): RecordSet =>
    healthCheckRef === undefined ? record : { ...record, healthCheckId: idOf(healthCheckRef) };
  const stale = todayPlan(profiles, staleStatuses).plan;
  const desired = withCollectionIds(
    [...fastPathRecords(stale.records), ...structure.records.map(resolved)],
    withIds,
  );
  const published = await publishZone(
    { zones, metrics: noMetrics },
    hostedZoneId,
    { names: new Set(desired.map((r) => r.name)), actual: [] },
    desired,
  );
  expect(published.rejected).toEqual([]);

  // The fault: the evaluator no longer publishes, as every probe region sees
  for (const check of structure.healthChecks)
    if (check.role === CheckRole.GuardRegion && check.type === 'CLOUDWATCH_METRIC')
      alarms.set(check.alarm.region, check.alarm.name, 'ALARM');
  setVotes(profiles, deployment, statuses, random);

  // Expected: today's planner for these statuses, with the documented differences:
  // - ROWS.disabled: the static path cannot tell a disabled endpoint from a Degraded one (its
  //   check is forced unhealthy, its record stays), which shows once every endpoint is down;
  // - ROWS.maxReturn: MultiValue answers every healthy endpoint, up to 8;
  // - ROWS.allDown (below): a profile with no endpoint up answers `_fast`, the stale records.
  const documented = new Map(
    monitoredEndpoints(profiles).map(({ profile, key }) => {
      const status = statuses.get(key) ?? 'Online';
      return [key, status === 'Disabled' && failsOver(profile.trafficRoutingMethod) ? 'Degraded' : status];
    }),
  );
  const today = todayPlan(
    profiles,
    documented,
    profiles.map((p) =>
      p.trafficRoutingMethod === 'MultiValue' ? { ...p, maxReturn: MAX_MULTIVALUE_RECORDS } : p,
    ),
  );
  const addressing = createAddressing(profiles);
  const zone = { hostedZoneId, zoneName };
  const disagreements: Disagreement[] = [];
  for (const p of profiles) {
    const [type] = addressing.typesOf(p);
    if (type === undefined) throw new Error(`${p.name} publishes no type`);
    const allDown =
      failsOver(p.trafficRoutingMethod) &&
      !p.endpoints.some((e) => AVAILABLE_STATUSES.has(today.statusOf(p.name, e.name)));
    const rows = [
      ...(allDown ? [ROWS.allDown] : []),
      ...([...statuses.values()].includes('Disabled') ? [ROWS.disabled] : []),
      ...(p.trafficRoutingMethod === 'MultiValue' ? [ROWS.maxReturn] : []),
    ];
    const reference = allDown ? stale : today.plan;
    const k = sweepOf(p, byName);
    const sweep = Array.from({ length: k }, (_, i) => (i + 0.5) / k);
    for (const address of clientsOf(p, byName)) {
      // Act
      const answered: Answer[] = [];
      for (const g of sweep) answered.push(await digAnswer(p.dnsConfig.fqdn, type, address, g));

      // Assess
      const expected = union(
        sweep.map((g) => planAnswer(reference, zone, p.dnsConfig.fqdn, type, address, g)),
      );
      const got = union(answered);
      if (JSON.stringify(expected) !== JSON.stringify(got))
        disagreements.push({
          draw,
          profile: p.name,
          client: address,
          documented: rows,
          statuses: describeStatuses(profiles, statuses),
          stale: describeStatuses(profiles, staleStatuses),
          expected,
          answered: got,
        });
    }
  }
  return disagreements;
}

describe.skipIf(!digAvailable)(
  'static failover answers what today’s planner publishes (dig, guard unhealthy)',
  () => {
    CASES.forEach((c, index) => {
      it(c.name, async () => {
        const random = seededRandom(SEED * 1_000 + index);
        const disagreements: Disagreement[] = [];
        for (let draw = 0; draw < DRAWS; draw += 1)
          disagreements.push(...(await runDraw(c, index, draw, random)));
        expect(disagreements, `seed ${SEED}, case ${index}`).toEqual([]);
      });
    });
  },
);
