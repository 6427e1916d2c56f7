/**
 * Each probe region is sized from the definitions at synth (infra/cdk/probe-sizing.ts): its
 * probe functions' memory by the cost model, its most shards by what its requests need, and a
 * warning when given values would leave its rounds starting late.
 */
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { TrafficManager, type TrafficManagerProps } from '../../infra/cdk/traffic-manager.js';
import type { Profile } from '../../shared/profile/types.js';
import { externalEndpoint, monitorConfig, profile } from '../support/profiles.js';
import { PROFILES } from './fixtures/profiles.js';
import { testApp } from './support.js';

/** `endpoints` HTTPS endpoints every 10 s, 20 to a profile, each its own probe request. */
function httpsFleet(endpoints: number, probeRegions?: readonly string[]): Profile[] {
  return Array.from({ length: Math.ceil(endpoints / 20) }, (_, i) =>
    profile({
      name: `fleet-${i}`,
      ...(probeRegions === undefined ? {} : { probeRegions }),
      monitorConfig: monitorConfig({ protocol: 'HTTPS', intervalInSeconds: 10, path: `/p/${i}` }),
      endpoints: Array.from({ length: Math.min(20, endpoints - i * 20) }, (_, j) =>
        externalEndpoint({ name: `e${j}`, target: `host-${i}-${j}.example.net` }),
      ),
    }),
  );
}

function synth(props: Partial<TrafficManagerProps> & Pick<TrafficManagerProps, 'profiles'>) {
  const app = testApp({ nag: false });
  const tm = new TrafficManager(app, 'Sized', {
    homeRegion: 'us-east-1',
    probeRegions: ['us-east-1'],
    ...props,
  });
  app.synth();
  return tm;
}

function probeFunctions(tm: TrafficManager, region: string): { name: string; memoryMb: number }[] {
  return Object.values(Template.fromStack(tm.probes.get(region)!).findResources('AWS::Lambda::Function'))
    .map((r) => r.Properties as { Description?: string; FunctionName: string; MemorySize: number })
    .filter((p) => String(p.Description).startsWith('traffic-manager: one probe round'))
    .map((p) => ({ name: p.FunctionName, memoryMb: p.MemorySize }));
}

function warningsOf(tm: TrafficManager, region: string): string[] {
  return Annotations.fromStack(tm.probes.get(region)!)
    .findWarning('*', Match.stringLikeRegexp('probe region'))
    .map((w) => String(w.entry.data));
}

describe('probe regions sized from the definitions', () => {
  it('a few endpoints: one shard of 512 MB, whose rounds (mostly the wait for the slowest answer) cost a third of 1,769 MB', () => {
    const tm = synth({ profiles: PROFILES });
    expect(probeFunctions(tm, 'us-east-1')).toEqual([{ name: 'traffic-manager-probe', memoryMb: 512 }]);
    expect(warningsOf(tm, 'us-east-1')).toEqual([]);
  });

  it('1,100 HTTPS endpoints at 10 s with the defaults: the shards their CPU needs, not the one shard that would start its rounds late', () => {
    const tm = synth({ profiles: httpsFleet(1_100) });
    const shards = probeFunctions(tm, 'us-east-1');
    // The constants alone need 2 full-vCPU shards (0.7 ms × 1,100 against 750 ms a round); room for 6× that CPU.
    expect(shards.map((s) => s.memoryMb)).toEqual(Array.from({ length: 7 }, () => 1_769));
    expect(warningsOf(tm, 'us-east-1')).toEqual([]);
  });

  it('each region gets its own size: a region probing only some profiles is smaller, and the dashboard shows its own shards', () => {
    const tm = synth({
      profiles: [...httpsFleet(1_100, ['us-east-1']), ...PROFILES],
      probeRegions: ['us-east-1', 'eu-west-1'],
    });
    expect(probeFunctions(tm, 'us-east-1')).toHaveLength(7);
    expect(probeFunctions(tm, 'eu-west-1')).toEqual([{ name: 'traffic-manager-probe', memoryMb: 512 }]);
    const dashboard = JSON.stringify(Template.fromStack(tm.home).findResources('AWS::CloudWatch::Dashboard'));
    expect(dashboard).toContain('eu-west-1 Invocations');
    expect(dashboard).toContain('us-east-1 Invocations (SUM of 7 shards)');
    expect(dashboard).not.toContain('eu-west-1 Invocations (SUM');
  });

  it('given values are kept; a maxProbeShards below what the requests need warns at synth, naming region, need and cap', () => {
    const tm = synth({ profiles: httpsFleet(1_100), maxProbeShards: 1 });
    expect(probeFunctions(tm, 'us-east-1')).toEqual([{ name: 'traffic-manager-probe', memoryMb: 1_769 }]);
    expect(warningsOf(tm, 'us-east-1')).toEqual([
      expect.stringMatching(
        /^probe region us-east-1: its 1,100 probe requests need 2 shards of 1,769 MB to start each round on time.*maxProbeShards is 1: its rounds will start late\. Raise maxProbeShards to at least 2/,
      ),
    ]);
    const given = synth({ profiles: PROFILES, probeMemorySize: 1_024, maxProbeShards: 2 });
    expect(probeFunctions(given, 'us-east-1').map((s) => s.memoryMb)).toEqual([1_024, 1_024]);
  });
});
