/**
 * What an evaluation publishes against what it published before: the zones and names it
 * owns (a renamed or removed profile's old name included), the CIDR collections it must
 * create or change, the status items it rewrites, Route 53's refusals and the drift
 * repairs of a reconcile, each as the event an operator sees.
 */
import { describe, expect, it } from 'vitest';
import { EventDetailType } from '../../shared/contracts/events.js';
import { collectionsToSync, withCollectionIds } from '../../shared/evaluation/cidr-collections.js';
import { driftEvents, repairsOf, zonesToReconcile } from '../../shared/evaluation/drift.js';
import { UnpublishableProfileError } from '../../shared/evaluation/errors.js';
import { rejectionEvents } from '../../shared/evaluation/events.js';
import {
  changedStatuses,
  publishProblems,
  type StoredStatus,
} from '../../shared/evaluation/stored-status.js';
import { groupByZone, type RejectedName } from '../../shared/evaluation/zones.js';
import type { ProfileStatusReport } from '../../shared/status/report.js';
import type { CidrCollection, RecordSet } from '../../shared/zone/record-set.js';
import { profile } from '../support/profiles.js';

const T = Date.parse('2026-01-01T00:00:00Z');
const shop = profile({ name: 'shop' });
const blog = profile({ name: 'blog', dnsConfig: { hostedZoneId: 'Z2' } });
const nets = profile({ name: 'nets', trafficRoutingMethod: 'Subnet' });

const a = (name: string, value: string, setIdentifier?: string): RecordSet => ({
  name,
  type: 'A',
  ttl: 30,
  values: [value],
  ...(setIdentifier === undefined ? {} : { setIdentifier }),
});
const report = (name: string, status: ProfileStatusReport['status'] = 'Online'): ProfileStatusReport => ({
  profile: name,
  status,
  since: T,
  stale: false,
  endpoints: [],
});
const stored = (name: string, fields: Partial<StoredStatus> = {}): StoredStatus => ({
  report: report(name),
  hostedZoneId: 'Z1',
  ownedName: `${name}.example.com`,
  published: [a(`${name}.example.com`, '192.0.2.1')],
  cidrCollections: [],
  revision: 4,
  ...fields,
});

describe('groupByZone: the names each zone holds for the evaluation, and what was published there', () => {
  it('a profile published before at the same name: what it published; a new one: unknown (the zone is read)', () => {
    const zones = groupByZone([shop, blog], [], new Map([['shop', stored('shop')]]));
    expect(zones).toEqual(
      new Map([
        ['Z1', { names: new Set(['shop.example.com']), actual: [a('shop.example.com', '192.0.2.1')] }],
        ['Z2', { names: new Set(['blog.example.com']), actual: undefined }],
      ]),
    );
  });

  it('a profile renamed: the old name too, so its records go; the zone is read', () => {
    const zones = groupByZone(
      [shop],
      [],
      new Map([['shop', stored('shop', { ownedName: 'old.example.com' })]]),
    );
    expect(zones).toEqual(
      new Map([['Z1', { names: new Set(['shop.example.com', 'old.example.com']), actual: undefined }]]),
    );
  });

  it('a profile moved to another zone: the new zone unknown, the old one holding what was published', () => {
    const zones = groupByZone([blog], [], new Map([['blog', stored('blog')]]));
    expect(zones).toEqual(
      new Map([
        ['Z2', { names: new Set(['blog.example.com']), actual: undefined }],
        ['Z1', { names: new Set(['blog.example.com']), actual: [a('blog.example.com', '192.0.2.1')] }],
      ]),
    );
  });

  it('a removed profile: its name where it was published; one never published: nothing', () => {
    const zones = groupByZone([], ['gone', 'never'], new Map([['gone', stored('gone')]]));
    expect(zones).toEqual(
      new Map([
        ['Z1', { names: new Set(['gone.example.com']), actual: [a('gone.example.com', '192.0.2.1')] }],
      ]),
    );
  });

  it('a profile without a hosted zone id cannot be published, and says which', () => {
    const local = profile({ name: 'local', dnsConfig: { hostedZoneId: undefined } });
    expect(() => groupByZone([local], [], new Map())).toThrow(
      new UnpublishableProfileError('profile "local" has no dnsConfig.hostedZoneId'),
    );
  });
});

