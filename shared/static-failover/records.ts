/**
 * The records of the static structure, per routing method (docs/adr/0011-static-failover.md,
 * "The static structure per routing method"), and the two failover aliases at the profile's
 * name that choose between today's records (`_fast`) and the structure (`_static`). Which
 * endpoints appear depends on configuration only; health decides at query time.
 */
import type { Endpoint, ExternalEndpoint, Profile, RoutingMethod } from '../profile/types.js';
import type { Answer } from '../routing/addressing.js';
import { failsOver } from '../routing/failover-methods.js';
import { recordOf, type RoutingPolicy } from '../routing/method.js';
import { geographicRecords } from '../routing/methods/geographic.js';
import { subnetRecords } from '../routing/methods/subnet.js';
import type { FailoverRole, RecordSet, RecordType } from '../zone/record-set.js';
import { groupBy } from '../group-by.js';
import { fastNameOf, linkNameOf, regionNameOf, staticNameOf } from './identity.js';
import type { StaticRecord } from './types.js';

/** An eligible endpoint with its answers (nested aliases already aimed at the child's `_static`) and its check. */
export interface StaticEndpoint {
  readonly endpoint: Endpoint;
  readonly answers: readonly Answer[];
  /** Logical id of the check its records carry; undefined: no check (always serve, nested). */
  readonly healthCheckRef: string | undefined;
}

type Item = Omit<StaticEndpoint, 'answers'> & { readonly answer: Answer };

/**
 * Whether an endpoint has a vote of its own, so a target check on its records: an external,
 * monitored (not alwaysServe) endpoint of a profile whose routing method fails over.
 */
export function hasVote(profile: Profile, endpoint: Endpoint): endpoint is ExternalEndpoint {
  return failsOver(profile.trafficRoutingMethod) && endpoint.type === 'external' && !endpoint.alwaysServe;
}

function record(profile: Profile, name: string, item: Item, policy: RoutingPolicy): StaticRecord {
  const check = item.healthCheckRef === undefined ? {} : { healthCheckRef: item.healthCheckRef };
  return { ...recordOf(profile, item.answer, policy), name, ...check };
}

function aliasTo(
  profile: Profile,
  name: string,
  type: RecordType,
  target: string,
  policy: RoutingPolicy,
): StaticRecord {
  return {
    name,
    type,
    ...policy,
    aliasTarget: {
      hostedZoneId: profile.dnsConfig.hostedZoneId ?? profile.dnsConfig.zoneName,
      dnsName: target,
      evaluateTargetHealth: true,
    },
    values: [],
  };
}

function itemsByType(endpoints: readonly StaticEndpoint[]): Map<RecordType, Item[]> {
  const items = endpoints.flatMap(({ endpoint, answers, healthCheckRef }) =>
    answers.map((answer): Item => ({ endpoint, answer, healthCheckRef })),
  );
  return groupBy(items, (item) => item.answer.type);
}

/**
 * A failover chain at `base`: PRIMARY the first item, SECONDARY an alias to the next link, …;
 * the last link holds the last two items. One item: a lone PRIMARY.
 */
function chain(profile: Profile, base: string, type: RecordType, items: readonly Item[]): StaticRecord[] {
  const failover = (item: Item, role: FailoverRole): RoutingPolicy => ({
    setIdentifier: item.endpoint.name,
    failover: role,
  });
  const records: StaticRecord[] = [];
  let name = base;
  items.forEach((item, i) => {
    if (i === items.length - 1 && i > 0) return; // the last item is the previous link's secondary
    records.push(record(profile, name, item, failover(item, 'PRIMARY')));
    const next = items[i + 1];
    if (next === undefined) return;
    if (i === items.length - 2) {
      records.push(record(profile, name, next, failover(next, 'SECONDARY')));
      return;
    }
    const link = linkNameOf(base, i + 2);
    records.push(aliasTo(profile, name, type, link, { setIdentifier: `_${i + 2}`, failover: 'SECONDARY' }));
    name = link;
  });
  return records;
}

function priority(profile: Profile, root: string, endpoints: readonly StaticEndpoint[]): StaticRecord[] {
  return [...itemsByType(endpoints)].flatMap(([type, items]) => chain(profile, root, type, items));
}

