/**
 * The zone diff: desired vs. actual record sets, at owned names only → the change batches
 * that turn one into the other. Identical records give no change; a record whose values,
 * TTL, weight or alias target changed gives an UPSERT; a record whose routing policy changed
 * (same name, type and SetIdentifier) gives a DELETE of the old and a CREATE of the new in
 * the same batch; a record not desired gives a DELETE with its exact current values.
 *
 * Names are in order, except that a name comes after the names its desired aliases point
 * at: Route 53 refuses an alias to a record set of its zone that does not exist yet, so a
 * nested child's records are created before (or in an earlier batch than) the parent's alias.
 * Per name, DELETEs come first, then CREATEs, then UPSERTs, so Route 53 never sees two
 * routing policies (or a CNAME beside other records) at one name mid-batch. Names are
 * packed whole into batches within Route 53's limits, so every name changes atomically;
 * only a name whose changes alone exceed one batch is split (deletes first).
 */
import { greedyBatches } from '../batches.js';
import {
  addCost,
  costOf,
  NO_COST,
  ROUTE53_BATCH_LIMITS,
  withinLimits,
  type BatchCost,
  type BatchLimits,
} from './batch-limits.js';
import { DuplicateRecordError } from './errors.js';
import { describeRecord, recordIdentity, routingShape, sameRecord } from './identity.js';
import type { Change, RecordSet } from './record-set.js';

export interface DiffOptions {
  /** @default ROUTE53_BATCH_LIMITS */
  readonly limits?: BatchLimits;
}

export function diffZone(
  desired: readonly RecordSet[],
  actual: readonly RecordSet[],
  owned: ReadonlySet<string>,
  options: DiffOptions = {},
): Change[][] {
  const want = indexByName(desired, owned, 'desired');
  const have = indexByName(actual, owned, 'actual');
  const names = aliasTargetsFirst([...new Set([...want.keys(), ...have.keys()])].sort(), want);
  const perName = names
    .map((name) => changesAt(want.get(name) ?? new Map(), have.get(name) ?? new Map()))
    .filter((changes) => changes.length > 0);
  return packBatches(perName, options.limits ?? ROUTE53_BATCH_LIMITS);
}

type ByIdentity = Map<string, RecordSet>;

/** Stable order by alias depth: names aliasing nothing changed here first, then their aliasers… */
function aliasTargetsFirst(names: readonly string[], want: ReadonlyMap<string, ByIdentity>): string[] {
  const depth = new Map<string, number>();
  const depthOf = (name: string, visiting: ReadonlySet<string>): number => {
    const known = depth.get(name);
    if (known !== undefined) return known;
    let result = 0;
    for (const record of want.get(name)?.values() ?? []) {
      const target = record.aliasTarget?.dnsName;
      // A cycle cannot resolve in Route 53 either; it is left in name order.
      if (target === undefined || !want.has(target) || visiting.has(target)) continue;
      result = Math.max(result, 1 + depthOf(target, new Set([...visiting, target])));
    }
    depth.set(name, result);
    return result;
  };
  return names
    .map((name, index) => ({ name, index, depth: depthOf(name, new Set([name])) }))
    .sort((a, b) => a.depth - b.depth || a.index - b.index)
    .map((entry) => entry.name);
}

function indexByName(
  records: readonly RecordSet[],
  owned: ReadonlySet<string>,
  side: string,
): Map<string, ByIdentity> {
  const byName = new Map<string, ByIdentity>();
  for (const record of records) {
    if (!owned.has(record.name)) continue;
    const atName = byName.get(record.name) ?? new Map<string, RecordSet>();
    const identity = recordIdentity(record);
    if (atName.has(identity))
      throw new DuplicateRecordError(`${side} records hold ${describeRecord(record)} twice`);
    atName.set(identity, record);
    byName.set(record.name, atName);
  }
  return byName;
}

function changesAt(want: ByIdentity, have: ByIdentity): Change[] {
  const changes: Change[] = [];
  for (const [identity, current] of have) {
    if (!want.has(identity)) changes.push({ action: 'DELETE', recordSet: current });
  }
  for (const [identity, next] of want) {
    const current = have.get(identity);
    if (current === undefined) changes.push({ action: 'CREATE', recordSet: next });
    else if (sameRecord(next, current)) continue;
    else if (routingShape(next) === routingShape(current))
      changes.push({ action: 'UPSERT', recordSet: next });
    else changes.push({ action: 'DELETE', recordSet: current }, { action: 'CREATE', recordSet: next });
  }
  return changes.sort(byActionThenIdentity);
}

const ACTION_ORDER: Readonly<Record<Change['action'], number>> = { DELETE: 0, CREATE: 1, UPSERT: 2 };

function byActionThenIdentity(a: Change, b: Change): number {
  const byAction = ACTION_ORDER[a.action] - ACTION_ORDER[b.action];
  if (byAction !== 0) return byAction;
  const [x, y] = [recordIdentity(a.recordSet), recordIdentity(b.recordSet)];
  return x < y ? -1 : 1; // identities are unique within a name
}

/** One name's changes (or one change of a name too big for a batch), with what they cost. */
interface Unit {
  readonly changes: readonly Change[];
  readonly cost: BatchCost;
}

function packBatches(perName: readonly Change[][], limits: BatchLimits): Change[][] {
  const unitOf = (changes: readonly Change[]): Unit => ({
    changes,
    cost: changes.map(costOf).reduce(addCost, NO_COST),
  });
  const pack = (units: readonly Unit[]) =>
    greedyBatches(units, {
      maxCount: limits.resourceRecords,
      countOf: (unit) => unit.cost.resourceRecords,
      maxBytes: limits.valueCharacters,
      bytesOf: (unit) => unit.cost.valueCharacters,
    }).map((batch) => batch.flatMap((unit) => unit.changes));
  const batches: Change[][] = [];
  let fitting: Unit[] = [];
  for (const unit of perName.map(unitOf)) {
    if (withinLimits(unit.cost, limits)) {
      fitting.push(unit);
      continue;
    }
    // Too big for one batch on its own: split, change by change, into batches of its own.
    batches.push(...pack(fitting), ...pack(unit.changes.map((change) => unitOf([change]))));
    fitting = [];
  }
  return [...batches, ...pack(fitting)];
}
