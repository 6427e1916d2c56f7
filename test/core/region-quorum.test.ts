/**
 * monitorConfig.regionQuorum through the evaluation: for each form, the exact region vote on
 * which the endpoint goes Degraded (regions saying down one after another) and comes back
 * Online (regions saying up again one after another), and how silent regions count.
 */
import { describe, expect, it } from 'vitest';
import type { RegionQuorum } from '../../shared/profile/types.js';
import type { VerdictItem } from '../../shared/state/items.js';
import { evaluateProfiles, type ProfileStatusReport } from '../../shared/status/evaluate.js';
import { transitionRecords } from '../../shared/evaluation/transitions.js';
import { statusChanges } from '../../shared/status/evaluate.js';
import { external, heartbeat, monitor, PERIOD_MS, profile, verdict } from './evaluate-fixtures.js';

const FOUR = ['us-east-1', 'eu-west-1', 'ap-southeast-1', 'sa-east-1'];
const NOW = 10_000_000;

function shopWith(quorum: RegionQuorum | undefined, regions: readonly string[] = FOUR) {
  return profile('shop', [external('east')], {
    probeRegions: [...regions],
    monitorConfig: { ...monitor, ...(quorum === undefined ? {} : { regionQuorum: quorum }) },
  });
}

interface Step {
  readonly status: string;
  readonly reason: string;
  readonly since: number | undefined;
}

/**
 * Starts with every region saying `from` and flips them to the other verdict one at a time
 * (region i at NOW + i), evaluating after each flip; returns the endpoint after each vote.
 */
function flipOneByOne(
  quorum: RegionQuorum | undefined,
  from: 'up' | 'down',
  regions: readonly string[] = FOUR,
): Step[] {
  const shop = shopWith(quorum, regions);
  const to = from === 'up' ? 'down' : 'up';
  const verdicts = new Map<string, VerdictItem>(regions.map((r) => [r, verdict(shop, 'east', r, from, 0)]));
  let previous = new Map<string, ProfileStatusReport>();
  const steps: Step[] = [];
  for (const [i, region] of regions.entries()) {
    verdicts.set(region, verdict(shop, 'east', region, to, NOW + i));
    const now = NOW + i;
    const reports = evaluateProfiles({
      profiles: [shop],
      verdicts: [...verdicts.values()],
      heartbeats: regions.map((r) => heartbeat(r, now)),
      previous,
      defaultProbeRegions: [],
      now,
    });
    previous = new Map(reports.map((r) => [r.profile, r]));
    const endpoint = reports[0]!.endpoints[0]!;
    steps.push({ status: endpoint.status, reason: endpoint.reason, since: endpoint.since });
  }
  return steps;
}

/** The 1-based vote after which the status first is `status`. */
function voteOn(steps: readonly Step[], status: string): number {
  return steps.findIndex((s) => s.status === status) + 1;
}

describe('regionQuorum: the vote on which the status changes (4 probe regions)', () => {
  it.each([
    // Azure: down only when fewer than half (2 of 4) say up.
    { quorum: undefined, degradedOn: 3, onlineOn: 2 },
    { quorum: 'any', degradedOn: 4, onlineOn: 1 },
    // More than half: 3 of 4, where Azure's rule is content with 2.
    { quorum: 'majority', degradedOn: 2, onlineOn: 3 },
    { quorum: 'all', degradedOn: 1, onlineOn: 4 },
    { quorum: 1, degradedOn: 4, onlineOn: 1 },
    { quorum: 3, degradedOn: 2, onlineOn: 3 },
    { quorum: 4, degradedOn: 1, onlineOn: 4 },
  ] as { quorum: RegionQuorum | undefined; degradedOn: number; onlineOn: number }[])(
    '$quorum: Degraded on down vote $degradedOn, Online again on up vote $onlineOn',
    ({ quorum, degradedOn, onlineOn }) => {
      // Act
      const failing = flipOneByOne(quorum, 'up');
      const recovering = flipOneByOne(quorum, 'down');
      // Assess
      expect(failing.slice(0, degradedOn - 1).every((s) => s.status === 'Online')).toBe(true);
      expect(voteOn(failing, 'Degraded')).toBe(degradedOn);
      expect(failing.slice(degradedOn - 1).every((s) => s.status === 'Degraded')).toBe(true);
      // The status began with the verdict of the region that tipped it.
      expect(failing[degradedOn - 1]!.since).toBe(NOW + degradedOn - 1);
      expect(recovering.slice(0, onlineOn - 1).every((s) => s.status === 'Degraded')).toBe(true);
      expect(voteOn(recovering, 'Online')).toBe(onlineOn);
      expect(recovering[onlineOn - 1]!.since).toBe(NOW + onlineOn - 1);
    },
  );

  it('majority and Azure differ exactly at half: 2 of 4 up is Online for Azure, Degraded for majority', () => {
    // Act
    const azure = flipOneByOne(undefined, 'up');
    const majority = flipOneByOne('majority', 'up');
    // Assess: after the 2nd down vote, 2 of 4 regions say up.
    expect(azure[1]!.status).toBe('Online');
    expect(majority[1]!.status).toBe('Degraded');
  });
});

