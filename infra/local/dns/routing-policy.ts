/**
 * Route 53's choice among the records of one name and type, by routing policy.
 * Records are already narrowed to the healthy ones (or all, when none is).
 * Each choice also says which client prefix it depended on (the ECS scope).
 */
import type { CidrCollection, RecordSet } from '../../../shared/zone/record-set.js';
import { locateClient, type ClientLocationTable } from './client-locations.js';
import { scopeOfMatch } from './client-scope.js';
import { cidrContains, parseCidr, type Cidr, type IpAddress } from '../../../shared/ip/addresses.js';
import { regionDistanceKm } from './region-distance.js';

export const MAX_MULTIVALUE_RECORDS = 8;

export interface SelectionContext {
  /** The client address (ECS address, else the source address). */
  readonly client: IpAddress;
  readonly locations: ClientLocationTable;
  /** Uniform in [0, 1). */
  readonly random: () => number;
  readonly cidrCollection: (id: string) => CidrCollection | undefined;
}

export interface Selection {
  readonly records: readonly RecordSet[];
  /** ECS scope prefix length: 0 when the choice does not depend on the client. */
  readonly scope: number;
}

const clientIndependent = (records: readonly RecordSet[]): Selection => ({ records, scope: 0 });

function pickWeighted(pool: readonly RecordSet[], random: () => number): Selection {
  const positive = pool.filter((record) => (record.weight ?? 0) > 0);
  if (positive.length === 0) {
    // Route 53 serves weight-0 records only when no record with a weight is left; then all equally.
    const any = pool[Math.floor(random() * pool.length)];
    return clientIndependent(any ? [any] : []);
  }
  const total = positive.reduce((sum, record) => sum + (record.weight ?? 0), 0);
  let point = random() * total;
  for (const record of positive) {
    point -= record.weight ?? 0;
    if (point < 0) return clientIndependent([record]);
  }
  return clientIndependent(positive.slice(-1));
}

function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

function locationScope(context: SelectionContext): {
  location: ReturnType<typeof locateClient>['location'];
  scope: number;
} {
  const located = locateClient(context.locations, context.client);
  const blocks = context.locations.subnets.map((subnet) => subnet.block);
  return {
    location: located.location,
    scope: scopeOfMatch(context.client, located.subnet?.block.prefix ?? 0, blocks),
  };
}

function pickLatency(pool: readonly RecordSet[], context: SelectionContext): Selection {
  const { location, scope } = locationScope(context);
  const region = location.awsRegion;
  const exact = pool.find((record) => record.region === region);
  if (exact) return { records: [exact], scope };
  const byDistance = pool
    .map((record) => ({ record, distance: regionDistanceKm(region, record.region ?? '') }))
    .filter((ranked): ranked is { record: RecordSet; distance: number } => ranked.distance !== undefined)
    .sort((a, b) => a.distance - b.distance);
  const nearest =
    byDistance[0]?.record ?? [...pool].sort((a, b) => (a.region ?? '').localeCompare(b.region ?? ''))[0];
  return { records: nearest ? [nearest] : [], scope };
}

function pickGeolocation(pool: readonly RecordSet[], context: SelectionContext): Selection {
  const { location, scope } = locationScope(context);
  const matchers: ((record: RecordSet) => boolean)[] = [
    ({ geoLocation: geo }) =>
      location.subdivision !== undefined &&
      geo?.countryCode === location.country &&
      geo.subdivisionCode === location.subdivision,
    ({ geoLocation: geo }) => geo?.countryCode === location.country && geo.subdivisionCode === undefined,
    ({ geoLocation: geo }) => geo?.continentCode === location.continent,
    ({ geoLocation: geo }) => geo?.countryCode === '*',
  ];
  for (const matches of matchers) {
    const match = pool.find(matches);
    if (match) return { records: [match], scope };
  }
  return { records: [], scope };
}

function pickCidr(pool: readonly RecordSet[], context: SelectionContext): Selection {
  const entries: { block: Cidr; record: RecordSet }[] = [];
  for (const record of pool) {
    const config = record.cidrRoutingConfig;
    if (!config || config.locationName === '*') continue;
    const blocks = context.cidrCollection(config.collectionId)?.locations[config.locationName] ?? [];
    for (const text of blocks) {
      const parsed = parseCidr(text);
      if (parsed.ok) entries.push({ block: parsed.cidr, record });
    }
  }
  const blocks = entries.map((entry) => entry.block);
  const best = entries
    .filter((entry) => cidrContains(entry.block, context.client))
    .sort((a, b) => b.block.prefix - a.block.prefix)[0];
  if (best) return { records: [best.record], scope: scopeOfMatch(context.client, best.block.prefix, blocks) };
  const fallback = pool.find((record) => record.cidrRoutingConfig?.locationName === '*');
  return { records: fallback ? [fallback] : [], scope: scopeOfMatch(context.client, 0, blocks) };
}

function pickFailover(pool: readonly RecordSet[]): Selection {
  // The pool holds the healthy records (all of them when none is): PRIMARY when it is there, else
  // SECONDARY; so a PRIMARY whose health check fails gives way, and with both unhealthy it is PRIMARY.
  const chosen =
    pool.find((record) => record.failover === 'PRIMARY') ??
    pool.find((record) => record.failover === 'SECONDARY');
  return clientIndependent(chosen ? [chosen] : []);
}

/** The records Route 53 answers with among `pool` (all of one name and type). */
export function selectRecords(pool: readonly RecordSet[], context: SelectionContext): Selection {
  const first = pool[0];
  if (!first) return clientIndependent([]);
  if (first.weight !== undefined) return pickWeighted(pool, context.random);
  if (first.region !== undefined) return pickLatency(pool, context);
  if (first.geoLocation !== undefined) return pickGeolocation(pool, context);
  if (first.cidrRoutingConfig !== undefined) return pickCidr(pool, context);
  if (first.failover !== undefined) return pickFailover(pool);
  if (first.multiValueAnswer === true)
    return clientIndependent(shuffled(pool, context.random).slice(0, MAX_MULTIVALUE_RECORDS));
  return clientIndependent(pool);
}
