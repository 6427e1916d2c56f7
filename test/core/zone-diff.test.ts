import { describe, expect, it } from 'vitest';
import { ROUTE53_BATCH_LIMITS } from '../../shared/zone/batch-limits.js';
import { diffZone } from '../../shared/zone/diff.js';
import { canonicalRecord } from '../../shared/zone/identity.js';
import { DuplicateRecordError } from '../../shared/zone/errors.js';
import type { Change, RecordSet } from '../../shared/zone/record-set.js';
import { Route53ApiError } from '../../infra/local/route53/errors.js';
import { applyBatches } from '../support/route53-zone.js';

const OWNED = new Set(['shop.example.com', 'api.example.com']);
const rec = (extra: Partial<RecordSet> = {}): RecordSet => ({
  name: 'shop.example.com',
  type: 'A',
  ttl: 30,
  values: ['192.0.2.1'],
  ...extra,
});
const owned = (r: RecordSet) => OWNED.has(r.name);
const canonical = (records: readonly RecordSet[]) => records.map(canonicalRecord).sort();
const weighted = (set: string, ip: string, weight = 1) => rec({ setIdentifier: set, weight, values: [ip] });

describe('diffZone', () => {
  it.each<{ name: string; desired: RecordSet[]; actual: RecordSet[]; expected: Change[][] }>([
    { name: 'identical records → nothing', desired: [rec()], actual: [rec()], expected: [] },
    {
      name: 'value order does not matter → nothing',
      desired: [rec({ values: ['192.0.2.1', '192.0.2.2'] })],
      actual: [rec({ values: ['192.0.2.2', '192.0.2.1'] })],
      expected: [],
    },
    {
      name: 'a changed value → UPSERT',
      desired: [rec({ values: ['192.0.2.2'] })],
      actual: [rec()],
      expected: [[{ action: 'UPSERT', recordSet: rec({ values: ['192.0.2.2'] }) }]],
    },
    {
      name: 'a changed TTL → UPSERT',
      desired: [rec({ ttl: 60 })],
      actual: [rec()],
      expected: [[{ action: 'UPSERT', recordSet: rec({ ttl: 60 }) }]],
    },
    {
      name: 'a changed weight → UPSERT',
      desired: [weighted('east', '192.0.2.1', 20)],
      actual: [weighted('east', '192.0.2.1', 10)],
      expected: [[{ action: 'UPSERT', recordSet: weighted('east', '192.0.2.1', 20) }]],
    },
    {
      name: 'a changed HealthCheckId (a replaced health check) → UPSERT',
      desired: [rec({ failover: 'PRIMARY', setIdentifier: 'e', healthCheckId: 'hc-2' })],
      actual: [rec({ failover: 'PRIMARY', setIdentifier: 'e', healthCheckId: 'hc-1' })],
      expected: [
        [
          {
            action: 'UPSERT',
            recordSet: rec({ failover: 'PRIMARY', setIdentifier: 'e', healthCheckId: 'hc-2' }),
          },
        ],
      ],
    },
    {
      name: 'a new record → CREATE',
      desired: [rec()],
      actual: [],
      expected: [[{ action: 'CREATE', recordSet: rec() }]],
    },
    {
      name: 'a record not desired → DELETE with its exact current values',
      desired: [],
      actual: [rec({ values: ['192.0.2.7', '192.0.2.8'], ttl: 300 })],
      expected: [[{ action: 'DELETE', recordSet: rec({ values: ['192.0.2.7', '192.0.2.8'], ttl: 300 }) }]],
    },
    {
      name: 'a method change (simple → weighted) deletes the old-policy record in the same batch, first',
      desired: [weighted('east', '192.0.2.1'), weighted('west', '192.0.2.2')],
      actual: [rec()],
      expected: [
        [
          { action: 'DELETE', recordSet: rec() },
          { action: 'CREATE', recordSet: weighted('east', '192.0.2.1') },
          { action: 'CREATE', recordSet: weighted('west', '192.0.2.2') },
        ],
      ],
    },
    {
      name: 'same name, type and SetIdentifier but another routing policy → DELETE + CREATE in one batch',
      desired: [rec({ setIdentifier: 'east', multiValueAnswer: true })],
      actual: [weighted('east', '192.0.2.1')],
      expected: [
        [
          { action: 'DELETE', recordSet: weighted('east', '192.0.2.1') },
          { action: 'CREATE', recordSet: rec({ setIdentifier: 'east', multiValueAnswer: true }) },
        ],
      ],
    },
    {
      name: 'a host-name switch (A → CNAME) deletes the A before creating the CNAME',
      desired: [rec({ type: 'CNAME', values: ['east.example.net'] })],
      actual: [rec()],
      expected: [
        [
          { action: 'DELETE', recordSet: rec() },
          { action: 'CREATE', recordSet: rec({ type: 'CNAME', values: ['east.example.net'] }) },
        ],
      ],
    },
    {
      name: 'records at names we do not own are never touched',
      desired: [rec({ name: 'other.example.com' })],
      actual: [rec({ name: 'www.example.com' })],
      expected: [],
    },
  ])('$name', ({ desired, actual, expected }) => {
    // Act
    const batches = diffZone(desired, actual, OWNED);

    // Assess
    expect(batches).toEqual(expected);
    const after = applyBatches(actual, batches);
    expect(canonical(after.filter(owned))).toEqual(canonical(desired.filter(owned)));
    expect(canonical(after.filter((r) => !owned(r)))).toEqual(canonical(actual.filter((r) => !owned(r))));
  });

  it('orders names and identities deterministically, whatever the input order', () => {
    // Prepare
    const desired = [
      weighted('b', '192.0.2.2'),
      rec({ name: 'api.example.com' }),
      weighted('a', '192.0.2.1'),
    ];

    // Act
    const forward = diffZone(desired, [], OWNED);
    const backward = diffZone([...desired].reverse(), [], OWNED);

    // Assess
    expect(forward).toEqual(backward);
    expect(forward.flat().map((c) => `${c.recordSet.name} ${c.recordSet.setIdentifier ?? ''}`)).toEqual([
      'api.example.com ',
      'shop.example.com a',
      'shop.example.com b',
    ]);
  });

  it('creates a nested child before the parent alias that points at it, across batches too', () => {
    // Prepare: a.example.com aliases z.example.com, which sorts after it
    const owned = new Set(['a.example.com', 'z.example.com']);
    const parent: RecordSet = {
      name: 'a.example.com',
      type: 'A',
      aliasTarget: { hostedZoneId: 'Z1', dnsName: 'z.example.com', evaluateTargetHealth: false },
      values: [],
    };
    const child = rec({ name: 'z.example.com' });

    // Act
    const batches = diffZone([parent, child], [], owned, {
      limits: { resourceRecords: 1, valueCharacters: 1000 },
    });

    // Assess
    expect(batches.map((b) => b.map((c) => c.recordSet.name))).toEqual([
      ['z.example.com'],
      ['a.example.com'],
    ]);
  });

  it('aliases that point at each other (a cycle) do not hang the diff; the order stays deterministic', () => {
    const owned = new Set(['a.example.com', 'b.example.com']);
    const alias = (name: string, target: string): RecordSet => ({
      name,
      type: 'A',
      aliasTarget: { hostedZoneId: 'Z1', dnsName: target, evaluateTargetHealth: false },
      values: [],
    });
    const batches = diffZone(
      [alias('b.example.com', 'a.example.com'), alias('a.example.com', 'b.example.com')],
      [],
      owned,
    );
    expect(batches.flat().map((c) => c.recordSet.name)).toEqual(['b.example.com', 'a.example.com']);
  });

  it('splits into batches at the limits, never splitting one name, an UPSERT counting twice', () => {
    // Prepare: 3 names × 2 records; each name costs 2 records on CREATE, 4 on UPSERT
    const names = ['a.example.com', 'b.example.com', 'c.example.com'];
    const owned = new Set(names);
    const records = names.flatMap((name) => [
      rec({ name, setIdentifier: '1', weight: 1 }),
      rec({ name, setIdentifier: '2', weight: 1 }),
    ]);
    const limits = { resourceRecords: 4, valueCharacters: 10_000 };

    // Act
    const creates = diffZone(records, [], owned, { limits });
    const upserts = diffZone(
      records.map((r) => ({ ...r, values: ['192.0.2.99'] })),
      records,
      owned,
      { limits },
    );

    // Assess
    expect(creates.map((b) => b.map((c) => c.recordSet.name))).toEqual([
      ['a.example.com', 'a.example.com', 'b.example.com', 'b.example.com'],
      ['c.example.com', 'c.example.com'],
    ]);
    expect(upserts.map((b) => b.length)).toEqual([2, 2, 2]);
  });

  it('splits at the value-character limit', () => {
    const owned = new Set(['a.example.com', 'b.example.com']);
    const desired = [
      rec({ name: 'a.example.com', type: 'CNAME', values: ['x'.repeat(30)] }),
      rec({ name: 'b.example.com', type: 'CNAME', values: ['y'.repeat(30)] }),
    ];
    const batches = diffZone(desired, [], owned, { limits: { resourceRecords: 100, valueCharacters: 50 } });
    expect(batches).toHaveLength(2);
  });

  it('counts an alias as one record with its target name', () => {
    const owned = new Set(['a.example.com', 'b.example.com']);
    const alias = (name: string): RecordSet => ({
      name,
      type: 'A',
      aliasTarget: { hostedZoneId: 'Z1', dnsName: 'child.example.com', evaluateTargetHealth: false },
      values: [],
    });
    const batches = diffZone([alias('a.example.com'), alias('b.example.com')], [], owned, {
      limits: { resourceRecords: 1, valueCharacters: 1000 },
    });
    expect(batches).toHaveLength(2);
  });

  it('a single name too big for one batch is split, its DELETEs first', () => {
    // Prepare
    const old = [1, 2, 3].map((i) => weighted(`old${i}`, `192.0.2.${i}`));
    const next = [1, 2, 3].map((i) =>
      rec({ setIdentifier: `new${i}`, multiValueAnswer: true, values: [`192.0.2.${i}`] }),
    );

    // Act
    const batches = diffZone(next, old, OWNED, { limits: { resourceRecords: 4, valueCharacters: 10_000 } });

    // Assess
    expect(batches.map((b) => b.map((c) => c.action))).toEqual([
      ['DELETE', 'DELETE', 'DELETE', 'CREATE'],
      ['CREATE', 'CREATE'],
    ]);
  });

  it("stays within Route 53's limits with thousands of records", () => {
    // Prepare: 300 names × 10 multivalue records each = 3,000 records
    const names = Array.from({ length: 300 }, (_, i) => `n${i}.example.com`);
    const desired = names.flatMap((name) =>
      Array.from({ length: 10 }, (_, j) => rec({ name, setIdentifier: `e${j}`, multiValueAnswer: true })),
    );

    // Act
    const batches = diffZone(desired, [], new Set(names));

    // Assess
    expect(batches.length).toBe(3);
    for (const batch of batches) {
      expect(batch.reduce((n, c) => n + c.recordSet.values.length, 0)).toBeLessThanOrEqual(
        ROUTE53_BATCH_LIMITS.resourceRecords,
      );
    }
  });

  it.each([
    { name: 'desired', desired: [rec(), rec({ values: ['192.0.2.9'] })], actual: [] },
    { name: 'actual', desired: [], actual: [rec(), rec()] },
  ])('fails when the $name records hold one identity twice', ({ desired, actual }) => {
    expect(() => diffZone(desired, actual, OWNED)).toThrow(DuplicateRecordError);
  });
});

