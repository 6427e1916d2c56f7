/**
 * Route 53's limits on one ChangeResourceRecordSets request: 1,000 ResourceRecord elements
 * and 32,000 characters of record values, where an UPSERT counts twice.
 */
import type { Change } from './record-set.js';

export interface BatchLimits {
  readonly resourceRecords: number;
  readonly valueCharacters: number;
}

export const ROUTE53_BATCH_LIMITS: BatchLimits = { resourceRecords: 1000, valueCharacters: 32_000 };

export interface BatchCost {
  readonly resourceRecords: number;
  readonly valueCharacters: number;
}

/** An alias has no ResourceRecord; it is counted as one, with its target name, to stay on the safe side. */
export function costOf(change: Change): BatchCost {
  const record = change.recordSet;
  const factor = change.action === 'UPSERT' ? 2 : 1;
  const values = record.aliasTarget === undefined ? record.values : [record.aliasTarget.dnsName];
  return {
    resourceRecords: values.length * factor,
    valueCharacters: values.reduce((sum, value) => sum + value.length, 0) * factor,
  };
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