describe('regionQuorum reason text', () => {
  it('names the up votes and what the quorum needs, on the way down and up', () => {
    // Act
    const failing = flipOneByOne('all', 'up', FOUR.slice(0, 3));
    const recovering = flipOneByOne('all', 'down', FOUR.slice(0, 3));
    // Assess
    expect(failing[0]!.reason).toBe(
      '4 consecutive failures (tolerated 3) in 1/3 regions; 2 of 3 regions up, quorum all needs 3',
    );
    expect(recovering[1]!.reason).toBe(
      '4 consecutive failures (tolerated 3) in 1/3 regions; 2 of 3 regions up, quorum all needs 3',
    );
    expect(recovering[2]!.reason).toBe('up in 3/3 regions; 3 of 3 regions up, quorum all needs 3');
  });

  it('says nothing of a quorum when none is set (Azure text unchanged)', () => {
    // Act
    const [first, second] = flipOneByOne(undefined, 'up', FOUR.slice(0, 3));
    // Assess
    expect(first!.reason).toBe('up in 2/3 regions; 4 consecutive failures (tolerated 3) in 1/3 regions');
    expect(second!.reason).toBe('4 consecutive failures (tolerated 3) in 2/3 regions');
  });
});

describe('regionQuorum with a silent region (stale heartbeat: it does not vote)', () => {
  const regions = FOUR.slice(0, 3);
  const staleAt = NOW - 3 * PERIOD_MS - 1;

  function evaluate(quorum: RegionQuorum, previousStatus?: 'Online' | 'Degraded') {
    const shop = shopWith(quorum, regions);
    const [a, b, c] = regions as [string, string, string];
    const previous = new Map<string, ProfileStatusReport>();
    if (previousStatus !== undefined) {
      const [report] = evaluateProfiles({
        profiles: [shop],
        verdicts: regions.map((r) =>
          verdict(shop, 'east', r, previousStatus === 'Online' ? 'up' : 'down', 0),
        ),
        heartbeats: regions.map((r) => heartbeat(r, NOW)),
        previous,
        defaultProbeRegions: [],
        now: NOW,
      });
      previous.set('shop', report!);
    }
    // c says down but has fallen silent; a and b say up.
    return evaluateProfiles({
      profiles: [shop],
      verdicts: [
        verdict(shop, 'east', a, 'up', 1),
        verdict(shop, 'east', b, 'up', 2),
        verdict(shop, 'east', c, 'down', 3),
      ],
      heartbeats: [heartbeat(a, NOW), heartbeat(b, NOW), heartbeat(c, staleAt)],
      previous,
      defaultProbeRegions: [],
      now: NOW,
    })[0]!.endpoints[0]!;
  }

  it.each(['all', 3] as RegionQuorum[])(
    '%j counts over the regions that vote: 2 of 2 up is Online',
    (quorum) => {
      // Act
      const endpoint = evaluate(quorum);
      // Assess
      expect(endpoint.status).toBe('Online');
      expect(endpoint.reason).toBe(
        `up in 2/2 regions; 2 of 2 regions up, quorum ${quorum} needs 2; 1 stale (ap-southeast-1)`,
      );
    },
  );

  it('every deciding region silent: the last status is kept (fail static), whatever the quorum', () => {
    // Prepare
    const shop = shopWith('all', regions);
    const [previous] = evaluateProfiles({
      profiles: [shop],
      verdicts: regions.map((r) => verdict(shop, 'east', r, 'down', 0)),
      heartbeats: regions.map((r) => heartbeat(r, NOW)),
      previous: new Map(),
      defaultProbeRegions: [],
      now: NOW,
    });
    // Act
    const [report] = evaluateProfiles({
      profiles: [shop],
      verdicts: regions.map((r) => verdict(shop, 'east', r, 'down', 0)),
      heartbeats: regions.map((r) => heartbeat(r, staleAt)),
      previous: new Map([['shop', previous!]]),
      defaultProbeRegions: [],
      now: NOW,
    });
    // Assess
    expect(report!.endpoints[0]).toMatchObject({ status: 'Degraded', stale: true });
  });
});

describe('regionQuorum and the transition timing', () => {
  it('the run start is the deciding region of the quorum (all: the first region to say down)', () => {
    // Prepare: 3 regions up, then region 1 says down (its run began at 500).
    const regions = FOUR.slice(0, 3);
    const shop = shopWith('all', regions);
    const up = regions.map((r) => verdict(shop, 'east', r, 'up', 0));
    const before = evaluateProfiles({
      profiles: [shop],
      verdicts: up,
      heartbeats: regions.map((r) => heartbeat(r, NOW)),
      previous: new Map(),
      defaultProbeRegions: [],
      now: NOW,
    });
    const down = { ...verdict(shop, 'east', regions[0]!, 'down', NOW), runStartedAt: 500 };
    const after = evaluateProfiles({
      profiles: [shop],
      verdicts: [down, ...up.slice(1)],
      heartbeats: regions.map((r) => heartbeat(r, NOW)),
      previous: new Map(before.map((r) => [r.profile, r])),
      defaultProbeRegions: [],
      now: NOW,
    });
    const changes = statusChanges(new Map(before.map((r) => [r.profile, r])), after);
    // Act
    const [record] = transitionRecords({
      changes,
      profiles: [shop],
      decidedAt: NOW,
      revisionOf: () => 1,
      publishedAt: () => ({ changes: [] }),
      figureSettings: { batchingWindowSeconds: 2 },
    });
    // Assess
    expect(record).toMatchObject({ endpoint: 'east', from: 'Online', to: 'Degraded' });
    expect(record!.timing.firstFailedCheckAt).toBe(new Date(500).toISOString());
  });
});