describe('status items: only those that change are rewritten, each with its revision counted up', () => {
  const published = new Map([['shop.example.com', [a('shop.example.com', '192.0.2.1')]]]);

  it('unchanged: not rewritten; a new status: the next revision; a first one: revision 1', () => {
    const previous = new Map([
      ['shop', stored('shop')],
      ['blog', stored('blog', { hostedZoneId: 'Z2', published: [] })],
    ]);
    const changed = changedStatuses(
      [shop, blog, nets],
      [report('shop'), report('blog', 'Degraded'), report('nets')],
      published,
      [],
      previous,
      new Map(),
    );
    expect(changed.map((s) => [s.report.profile, s.report.status, s.revision])).toEqual([
      ['blog', 'Degraded', 5],
      ['nets', 'Online', 1],
    ]);
  });

  it('a profile without a report in this evaluation is left alone', () => {
    expect(changedStatuses([shop], [], published, [], new Map(), new Map())).toEqual([]);
  });

  it('a refused change is kept beside the status (Route 53’s reasons, when)', () => {
    const rejected = new Map<string, RejectedName>([
      ['shop.example.com', { name: 'shop.example.com', reasons: ['RRSet already exists'], changes: [] }],
    ]);
    const problems = publishProblems([shop, blog], rejected, T);
    expect(problems).toEqual(new Map([['shop', { at: T, reasons: ['RRSet already exists'] }]]));
    const [status] = changedStatuses(
      [shop],
      [report('shop')],
      published,
      [],
      new Map([['shop', stored('shop')]]),
      problems,
    );
    expect(status).toMatchObject({
      publishProblem: { at: T, reasons: ['RRSet already exists'] },
      revision: 5,
    });
  });

  it('a Subnet profile keeps its own CIDR collection; another profile none', () => {
    const collections: CidrCollection[] = [
      { id: 'c-1', name: 'tm-nets', locations: { east: ['192.0.2.0/24'] } },
      { id: 'c-2', name: 'tm-other', locations: {} },
    ];
    const changed = changedStatuses(
      [nets, shop],
      [report('nets'), report('shop')],
      published,
      collections,
      new Map(),
      new Map(),
    );
    expect(changed.map((s) => [s.report.profile, s.cidrCollections.map((c) => c.id)])).toEqual([
      ['nets', ['c-1']],
      ['shop', []],
    ]);
  });
});

describe('CIDR collections: only what changed goes to Route 53; records reference collections by id', () => {
  const east = { east: ['192.0.2.0/24', '198.51.100.0/24'], west: ['203.0.113.0/24'] };

  it('the same locations in another order: published as it is, with its id; other or new ones: to sync', () => {
    const previous = new Map([
      ['nets', stored('nets', { cidrCollections: [{ id: 'c-1', name: 'tm-nets', locations: east }] })],
    ]);
    const same: CidrCollection = {
      id: '',
      name: 'tm-nets',
      locations: { west: ['203.0.113.0/24'], east: ['198.51.100.0/24', '192.0.2.0/24'] },
    };
    expect(collectionsToSync([same], [nets, shop], previous)).toEqual({
      unchanged: [{ id: 'c-1', name: 'tm-nets', locations: east }],
      changed: [],
    });
    const moved: CidrCollection = {
      ...same,
      locations: { east: ['192.0.2.0/24'], west: ['203.0.113.0/24'] },
    };
    const fresh: CidrCollection = { id: '', name: 'tm-new', locations: {} };
    expect(collectionsToSync([moved, fresh], [nets], previous)).toEqual({
      unchanged: [],
      changed: [moved, fresh],
    });
  });

  it('a record naming a collection gets its id; one not (yet) known keeps the name; other records are unchanged', () => {
    const routed = (collectionId: string): RecordSet => ({
      ...a('nets.example.com', '192.0.2.1', 'east'),
      cidrRoutingConfig: { collectionId, locationName: 'east' },
    });
    const plain = a('shop.example.com', '192.0.2.9');
    const records = withCollectionIds(
      [routed('tm-nets'), routed('tm-new'), plain],
      [{ id: 'c-1', name: 'tm-nets', locations: {} }],
    );
    expect(records).toEqual([routed('c-1'), routed('tm-new'), plain]);
  });
});