/** One record per endpoint answer at `root`, each with the endpoint's policy (Weighted, MultiValue). */
function perEndpoint(policyOf: (endpoint: Endpoint) => RoutingPolicy) {
  return (profile: Profile, root: string, endpoints: readonly StaticEndpoint[]): StaticRecord[] =>
    [...itemsByType(endpoints)].flatMap(([, items]) =>
      items.map((item) => record(profile, root, item, policyOf(item.endpoint))),
    );
}

/** One latency record per region and type; a region with several endpoints aliases its own chain. */
function performance(profile: Profile, root: string, endpoints: readonly StaticEndpoint[]): StaticRecord[] {
  const records: StaticRecord[] = [];
  for (const [type, items] of itemsByType(endpoints)) {
    for (const [region, regional] of groupBy(items, (item) => item.endpoint.endpointLocation)) {
      if (region === undefined) continue;
      const [only] = regional;
      if (regional.length === 1 && only !== undefined) {
        records.push(record(profile, root, only, { setIdentifier: only.endpoint.name, region }));
        continue;
      }
      const base = regionNameOf(root, region);
      records.push(aliasTo(profile, root, type, base, { setIdentifier: `_${region}`, region }));
      records.push(...chain(profile, base, type, regional));
    }
  }
  return records;
}

/**
 * Azure's no-failover rule (Geographic, Subnet): today's records at `root`, no checks. The
 * endpoints are eligible ones already (enabled, in priority order).
 */
function withoutFailover(records: typeof geographicRecords) {
  return (profile: Profile, root: string, endpoints: readonly StaticEndpoint[]): StaticRecord[] => {
    const answersOf = new Map(endpoints.map(({ endpoint, answers }) => [endpoint, answers]));
    return records(
      profile,
      endpoints.map(({ endpoint }) => endpoint),
      (endpoint) => answersOf.get(endpoint) ?? [],
    ).map((r) => ({ ...r, name: root }));
  };
}

const METHODS: Readonly<
  Record<
    RoutingMethod,
    (profile: Profile, root: string, endpoints: readonly StaticEndpoint[]) => StaticRecord[]
  >
> = {
  Priority: priority,
  Weighted: perEndpoint((endpoint) => ({ setIdentifier: endpoint.name, weight: endpoint.weight })),
  Performance: performance,
  MultiValue: perEndpoint((endpoint) => ({ setIdentifier: endpoint.name, multiValueAnswer: true })),
  Geographic: withoutFailover(geographicRecords),
  Subnet: withoutFailover(subnetRecords),
};

/** The structure of one profile at `_static.<fqdn>`, eligible endpoints in priority order. */
export function staticRecordsOf(profile: Profile, endpoints: readonly StaticEndpoint[]): StaticRecord[] {
  return METHODS[profile.trafficRoutingMethod](profile, staticNameOf(profile.dnsConfig.fqdn), endpoints);
}

/**
 * The profile's name: per type the structure has, a failover PRIMARY alias to `_fast` carrying
 * the guard and a SECONDARY alias to `_static`.
 */
export function switchRecordsOf(
  profile: Profile,
  structure: readonly StaticRecord[],
  guard: string,
): StaticRecord[] {
  const root = staticNameOf(profile.dnsConfig.fqdn);
  const types = [...new Set(structure.filter((r) => r.name === root).map((r) => r.type))];
  const fqdn = profile.dnsConfig.fqdn;
  return types.flatMap((type) => [
    {
      ...aliasTo(profile, fqdn, type, fastNameOf(fqdn), { setIdentifier: 'fast', failover: 'PRIMARY' }),
      healthCheckRef: guard,
    },
    aliasTo(profile, fqdn, type, root, { setIdentifier: 'static', failover: 'SECONDARY' }),
  ]);
}

/** Today's planner records at `_fast.<name>`, where the evaluator publishes them under shape B. */
export function fastPathRecords(records: readonly RecordSet[]): RecordSet[] {
  return records.map((r) => ({ ...r, name: fastNameOf(r.name) }));
}
