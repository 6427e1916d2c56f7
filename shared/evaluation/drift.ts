/**
 * Drift: what the zone holds at an owned name that differs from what the evaluator published
 * there. Which names each zone owns and what they should hold come from the status items;
 * each record set a repair touched becomes one `DriftRepaired` event (what was found, what
 * was written).
 */
import { EventDetailType } from '../contracts/events.js';
import { recordIdentity } from '../zone/identity.js';
import type { Change, RecordSet } from '../zone/record-set.js';
import type { DriftRepairedEvent } from './events.js';
import type { StoredStatus } from './stored-status.js';

/**
 * Every hosted zone that has owned names, with what was published there. A profile whose
 * last change Route 53 refused (`publishProblem`) is left out: its `published` is what the
 * zone held then, not what it should hold, and its next evaluation retries it.
 */
export function zonesToReconcile(statuses: ReadonlyMap<string, StoredStatus>) {
  // Per zone: its owned names, what was published at them, and the profile of each name.
  const zones = new Map<string, { names: Set<string>; desired: RecordSet[]; owners: Map<string, string> }>();
  for (const [profile, status] of statuses) {
    if (status.publishProblem !== undefined || status.hostedZoneId === '') continue;
    const zone = zones.get(status.hostedZoneId) ?? {
      names: new Set<string>(),
      desired: [],
      owners: new Map<string, string>(),
    };
    zone.names.add(status.ownedName);
    zone.desired.push(...status.published.filter((r) => r.name === status.ownedName));
    zone.owners.set(status.ownedName, profile);
    zones.set(status.hostedZoneId, zone);
  }
  return zones;
}

/**
 * One repair per record set identity the changes touched (a routing change is a DELETE and a
 * CREATE of one identity): `found` null when nothing was there (it had been deleted), `written`
 * null when the record set found was deleted (someone added it at an owned name).
 */
export function repairsOf(
  changes: readonly Change[],
  actual: readonly RecordSet[],
  desired: readonly RecordSet[],
) {
  const byIdentity = (records: readonly RecordSet[]) => new Map(records.map((r) => [recordIdentity(r), r]));
  const found = byIdentity(actual);
  const wanted = byIdentity(desired);
  const touched = new Map<string, RecordSet>();
  for (const change of changes) touched.set(recordIdentity(change.recordSet), change.recordSet);
  return [...touched].map(([identity, record]) => ({
    name: record.name,
    type: record.type,
    setIdentifier: record.setIdentifier,
    found: found.get(identity) ?? null,
    written: wanted.get(identity) ?? null,
  }));
}

export interface RepairChange {
  readonly hostedZoneId: string;
  /** Epoch ms the zone was read. */
  readonly reconciledAt: number;
  /** The Route 53 change that carried the repair (the first, past Route 53's batch limits). */
  readonly changeId: string;
  readonly changeSubmittedAt: number;
}

/** The repairs' events, waiting for INSYNC (`inSyncAt` null until the outbox publisher sees it). */
export function driftEvents(
  repairs: ReturnType<typeof repairsOf>,
  owners: ReadonlyMap<string, string>,
  change: RepairChange,
): DriftRepairedEvent[] {
  return repairs.map((repair) => {
    const profile = owners.get(repair.name) ?? '';
    const set = repair.setIdentifier === undefined ? '' : ` ${repair.setIdentifier}`;
    return {
      kind: EventDetailType.driftRepaired,
      eventId: `${profile}/drift/${repair.type} ${repair.name}${set}@${change.reconciledAt}`,
      profile,
      name: repair.name,
      type: repair.type,
      ...(repair.setIdentifier === undefined ? {} : { setIdentifier: repair.setIdentifier }),
      found: repair.found,
      written: repair.written,
      ...change,
      inSyncAt: null,
    };
  });
}
