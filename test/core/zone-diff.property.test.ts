import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addCost, costOf, NO_COST, withinLimits } from '../../shared/zone/batch-limits.js';
import { diffZone } from '../../shared/zone/diff.js';
import { canonicalRecord, recordIdentity } from '../../shared/zone/identity.js';
import type { Change, CidrCollection, RecordSet } from '../../shared/zone/record-set.js';
import { applyBatches } from '../support/route53-zone.js';

const NAMES = ['a.example.com', 'b.example.com', 'c.example.com', 'foreign.example.com'];

const policy = fc.oneof(
  fc.constant({}),
  fc.record({ setIdentifier: fc.constantFrom('e1', 'e2', 'e3'), weight: fc.integer({ min: 0, max: 255 }) }),
  fc.record({
    setIdentifier: fc.constantFrom('e1', 'e2'),
    region: fc.constantFrom('us-east-1', 'eu-west-1'),
  }),
  fc.record({ setIdentifier: fc.constantFrom('e1', 'e2'), multiValueAnswer: fc.constant(true) }),
  fc.record({
    setIdentifier: fc.constantFrom('e1', 'e2/DE'),
    geoLocation: fc.constantFrom({ countryCode: '*' }, { continentCode: 'EU' }, { countryCode: 'DE' }),
  }),
  fc.record({
    setIdentifier: fc.constantFrom('e1', 'e3'),
    cidrRoutingConfig: fc.record({
      collectionId: fc.constant('tm-x'),
      locationName: fc.constantFrom('*', 'office'),
    }),
  }),
);

/** Values of each type that Route 53 accepts: `long` makes the character limit bite. */
const VALUES = {
  A: { v1: '192.0.2.1', v2: '192.0.2.2', v3: '192.0.2.3', long: '192.0.2.254' },
  AAAA: { v1: '2001:db8::1', v2: '2001:db8::2', v3: '2001:db8::3', long: '2001:db8:ffff:ffff::ffff' },
  CNAME: {
    v1: 'v1.example.net',
    v2: 'v2.example.net',
    v3: 'v3.example.net',
    long: 'long-value-'.repeat(3) + 'x.example.net',
  },
} as const;

const recordSet: fc.Arbitrary<RecordSet> = fc
  .record({
    name: fc.constantFrom(...NAMES),
    type: fc.constantFrom('A' as const, 'AAAA' as const, 'CNAME' as const),
    ttl: fc.constantFrom(0, 30, 60),
    values: fc.uniqueArray(fc.constantFrom('v1' as const, 'v2' as const, 'v3' as const, 'long' as const), {
      minLength: 1,
      maxLength: 3,
    }),
    alias: fc.boolean(),
    policy,
  })
  .map(({ alias, policy: p, ...r }): RecordSet => {
    // A CNAME record set holds exactly one value.
    const values = (r.type === 'CNAME' ? r.values.slice(0, 1) : r.values).map((v) => VALUES[r.type][v]);
    if (!alias) return { ...r, ...p, values };
    const { ttl: _ttl, ...rest } = r;
    return {
      ...rest,
      ...p,
      values: [],
      aliasTarget: {
        hostedZoneId: 'Z1',
        dnsName: `${r.values[0] ?? 'x'}.example.com`,
        evaluateTargetHealth: false,
      },
    };
  });

const CIDR: CidrCollection = { id: 'tm-x', name: 'tm-x', locations: { office: ['198.51.100.0/24'] } };

/** The records Route 53 accepts when created one by one in order (others dropped): a zone Route 53 could hold. */
const acceptable = (records: readonly RecordSet[]) =>
  records.reduce<RecordSet[]>((held, record) => {
    try {
      return applyRoute53(held, [[{ action: 'CREATE', recordSet: record }]]);
    } catch {
      return held;
    }
  }, []);

const applyRoute53 = (start: readonly RecordSet[], batches: readonly Change[][]) =>
  applyBatches(start, batches, { cidrCollections: [CIDR] });

const zone = fc.uniqueArray(recordSet, { maxLength: 24, selector: recordIdentity }).map(acceptable);
const owned = fc.subarray(NAMES.slice(0, 3)).map((names) => new Set(names));
const limits = fc.record({
  resourceRecords: fc.integer({ min: 12, max: 40 }),
  valueCharacters: fc.integer({ min: 200, max: 600 }),
});

const canonical = (records: readonly RecordSet[]) => records.map(canonicalRecord).sort();

/** Route 53's own counting: ResourceRecord elements and value characters, an UPSERT twice. */
function route53Cost(batch: readonly Change[]) {
  let resourceRecords = 0;
  let valueCharacters = 0;
  for (const change of batch) {
    const factor = change.action === 'UPSERT' ? 2 : 1;
    resourceRecords += change.recordSet.values.length * factor;
    valueCharacters += change.recordSet.values.join('').length * factor;
  }
  return { resourceRecords, valueCharacters };
}

describe('zone diff properties', () => {
  it('applying the batches to the actual zone yields the desired zone at owned names; foreign records are untouched', () => {
    fc.assert(
      fc.property(zone, zone, owned, limits, (desired, actual, names, batchLimits) => {
        // Act
        const batches = diffZone(desired, actual, names, { limits: batchLimits });
        const after = applyRoute53(actual, batches);

        // Assess
        expect(canonical(after.filter((r) => names.has(r.name)))).toEqual(
          canonical(desired.filter((r) => names.has(r.name))),
        );
        expect(canonical(after.filter((r) => !names.has(r.name)))).toEqual(
          canonical(actual.filter((r) => !names.has(r.name))),
        );
        expect(diffZone(desired, after, names)).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('diff(desired, desired) is empty', () => {
    fc.assert(
      fc.property(zone, owned, (desired, names) => {
        expect(diffZone(desired, desired, names)).toEqual([]);
      }),
    );
  });

  it('every batch is within the limits, non-empty, and holds all the changes of each name that fits one batch', () => {
    fc.assert(
      fc.property(zone, zone, owned, limits, (desired, actual, names, batchLimits) => {
        // Act
        const batches = diffZone(desired, actual, names, { limits: batchLimits });

        // Assess
        const fitsOneBatch = (name: string) =>
          withinLimits(
            batches
              .flat()
              .filter((c) => c.recordSet.name === name)
              .map(costOf)
              .reduce(addCost, NO_COST),
            batchLimits,
          );
        const batchOfName = new Map<string, number>();
        batches.forEach((batch, index) => {
          expect(batch.length).toBeGreaterThan(0);
          const cost = route53Cost(batch);
          expect(cost.resourceRecords).toBeLessThanOrEqual(batchLimits.resourceRecords);
          expect(cost.valueCharacters).toBeLessThanOrEqual(batchLimits.valueCharacters);
          for (const change of batch.filter((c) => fitsOneBatch(c.recordSet.name))) {
            expect(batchOfName.get(change.recordSet.name) ?? index).toBe(index);
            batchOfName.set(change.recordSet.name, index);
          }
        });
      }),
      { numRuns: 300 },
    );
  });
});
