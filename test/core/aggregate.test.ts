import { describe, expect, it } from 'vitest';
import { aggregateRegions, type AggregateInput } from '../../shared/monitor/aggregate.js';
import type { HeartbeatItem, VerdictItem } from '../../shared/state/items.js';
import { heartbeat, PERIOD_MS } from './evaluate-fixtures.js';

const NOW = 1_000_000;
const A = 'us-east-1';
const B = 'eu-west-1';
const C = 'ap-southeast-1';
const D = 'sa-east-1';
const STALE_AT = NOW - 3 * PERIOD_MS - 1;

type Spec = Record<
  string,
  { verdict?: 'up' | 'down'; since?: number; detail?: string; heartbeatAt?: number | null }
>;

/** Regions with a verdict and/or a heartbeat (fresh at NOW unless `heartbeatAt` says otherwise; null: none). */
function input(spec: Spec, regions: readonly string[] = Object.keys(spec)): AggregateInput {
  const verdicts = new Map<string, VerdictItem>();
  const heartbeats = new Map<string, HeartbeatItem[]>();
  for (const [region, s] of Object.entries(spec)) {
    if (s.verdict !== undefined) {
      const since = s.since ?? 0;
      const detail =
        s.detail ?? (s.verdict === 'up' ? 'check succeeded' : '4 consecutive failures (tolerated 3)');
      verdicts.set(region, {
        targetKey: 't',
        region,
        verdict: s.verdict,
        since,
        checkedAt: since + 1,
        detail,
      });
    }
    if (s.heartbeatAt !== null) heartbeats.set(region, [heartbeat(region, s.heartbeatAt ?? NOW)]);
  }
  return { regions, verdicts, heartbeats, now: NOW };
}

