/**
 * What an evaluation covers: the profiles a batch of triggers makes the evaluator evaluate
 * (with the ancestors whose nested endpoints follow them, and the descendants they read), and
 * what it reads for them (probe regions, probe targets, the verdicts that triggered it).
 */
import { describe, expect, it } from 'vitest';
import {
  latestDecision,
  probeRegionsOf,
  targetKeysOf,
  triggeredVerdicts,
} from '../../shared/evaluation/inputs.js';
import {
  affectedProfiles,
  withAncestors,
  withDescendants,
  type Trigger,
} from '../../shared/evaluation/triggers.js';
import type { VerdictItem } from '../../shared/state/items.js';
import { external, nested, profile, targetKey } from './evaluate-fixtures.js';

// top → middle → leaf (nested endpoints), and a profile beside them that shares leaf's target.
const leaf = profile('leaf', [external('east'), external('west')]);
const middle = profile('middle', [nested('to-leaf', 'leaf'), external('solo')]);
const top = profile('top', [nested('to-middle', 'middle')]);
const beside = profile('beside', [external('east')], { probeRegions: ['eu-central-1', 'us-east-1'] });
const PROFILES = [top, middle, leaf, beside];

const target = (p: typeof leaf, endpoint: string): Trigger => ({
  kind: 'target',
  targetKey: targetKey(p, endpoint),
});

describe('affectedProfiles: which profiles a batch of triggers evaluates', () => {
  it.each([
    {
      name: 'a tick: every profile',
      triggers: [{ kind: 'tick' }, { kind: 'config', profile: 'leaf' }],
      affected: ['top', 'middle', 'leaf', 'beside'],
    },
    {
      name: 'a verdict of a nested profile’s endpoint: that profile and its ancestors',
      triggers: [target(leaf, 'west')],
      affected: ['leaf', 'middle', 'top'],
    },
    {
      name: 'a verdict of a target two profiles probe: both, with the ancestors',
      triggers: [target(leaf, 'east')],
      affected: ['leaf', 'beside', 'middle', 'top'],
    },
    {
      name: 'a definitions change: that profile and its ancestors',
      triggers: [{ kind: 'config', profile: 'middle' }],
      affected: ['middle', 'top'],
    },
    {
      name: 'a runtime control of a removed profile: its name, so its records go',
      triggers: [{ kind: 'control', profile: 'gone' }],
      affected: ['gone'],
    },
    {
      name: 'a verdict no profile probes (any more): none',
      triggers: [{ kind: 'target', targetKey: 'HTTPS:old.example.net:443/#0' }],
      affected: [],
    },
    {
      name: 'outbox entries and a reconcile request: none',
      triggers: [{ kind: 'outbox' }, { kind: 'reconcile' }],
      affected: [],
    },
  ] satisfies { name: string; triggers: Trigger[]; affected: string[] }[])(
    '$name',
    ({ triggers, affected }) => {
      expect([...affectedProfiles(PROFILES, triggers)].sort()).toEqual([...affected].sort());
    },
  );

  it('withAncestors stops at profiles nothing nests; withDescendants reads each child once (a diamond)', () => {
    const left = profile('left', [nested('to-leaf', 'leaf')]);
    const right = profile('right', [nested('to-leaf', 'leaf')]);
    const root = profile('root', [nested('l', 'left'), nested('r', 'right'), external('own')]);
    const all = [root, left, right, leaf];
    expect([...withAncestors(all, new Set(['leaf']))].sort()).toEqual(['leaf', 'left', 'right', 'root']);
    expect([...withAncestors(all, new Set(['root']))]).toEqual(['root']);
    expect([...withDescendants(all, new Set(['root']))]).toEqual(['root', 'left', 'leaf', 'right']);
    expect([...withDescendants(all, new Set(['gone']))]).toEqual(['gone']);
  });
});

describe('what an evaluation reads', () => {
  it('probe regions: each profile’s own, else the defaults, once each, sorted', () => {
    expect(
      probeRegionsOf([beside, profile('plain', [], { probeRegions: undefined })], ['us-west-2', 'us-east-1']),
    ).toEqual(['eu-central-1', 'us-east-1', 'us-west-2']);
  });

  it('probe targets: the external endpoints’, a target two profiles probe alike listed once, nested endpoints none', () => {
    const keys = targetKeysOf([middle, leaf, beside]);
    expect(keys).toEqual([targetKey(middle, 'solo'), targetKey(leaf, 'east'), targetKey(leaf, 'west')]);
    expect(targetKey(beside, 'east')).toBe(targetKey(leaf, 'east'));
  });

  it('the triggering verdicts, and when the newest of them was checked (none: undefined)', () => {
    const verdict = (key: string, checkedAt: number): VerdictItem => ({
      targetKey: key,
      region: 'us-east-1',
      verdict: 'down',
      since: checkedAt,
      checkedAt,
      detail: '4 consecutive failures (tolerated 3)',
    });
    const east = verdict(targetKey(leaf, 'east'), 2_000);
    const west = verdict(targetKey(leaf, 'west'), 5_000);
    const solo = verdict(targetKey(middle, 'solo'), 9_000);
    const triggers: Trigger[] = [
      target(leaf, 'east'),
      target(leaf, 'west'),
      { kind: 'config', profile: 'middle' },
    ];

    expect(triggeredVerdicts([east, west, solo], triggers)).toEqual([east, west]);
    expect(latestDecision([east, west, solo], triggers)).toBe(5_000);
    expect(latestDecision([east, west, solo], [{ kind: 'tick' }])).toBeUndefined();
  });
});
