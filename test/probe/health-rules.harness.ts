/**
 * Health-rule timelines through the production path, with a fake clock: definitions are
 * validated and normalized by `parseDefinitions`, planned by `planProbes`, probed and judged
 * by one probe worker per region (`createProbeWorker`, in-memory store with DynamoDB's
 * conditional semantics), and evaluated after every round by `evaluateProfiles` — the same
 * code the Lambdas and `tm local` run.
 */
import { MemoryProbeStateStore } from '../support/memory-probe-state-store.js';
import { createProbeWorker, type ProbeWorker } from '../../functions/probe/worker.js';
import { planProbes } from '../../shared/probe/plan.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import type { Profile } from '../../shared/profile/types.js';
import type { EndpointStatusReport, ProfileStatusReport } from '../../shared/status/report.js';
import { evaluateProfiles } from '../../shared/status/evaluate.js';
import { fakeClock, noSleep, scriptedProber } from './worker.fixtures.js';

const quiet = { warn: () => undefined };

/** A profile in the definitions format with one external endpoint `east` (target east.shop.example.net). */
export function shopDefinition(
  name: string,
  monitorConfig: Record<string, unknown>,
  probeRegions: readonly string[] = ['us-east-1'],
): Record<string, unknown> {
  return {
    name,
    trafficRoutingMethod: 'Priority',
    dnsConfig: { zoneName: 'example.com', relativeName: name },
    monitorConfig: { path: '/health', intervalInSeconds: 10, timeoutInSeconds: 5, ...monitorConfig },
    probeRegions,
    endpoints: [{ name: 'east', target: 'east.shop.example.net' }],
  };
}

export function healthTimeline(definitions: readonly Record<string, unknown>[]) {
  const profiles: Profile[] = parseDefinitionsOrThrow([...definitions]);
  const regions = [...new Set(profiles.flatMap((p) => p.probeRegions ?? []))];
  const clock = fakeClock(0);
  const script = scriptedProber(clock);
  const store = new MemoryProbeStateStore();
  const roundMs = 10_000;
  const newWorker = (region: string): ProbeWorker => {
    const worker = createProbeWorker({
      region,
      store,
      prober: script.prober,
      clock,
      sleep: noSleep,
      logger: quiet,
    });
    worker.setTargets(planProbes(profiles, region, []));
    return worker;
  };
  const workers = new Map(regions.map((region) => [region, newWorker(region)]));
  let dueAt = 0;
  let previous = new Map<string, ProfileStatusReport>();

  /** One round in every region, then one evaluation; returns every profile's `east` report. */
  async function round(): Promise<Record<string, EndpointStatusReport>> {
    clock.set(dueAt);
    for (const worker of workers.values()) await worker.runRound(dueAt, roundMs);
    dueAt += roundMs;
    clock.set(dueAt - 1);
    const reports = evaluateProfiles({
      profiles,
      verdicts: [...store.verdicts.values()],
      heartbeats: [...store.heartbeats.values()],
      previous,
      defaultProbeRegions: [],
      now: clock.now(),
    });
    previous = new Map(reports.map((r) => [r.profile, r]));
    return Object.fromEntries(reports.map((r) => [r.profile, r.endpoints[0]!]));
  }

  /** Rounds until `count`, collecting the status of `profile`'s endpoint after each. */
  async function rounds(count: number, profile: string): Promise<EndpointStatusReport[]> {
    const out: EndpointStatusReport[] = [];
    for (let i = 0; i < count; i++) out.push((await round())[profile]!);
    return out;
  }

  return {
    profiles,
    script,
    store,
    round,
    rounds,
    /** The service's answer from now on (every probe of the one target). */
    serviceDown: (down: boolean) => {
      for (const p of planProbes(profiles, regions[0]!, [])) {
        if (down) script.down.add(p.key);
        else script.down.delete(p.key);
      }
    },
    /** How long the service takes to answer 200 from now on (ms, to the last byte). */
    serviceLatency: (ms: number) => {
      for (const p of planProbes(profiles, regions[0]!, [])) script.durations.set(p.key, ms);
    },
    /** The body the service answers (with 200) from now on. */
    serviceBody: (text: string) => {
      for (const p of planProbes(profiles, regions[0]!, [])) script.bodies.set(p.key, text);
    },
    /** Replaces a region's worker by a fresh one on the same table (a new Lambda container). */
    restart: (region: string) => workers.set(region, newWorker(region)),
  };
}
