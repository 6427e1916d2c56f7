/**
 * Azure's largest fleet deploys: 200 profiles × 200 endpoints synthesize, with the
 * definitions shipped as an asset (the template stays far below CloudFormation's 1 MB) and
 * Route 53's default quota of records per hosted zone named in a synth warning.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TrafficManager } from '../../infra/cdk/traffic-manager.js';
import { LIMITS } from '../../shared/profile/defaults.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import type { Profile } from '../../shared/profile/types.js';
import { definitionsProperties, shippedDefinitions, testApp } from './support.js';

/**
 * 200 Weighted profiles of 200 endpoints in 4 hosted zones: 10,000 weighted records per zone,
 * and as many under `_static` with 100 switches (static failover is on by default).
 */
export function largestFleet(): unknown[] {
  return Array.from({ length: LIMITS.profiles }, (_, p) => ({
    name: `profile-${p}`,
    trafficRoutingMethod: 'Weighted',
    dnsConfig: {
      zoneName: `zone${p % 4}.example.com`,
      hostedZoneId: `Z${String(p % 4).padStart(20, '0')}`,
      relativeName: `p${p}`,
    },
    monitorConfig: { protocol: 'HTTPS', path: '/health' },
    endpoints: Array.from({ length: LIMITS.endpointsPerProfile }, (_, e) => ({
      name: `endpoint-${e}`,
      target: `e${e}.p${p}.backends.example.net`,
    })),
  }));
}

let profiles: Profile[];
let tm: TrafficManager;
let assemblyDir: string;
let templateBytes: number;
let home: { Resources: Record<string, unknown> };

beforeAll(() => {
  profiles = parseDefinitionsOrThrow(largestFleet());
  const app = testApp({ nag: false });
  tm = new TrafficManager(app, 'TrafficManager', {
    profiles,
    homeRegion: 'us-east-1',
    probeRegions: ['us-east-1', 'eu-west-1', 'ap-southeast-1'],
  });
  const assembly = app.synth();
  assemblyDir = assembly.directory;
  const artifact = assembly.getStackArtifact(tm.home.artifactId);
  templateBytes = readFileSync(join(assemblyDir, artifact.templateFile)).length;
  home = artifact.template as { Resources: Record<string, unknown> };
}, 600_000);

describe('200 profiles × 200 endpoints', () => {
  it('synthesize, shipping every profile in the asset and a template far below 1 MB', () => {
    expect(profiles.flatMap((p) => p.endpoints)).toHaveLength(40_000);
    expect((shippedDefinitions(assemblyDir, home) as Profile[]).map((p) => p.name)).toEqual(
      profiles.map((p) => p.name),
    );
    expect(definitionsProperties(home).DefinitionsHash).toMatch(/^[0-9a-f]{64}$/);
    expect(templateBytes).toBeLessThan(200_000);
  });

  it("warn at synth that a hosted zone needs more records than Route 53's default quota", () => {
    const warnings = Annotations.fromStack(tm.home).findWarning(
      '*',
      Match.stringLikeRegexp('records per hosted zone'),
    );
    expect(warnings.map((w) => String(w.entry.data))).toEqual(
      [0, 1, 2, 3].map(
        (z) =>
          `hosted zone Z${String(z).padStart(20, '0')} (zone${z}.example.com): the profiles publish 20100 record sets, plus its SOA and NS: over Route 53's default quota of 10000 records per hosted zone; request an increase (Service Quotas, Route 53, "Records per hosted zone") before deploying [ack: traffic-manager:route53-quota]`,
      ),
    );
  });
});
