/**
 * Route 53's limits on one ChangeResourceRecordSets request: 1,000 ResourceRecord elements
 * and 32,000 characters of record values, where an UPSERT counts twice. The diff packs its
 * batches within them; the local Route 53 refuses a request over them, as Route 53 does.
 * https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/DNSLimitations.html#limits-api-requests
 */
import type { Change } from './record-set.js';

export interface BatchLimits {
  readonly resourceRecords: number;
  readonly valueCharacters: number;
}

export const ROUTE53_BATCH_LIMITS: BatchLimits = { resourceRecords: 1000, valueCharacters: 32_000 };

/** What a batch (or one change) counts, in the units of the limits. */
export type BatchCost = BatchLimits;

/**
 * What Route 53 counts of one change: its ResourceRecord elements and their characters, an
 * UPSERT twice (an alias has none). The diff packs by `costOf`, which counts an alias as one
 * record with its target name, to stay on the safe side.
 */
function requestCost(change: Change, aliasAsRecord = false): BatchCost {
  const factor = change.action === 'UPSERT' ? 2 : 1;
  const { values, aliasTarget } = change.recordSet;
  const counted = aliasAsRecord && aliasTarget !== undefined ? [aliasTarget.dnsName] : values;
  return {
    resourceRecords: counted.length * factor,
    valueCharacters: counted.reduce((sum, value) => sum + value.length, 0) * factor,
  };
}

export function costOf(change: Change): BatchCost {
  return requestCost(change, true);
}

export function addCost(a: BatchCost, b: BatchCost): BatchCost {
  return {
    resourceRecords: a.resourceRecords + b.resourceRecords,
    valueCharacters: a.valueCharacters + b.valueCharacters,
  };
}

export function withinLimits(cost: BatchCost, limits: BatchLimits): boolean {
  return cost.resourceRecords <= limits.resourceRecords && cost.valueCharacters <= limits.valueCharacters;
}

export const NO_COST: BatchCost = { resourceRecords: 0, valueCharacters: 0 };

/** Route 53's messages for a request over its limits (none when within them). */
export function limitViolations(changes: readonly Change[], limits = ROUTE53_BATCH_LIMITS): string[] {
  const { resourceRecords, valueCharacters } = changes
    .map((change) => requestCost(change))
    .reduce(addCost, NO_COST);
  const violations: string[] = [];
  if (resourceRecords > limits.resourceRecords)
    violations.push(
      `Number of records limit of ${limits.resourceRecords} exceeded: the request has ${resourceRecords} ResourceRecord elements (an UPSERT counts twice)`,
    );
  if (valueCharacters > limits.valueCharacters)
    violations.push(
      `Number of characters limit of ${limits.valueCharacters} exceeded: the Value elements have ${valueCharacters} characters (an UPSERT counts twice)`,
    );
  return violations;
}