describe('Route 53 refusals: one event per new refusal, not one per retry', () => {
  const refused = (reasons: string[]) =>
    new Map<string, RejectedName & { hostedZoneId: string }>([
      ['shop.example.com', { name: 'shop.example.com', reasons, changes: [], hostedZoneId: 'Z1' }],
    ]);
  const stamp = { decidedAt: T, revisionOf: () => 5 };

  it('a first refusal, and one whose reasons changed: an event each; the same reasons again: none', () => {
    const before = new Map([
      ['shop', stored('shop', { publishProblem: { at: T - 60_000, reasons: ['A'] } })],
    ]);
    expect(rejectionEvents([shop, blog], refused(['A']), new Map(), stamp)).toEqual([
      {
        kind: EventDetailType.publishRejected,
        eventId: `shop/rejected/5@${T}`,
        profile: 'shop',
        hostedZoneId: 'Z1',
        name: 'shop.example.com',
        reasons: ['A'],
        changes: [],
      },
    ]);
    expect(rejectionEvents([shop], refused(['A']), before, stamp)).toEqual([]);
    expect(rejectionEvents([shop], refused(['A', 'B']), before, stamp).map((e) => e.reasons)).toEqual([
      ['A', 'B'],
    ]);
  });
});

describe('drift: what a reconcile compares, and the events of its repairs', () => {
  it('every zone with the names published there, leaving out refused profiles and unpublished ones', () => {
    const statuses = new Map([
      [
        'shop',
        stored('shop', {
          published: [a('shop.example.com', '192.0.2.1'), a('other.example.com', '192.0.2.2')],
        }),
      ],
      ['blog', stored('blog', { hostedZoneId: 'Z2' })],
      ['news', stored('news')],
      ['refused', stored('refused', { publishProblem: { at: T, reasons: ['x'] } })],
      ['local', stored('local', { hostedZoneId: '' })],
    ]);
    expect(zonesToReconcile(statuses)).toEqual(
      new Map([
        [
          'Z1',
          {
            names: new Set(['shop.example.com', 'news.example.com']),
            desired: [a('shop.example.com', '192.0.2.1'), a('news.example.com', '192.0.2.1')],
            owners: new Map([
              ['shop.example.com', 'shop'],
              ['news.example.com', 'news'],
            ]),
          },
        ],
        [
          'Z2',
          {
            names: new Set(['blog.example.com']),
            desired: [a('blog.example.com', '192.0.2.1')],
            owners: new Map([['blog.example.com', 'blog']]),
          },
        ],
      ]),
    );
  });

  it('one repair per record set touched: what was found (null: deleted) and what was written back (null: removed)', () => {
    const published = [
      a('shop.example.com', '192.0.2.1', 'east'),
      a('shop.example.com', '192.0.2.2', 'west'),
    ];
    const found = [
      a('shop.example.com', '203.0.113.9', 'east'),
      a('shop.example.com', '203.0.113.8', 'north'),
    ];
    const repairs = repairsOf(
      [
        { action: 'DELETE', recordSet: found[0]! },
        { action: 'CREATE', recordSet: published[0]! },
        { action: 'CREATE', recordSet: published[1]! },
        { action: 'DELETE', recordSet: found[1]! },
      ],
      found,
      published,
    );
    expect(repairs).toEqual([
      { name: 'shop.example.com', type: 'A', setIdentifier: 'east', found: found[0], written: published[0] },
      { name: 'shop.example.com', type: 'A', setIdentifier: 'west', found: null, written: published[1] },
      { name: 'shop.example.com', type: 'A', setIdentifier: 'north', found: found[1], written: null },
    ]);

    const change = { hostedZoneId: 'Z1', reconciledAt: T, changeId: 'C1', changeSubmittedAt: T + 5 };
    const events = driftEvents(
      [
        ...repairs,
        {
          name: 'shop.example.com',
          type: 'A',
          setIdentifier: undefined,
          found: null,
          written: a('shop.example.com', '1.1.1.1'),
        },
      ],
      new Map([['shop.example.com', 'shop']]),
      change,
    );
    expect(events.map((e) => [e.eventId, e.setIdentifier])).toEqual([
      [`shop/drift/A shop.example.com east@${T}`, 'east'],
      [`shop/drift/A shop.example.com west@${T}`, 'west'],
      [`shop/drift/A shop.example.com north@${T}`, 'north'],
      [`shop/drift/A shop.example.com@${T}`, undefined],
    ]);
    expect(events[0]).toMatchObject({
      kind: EventDetailType.driftRepaired,
      profile: 'shop',
      ...change,
      inSyncAt: null,
    });
    expect(events[3]).not.toHaveProperty('setIdentifier');
  });
});