describe('the oracle: the local Route 53 applier the diffs are applied with', () => {
  it.each<{ name: string; zone: RecordSet[]; change: Change; message: string }>([
    {
      name: 'fails when a CREATE meets an existing record',
      zone: [rec()],
      change: { action: 'CREATE', recordSet: rec({ values: ['192.0.2.5'] }) },
      message:
        "Tried to create resource record set [name='shop.example.com.', type='A'] but it already exists",
    },
    {
      name: 'fails when a DELETE names no record',
      zone: [],
      change: { action: 'DELETE', recordSet: rec() },
      message:
        "Tried to delete resource record set [name='shop.example.com.', type='A'] but it was not found",
    },
    {
      name: 'fails when a DELETE does not match the current values exactly',
      zone: [weighted('east', '192.0.2.1')],
      change: { action: 'DELETE', recordSet: weighted('east', '192.0.2.2') },
      message:
        "Tried to delete resource record set [name='shop.example.com.', type='A', set-identifier='east'] but the values provided do not match the current values",
    },
  ])('$name', ({ zone, change, message }) => {
    expect(() => applyBatches(zone, [[change]])).toThrow(Route53ApiError);
    expect(() => applyBatches(zone, [[change]])).toThrow(message);
  });

  it('UPSERT creates a missing record and replaces an existing one', () => {
    const zone = applyBatches(
      [rec()],
      [
        [
          { action: 'UPSERT', recordSet: rec({ ttl: 5 }) },
          { action: 'UPSERT', recordSet: rec({ type: 'AAAA', values: ['2001:db8::1'] }) },
        ],
      ],
    );
    expect(zone).toEqual([rec({ ttl: 5 }), rec({ type: 'AAAA', values: ['2001:db8::1'] })]);
  });

  it('does not change the zone it is given', () => {
    const zone = [rec()];
    applyBatches(zone, [[{ action: 'DELETE', recordSet: rec() }]]);
    expect(zone).toEqual([rec()]);
  });
});