describe('cross-region aggregation (SPEC §3: a problem only if fewer than 50% of regions report up)', () => {
  it.each([
    {
      name: 'all regions up → up',
      spec: { [A]: { verdict: 'up' }, [B]: { verdict: 'up' }, [C]: { verdict: 'up' } },
      health: 'up',
    },
    {
      name: '1 of 3 regions down → up',
      spec: { [A]: { verdict: 'down' }, [B]: { verdict: 'up' }, [C]: { verdict: 'up' } },
      health: 'up',
    },
    {
      name: '2 of 3 regions down → down (1/3 up is fewer than 50%)',
      spec: { [A]: { verdict: 'down' }, [B]: { verdict: 'down' }, [C]: { verdict: 'up' } },
      health: 'down',
    },
    {
      name: 'exactly 50% up (2 of 4) is healthy',
      spec: {
        [A]: { verdict: 'down' },
        [B]: { verdict: 'down' },
        [C]: { verdict: 'up' },
        [D]: { verdict: 'up' },
      },
      health: 'up',
    },
    {
      name: '1 of 2 up is healthy',
      spec: { [A]: { verdict: 'down' }, [B]: { verdict: 'up' } },
      health: 'up',
    },
    { name: 'a single region down → down', spec: { [A]: { verdict: 'down' } }, health: 'down' },
    {
      name: 'undecided regions do not vote: 1 down + 2 undecided → down',
      spec: { [A]: { verdict: 'down' }, [B]: {}, [C]: {} },
      health: 'down',
    },
    {
      name: 'stale regions do not vote: 1 up + 2 stale down → up',
      spec: {
        [A]: { verdict: 'up' },
        [B]: { verdict: 'down', heartbeatAt: STALE_AT },
        [C]: { verdict: 'down', heartbeatAt: STALE_AT },
      },
      health: 'up',
    },
    {
      name: 'a verdict without any heartbeat is stale: it does not vote',
      spec: {
        [A]: { verdict: 'up' },
        [B]: { verdict: 'down', heartbeatAt: null },
        [C]: { verdict: 'down', heartbeatAt: null },
      },
      health: 'up',
    },
    { name: 'no region has decided yet → checking', spec: { [A]: {}, [B]: {}, [C]: {} }, health: 'checking' },
    {
      name: 'regions never heard from → checking',
      spec: { [A]: { heartbeatAt: null }, [B]: { heartbeatAt: null } },
      health: 'checking',
    },
    {
      name: 'only silent regions without a decision → checking',
      spec: { [A]: { heartbeatAt: STALE_AT }, [B]: {} },
      health: 'checking',
    },
    {
      name: 'only silent regions had decided → stale (fail static)',
      spec: {
        [A]: { verdict: 'up', heartbeatAt: STALE_AT },
        [B]: { verdict: 'down', heartbeatAt: null },
        [C]: {},
      },
      health: 'stale',
    },
  ] as { name: string; spec: Spec; health: string }[])('$name', ({ spec, health }) => {
    // Act
    const result = aggregateRegions(input(spec));
    // Assess
    expect(result.health).toBe(health);
  });

  it('gives each probe region a vote, with the verdict it rests on', () => {
    // Prepare
    const spec: Spec = {
      [A]: { verdict: 'up', since: 100 },
      [B]: { verdict: 'down', since: 200, heartbeatAt: STALE_AT },
      [C]: {},
      [D]: { heartbeatAt: null },
    };
    // Act
    const { votes } = aggregateRegions(input(spec, [A, B, C, D, A]));
    // Assess
    expect(votes).toEqual([
      { region: A, vote: 'up', since: 100, checkedAt: 101, detail: 'check succeeded' },
      {
        region: B,
        vote: 'stale',
        since: 200,
        checkedAt: 201,
        detail: '4 consecutive failures (tolerated 3)',
      },
      { region: C, vote: 'undecided' },
      { region: D, vote: 'undecided' },
    ]);
  });

  it('carries the deciding check latency into the vote', () => {
    // Prepare
    const verdicts = new Map<string, VerdictItem>([
      [
        A,
        {
          targetKey: 't',
          region: A,
          verdict: 'up',
          since: 1,
          checkedAt: 1,
          latencyMs: 42,
          detail: 'check succeeded',
        },
      ],
    ]);
    // Act
    const { votes } = aggregateRegions({
      regions: [A],
      verdicts,
      heartbeats: new Map([[A, [heartbeat(A, NOW)]]]),
      now: NOW,
    });
    // Assess
    expect(votes[0]?.latencyMs).toBe(42);
  });

  it('ignores verdicts of regions the profile does not probe from', () => {
    // Prepare: D is down but not one of the profile's regions
    const spec: Spec = { [A]: { verdict: 'up' }, [D]: { verdict: 'down' } };
    // Act
    const result = aggregateRegions(input(spec, [A]));
    // Assess
    expect(result).toMatchObject({ health: 'up', votes: [{ region: A, vote: 'up' }] });
  });

  it.each([
    {
      name: 'down since the verdict that tipped the vote (the 2nd of 3 regions to go down)',
      spec: {
        [A]: { verdict: 'down', since: 300 },
        [B]: { verdict: 'down', since: 100 },
        [C]: { verdict: 'up', since: 50 },
      },
      since: 300,
    },
    {
      name: 'up since enough regions were up (2 of 3 needed)',
      spec: {
        [A]: { verdict: 'up', since: 300 },
        [B]: { verdict: 'up', since: 100 },
        [C]: { verdict: 'up', since: 200 },
      },
      since: 200,
    },
    {
      name: 'up since the region whose recovery tipped the vote',
      spec: {
        [A]: { verdict: 'up', since: 10 },
        [B]: { verdict: 'down', since: 100 },
        [C]: { verdict: 'up', since: 200 },
      },
      since: 200,
    },
    { name: 'checking has no since', spec: { [A]: {} }, since: undefined },
  ] as { name: string; spec: Spec; since: number | undefined }[])('since: $name', ({ spec, since }) => {
    expect(aggregateRegions(input(spec)).since).toBe(since);
  });

  it.each([
    {
      name: 'down with one shared detail: "<detail> in k/n regions"',
      spec: { [A]: { verdict: 'down' }, [B]: { verdict: 'down' }, [C]: { verdict: 'up' } },
      reason: '4 consecutive failures (tolerated 3) in 2/3 regions',
    },
    {
      name: 'down with different details: per region',
      spec: {
        [A]: { verdict: 'down', detail: '4 consecutive failures (tolerated 3)' },
        [B]: { verdict: 'down', detail: '5 consecutive failures (tolerated 3)' },
      },
      reason:
        'down in 2/2 regions (us-east-1: 4 consecutive failures (tolerated 3); eu-west-1: 5 consecutive failures (tolerated 3))',
    },
    {
      name: 'up, naming the dissenting regions',
      spec: { [A]: { verdict: 'up' }, [B]: { verdict: 'down' } },
      reason: 'up in 1/2 regions; 4 consecutive failures (tolerated 3) in 1/2 regions',
    },
    {
      name: 'up, naming silent and undecided regions',
      spec: { [A]: { verdict: 'up' }, [B]: { verdict: 'up', heartbeatAt: STALE_AT }, [C]: {} },
      reason: 'up in 1/1 regions; 1 stale (eu-west-1); 1 undecided (ap-southeast-1)',
    },
    {
      name: 'checking',
      spec: { [A]: {}, [B]: {} },
      reason: 'no probe region has decided yet; 2 undecided (us-east-1, eu-west-1)',
    },
    {
      name: 'stale',
      spec: { [A]: { verdict: 'up', heartbeatAt: STALE_AT } },
      reason: 'no fresh probe data: every region that had decided is silent; 1 stale (us-east-1)',
    },
  ] as { name: string; spec: Spec; reason: string }[])('reason: $name', ({ spec, reason }) => {
    expect(aggregateRegions(input(spec)).reason).toBe(reason);
  });

  it('a profile without probe regions stays checking', () => {
    expect(aggregateRegions(input({}, []))).toMatchObject({
      health: 'checking',
      reason: 'no probe regions',
      votes: [],
    });
  });
});
