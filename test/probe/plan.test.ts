import { describe, expect, it } from 'vitest';
import { planProbes, spreadOffsetMs } from '../../shared/probe/plan.js';
import { endpointVerdictKey, probeRequestOf } from '../../shared/probe/target.js';
import { external, monitor, nested, profile } from './worker.fixtures.js';

const REGIONS = ['us-east-1', 'eu-west-1'];

describe('planProbes', () => {
  it.each([
    {
      name: 'an Enabled endpoint of an Enabled profile is probed',
      endpoint: external('a', 'a.example.net'),
      probed: true,
    },
    {
      name: 'a Disabled endpoint is not probed',
      endpoint: external('a', 'a.example.net', { endpointStatus: 'Disabled' }),
      probed: false,
    },
    {
      name: 'an always-serve endpoint is not probed',
      endpoint: external('a', 'a.example.net', { alwaysServe: true }),
      probed: false,
    },
    {
      name: 'a nested endpoint is never probed by the parent',
      endpoint: nested('child', 'other'),
      probed: false,
    },
  ])('$name', ({ endpoint, probed }) => {
    // Prepare
    const profiles = [profile('shop', { endpoints: [endpoint] })];
    // Act
    const targets = planProbes(profiles, 'us-east-1', REGIONS);
    // Assess
    expect(targets.length).toBe(probed ? 1 : 0);
  });

  it('a Disabled profile probes nothing', () => {
    const profiles = [
      profile('shop', { profileStatus: 'Disabled', endpoints: [external('a', 'a.example.net')] }),
    ];
    expect(planProbes(profiles, 'us-east-1', REGIONS)).toEqual([]);
  });

  it.each([
    {
      name: 'the default probe regions include the region → probed',
      probeRegions: undefined,
      region: 'eu-west-1',
      count: 1,
    },
    {
      name: 'the default probe regions leave the region out → not probed',
      probeRegions: undefined,
      region: 'ap-south-1',
      count: 0,
    },
    {
      name: "the profile's own probe regions override the default",
      probeRegions: ['ap-south-1'],
      region: 'ap-south-1',
      count: 1,
    },
    {
      name: "a default region the profile's list leaves out does not probe",
      probeRegions: ['ap-south-1'],
      region: 'us-east-1',
      count: 0,
    },
  ])('$name', ({ probeRegions, region, count }) => {
    const profiles = [profile('shop', { probeRegions, endpoints: [external('a', 'a.example.net')] })];
    expect(planProbes(profiles, region, REGIONS)).toHaveLength(count);
  });

  it('the same request in several profiles is probed once, at the shortest interval; each judging keeps its own verdict', () => {
    // Prepare: same request; judged at 30 s / 10 s timeout and at 10 s / 9 s timeout
    const slow = profile('slow', {
      monitorConfig: monitor({ intervalInSeconds: 30, timeoutInSeconds: 10 }),
      endpoints: [external('e1', 'api.example.net')],
    });
    const fast = profile('fast', {
      monitorConfig: monitor({ intervalInSeconds: 10, timeoutInSeconds: 9 }),
      endpoints: [external('e2', 'api.example.net')],
    });
    // Act
    const probes = planProbes([slow, fast], 'us-east-1', REGIONS);
    // Assess
    expect(probes).toHaveLength(1);
    expect(probes[0]?.intervalMs).toBe(10_000);
    expect(probes[0]?.judges.map((j) => [j.intervalMs, j.timeoutMs, j.servedEndpoints])).toEqual([
      [10_000, 9_000, [{ profile: 'fast', endpoint: 'e2' }]],
      [30_000, 10_000, [{ profile: 'slow', endpoint: 'e1' }]],
    ]);
    expect(probes[0]?.offsetMs).toBeLessThan(30_000);
  });

  it('profiles that send and judge alike share one judge (one verdict)', () => {
    const a = profile('a', { endpoints: [external('e', 'api.example.net')] });
    const b = profile('b', { endpoints: [external('f', 'api.example.net')] });
    const probes = planProbes([a, b], 'us-east-1', REGIONS);
    expect(probes).toHaveLength(1);
    expect(probes[0]?.judges).toHaveLength(1);
    expect(probes[0]?.judges[0]?.servedEndpoints).toEqual([
      { profile: 'a', endpoint: 'e' },
      { profile: 'b', endpoint: 'f' },
    ]);
  });

  it.each([
    { name: 'the interval', change: { intervalInSeconds: 10 as const, timeoutInSeconds: 9 } },
    { name: 'the timeout', change: { timeoutInSeconds: 5 } },
    { name: 'the expected codes', change: { expectedStatusCodeRanges: [{ min: 200, max: 299 }] } },
    { name: 'the tolerated failures', change: { toleratedNumberOfFailures: 1 } },
  ])('a different judging ($name) shares the probe but not the verdict', ({ change }) => {
    const a = profile('a', { endpoints: [external('e', 'api.example.net')] });
    const b = profile('b', { monitorConfig: monitor(change), endpoints: [external('e', 'api.example.net')] });
    const probes = planProbes([a, b], 'us-east-1', REGIONS);
    expect(probes).toHaveLength(1);
    expect(new Set(probes[0]?.judges.map((j) => j.key)).size).toBe(2);
  });

  it.each([
    { name: 'the path', change: { path: '/other' } },
    { name: 'the method', change: { method: 'HEAD' as const } },
    { name: 'a header', change: { customHeaders: [{ name: 'x-env', value: 'prod' }] } },
  ])('requests that differ in what is sent ($name) are separate probes', ({ change }) => {
    const a = profile('a', { endpoints: [external('e', 'api.example.net')] });
    const b = profile('b', { monitorConfig: monitor(change), endpoints: [external('e', 'api.example.net')] });
    expect(planProbes([a, b], 'us-east-1', REGIONS)).toHaveLength(2);
  });

  it("a judge's key is the one the evaluator reads verdicts by, a probe's key the request's", () => {
    const shop = profile('shop', { endpoints: [external('a', 'a.example.net')] });
    const endpoint = shop.endpoints[0] as never;
    const [probe] = planProbes([shop], 'us-east-1', REGIONS);
    expect(probe?.key).toBe(probeRequestOf(shop, endpoint).key);
    expect(probe?.judges[0]?.key).toBe(endpointVerdictKey(shop, endpoint));
  });

  it('offsets are stable: a restart, or other targets coming and going, does not move a target', () => {
    const one = profile('shop', { endpoints: [external('a', 'a.example.net')] });
    const more = profile('shop', {
      endpoints: [external('a', 'a.example.net'), external('b', 'b.example.net')],
    });
    const before = planProbes([one], 'us-east-1', REGIONS)[0];
    const after = planProbes([more], 'us-east-1', REGIONS).find((t) => t.host === 'a.example.net');
    expect(after?.offsetMs).toBe(before?.offsetMs);
  });

  it('offsets spread the targets over the interval: no burst at the start of the round', () => {
    // Prepare: 1,000 targets at 10 s
    const endpoints = Array.from({ length: 1_000 }, (_, i) => external(`e${i}`, `host-${i}.example.net`));
    const shop = profile('shop', {
      monitorConfig: monitor({ intervalInSeconds: 10, timeoutInSeconds: 9 }),
      endpoints,
    });
    // Act
    const targets = planProbes([shop], 'us-east-1', REGIONS);
    // Assess: every tenth of the interval holds roughly a tenth of the targets
    const buckets = new Array<number>(10).fill(0);
    for (const t of targets) buckets[Math.floor(t.offsetMs / 1_000)]! += 1;
    expect(Math.max(...buckets)).toBeLessThan(150);
    expect(Math.min(...buckets)).toBeGreaterThan(50);
    expect(targets.every((t) => t.offsetMs >= 0 && t.offsetMs < t.intervalMs)).toBe(true);
  });
  it('a planned probe is its request, sent at its judges’ shortest interval and placed within their longest', () => {
    const endpoint = external('e', 'api.example.net');
    const slow = profile('slow', {
      monitorConfig: monitor({ intervalInSeconds: 30 }),
      endpoints: [endpoint],
    });
    const fast = profile('fast', {
      monitorConfig: monitor({ intervalInSeconds: 10 }),
      endpoints: [endpoint],
    });
    const tcp = profile('tcp', {
      monitorConfig: monitor({ protocol: 'TCP', port: 5432, path: undefined, expectedStatusCodeRanges: [] }),
      endpoints: [endpoint],
    });
    const [shared, alone] = [
      planProbes([slow, fast], 'us-east-1', REGIONS),
      planProbes([tcp], 'us-east-1', REGIONS),
    ];
    const request = probeRequestOf(slow, endpoint);
    const { judges, ...probe } = shared[0]!;
    expect(judges).toHaveLength(2);
    expect(probe).toStrictEqual({
      ...request,
      intervalMs: 10_000,
      offsetMs: spreadOffsetMs(request.key, 30_000),
    });
    const tcpRequest = probeRequestOf(tcp, endpoint);
    const { judges: _, ...tcpProbe } = alone[0]!;
    expect(tcpProbe).toStrictEqual({
      ...tcpRequest,
      intervalMs: 30_000,
      offsetMs: spreadOffsetMs(tcpRequest.key, 30_000),
    });
  });

  it('requests are listed by offset, equal offsets by key', () => {
    // 400 requests at 10 s share some of the 10,000 offsets
    const endpoints = Array.from({ length: 400 }, (_, i) => external(`e${i}`, `host-${i}.example.net`));
    const probes = planProbes([profile('shop', { endpoints })], 'us-east-1', REGIONS);
    const pairs = probes.slice(1).map((probe, i) => [probes[i]!, probe] as const);
    expect(pairs.some(([a, b]) => a.offsetMs === b.offsetMs)).toBe(true);
    for (const [a, b] of pairs)
      expect(a.offsetMs < b.offsetMs || (a.offsetMs === b.offsetMs && a.key < b.key)).toBe(true);
  });

  it('a request’s judges are listed by interval, equal intervals by key, whatever the order of the profiles', () => {
    const endpoint = external('e', 'api.example.net');
    const profiles = [
      profile('slow', { monitorConfig: monitor({ intervalInSeconds: 30 }), endpoints: [endpoint] }),
      profile('a', {
        monitorConfig: monitor({ intervalInSeconds: 10, timeoutInSeconds: 9 }),
        endpoints: [endpoint],
      }),
      profile('b', {
        monitorConfig: monitor({ intervalInSeconds: 10, timeoutInSeconds: 5 }),
        endpoints: [endpoint],
      }),
    ];
    const judgesOf = (list: typeof profiles) => planProbes(list, 'us-east-1', REGIONS)[0]!.judges;
    const judges = judgesOf(profiles);
    const fastKeys = judges.slice(0, 2).map((j) => j.key);
    expect(judges.map((j) => j.intervalMs)).toEqual([10_000, 10_000, 30_000]);
    expect(fastKeys).toEqual([...fastKeys].sort());
    expect(judgesOf([...profiles].reverse())).toEqual(judges);
  });
});
