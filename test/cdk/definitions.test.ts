/** `fails when …`: problems in the definitions or the deployment settings stop `cdk synth` before anything is deployed. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it, vi } from 'vitest';
import { loadDefinitions } from '../../infra/definitions/load.js';
import { loadProfiles } from '../../infra/cdk/definitions.js';
import {
  InvalidDefinitionsError,
  InvalidDeploymentError,
  MissingHostedZoneError,
} from '../../infra/cdk/errors.js';
import { bindHostedZones } from '../../infra/cdk/hosted-zones.js';
import type { VpcFactory } from '../../infra/cdk/probe-stack.js';
import { TrafficManager } from '../../infra/cdk/traffic-manager.js';
import { compiledTm } from '../support/compiled-tm.js';
import { PROFILES, ZONE_ID, profile } from './fixtures/profiles.js';
import { testApp } from './support.js';

const run = promisify(execFile);
const INVALID = 'examples/invalid.yaml';

/** Runs `tm validate FILE` or the CDK app as `cdk synth` runs it (context through CDK_CONTEXT_JSON). */
async function exitOf(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, args, {
      env: { ...process.env, ...env },
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('fails when the definitions are invalid', () => {
  it('with every line `tm validate` prints', async () => {
    // Prepare
    const expected = await loadDefinitions(INVALID);
    if (expected.ok) throw new Error(`${INVALID} should be invalid`);
    const validate = await exitOf([await compiledTm(), 'validate', INVALID]);

    // Act
    const error = await loadProfiles(INVALID).catch((e: unknown) => e);

    // Assess
    expect(error).toBeInstanceOf(InvalidDefinitionsError);
    const lines = (error as InvalidDefinitionsError).lines;
    expect(lines).toEqual(expected.formatted);
    expect(validate.code).toBe(1);
    for (const line of lines) expect(validate.stderr).toContain(line);
  });

  it('`cdk synth` of the app exits 1 printing those lines', async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'tm-cdk-'));
    try {
      const synth = await exitOf(['--import', 'tsx', 'infra/cdk/app.ts'], {
        CDK_OUTDIR: outdir,
        CDK_CONTEXT_JSON: JSON.stringify({
          'traffic-manager:definitions': INVALID,
          'traffic-manager:homeRegion': 'us-east-1',
          'traffic-manager:probeRegions': ['us-east-1'],
        }),
      });
      const expected = await loadDefinitions(INVALID);
      expect(synth.code).toBe(1);
      expect(synth.stderr).toContain(`invalid profile definitions in ${INVALID}:`);
      for (const line of expected.ok ? [] : expected.formatted) expect(synth.stderr).toContain(line);
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });

  it('a definitions file that does not exist is named', async () => {
    await expect(loadProfiles('examples/nope.yaml')).rejects.toThrow('examples/nope.yaml');
  });

  it('a definitions module that calls process.exit is reported by the same loader as tm validate', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tm-cdk-exit-'));
    try {
      const file = join(dir, 'exit.mts');
      await writeFile(file, 'process.exit(0);\nexport default [];\n');
      await expect(loadProfiles(file)).rejects.toThrow(
        `${file}: called process.exit(0) while loading; a definitions module must only export its profiles`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('hosted zones', () => {
  it('fails when a profile has no hosted zone id, naming the profile and its zone', () => {
    const profiles = [profile('shop'), profile('blog', { zone: 'example.org', zoneId: undefined })];
    const act = () =>
      new TrafficManager(testApp({ nag: false }), 'TM', {
        profiles,
        homeRegion: 'us-east-1',
        probeRegions: ['us-east-1'],
      });
    expect(act).toThrow(MissingHostedZoneError);
    expect(act).toThrow(
      'profile "blog" dnsConfig.hostedZoneId: needs the id of the hosted zone "example.org" (set it in the definition or in the hostedZones prop), got nothing',
    );
  });

  it('names every profile without a zone id at once', () => {
    const profiles = [profile('a', { zoneId: undefined }), profile('b', { zoneId: undefined })];
    const error = (() => {
      try {
        bindHostedZones(profiles);
      } catch (e) {
        return e as MissingHostedZoneError;
      }
    })();
    expect(error?.profiles.map((p) => p.name)).toEqual(['a', 'b']);
  });

  it.each([
    {
      name: 'takes the zone id from the hostedZones prop by zone name',
      zones: { 'example.org': 'ZORG' },
      want: 'ZORG',
    },
    {
      name: 'accepts the zone name with a trailing dot and any case',
      zones: { 'Example.ORG.': 'ZORG' },
      want: 'ZORG',
    },
    {
      name: 'strips the /hostedzone/ prefix of a zone id',
      zones: { 'example.org': '/hostedzone/ZORG' },
      want: 'ZORG',
    },
  ])('$name', ({ zones, want }) => {
    const [bound] = bindHostedZones(
      [profile('blog', { zone: 'example.org', zoneId: undefined })],
      zones as unknown as Record<string, string>,
    );
    expect(bound?.dnsConfig.hostedZoneId).toBe(want);
  });

  it('keeps the zone id a definition names', () => {
    const [bound] = bindHostedZones([profile('shop')], { 'example.com': 'ZOTHER' });
    expect(bound?.dnsConfig.hostedZoneId).toBe(ZONE_ID);
  });
});

describe('deployment settings', () => {
  it.each([
    {
      name: 'fails when there are no probe regions',
      probeRegions: [],
      probeVpcs: {},
      message: 'probeRegions: needs at least one region, got []',
    },
    {
      name: 'fails when a probe region is listed twice',
      probeRegions: ['us-east-1', 'us-east-1'],
      probeVpcs: {},
      message: 'regions must be unique',
    },
    {
      name: 'fails when a VPC is given for a region that is not probed',
      probeRegions: ['us-east-1'],
      probeVpcs: {
        'eu-west-1': () => {
          throw new Error('unused');
        },
      },
      message: 'probeVpcs.eu-west-1: not a probe region',
    },
  ])('$name', ({ probeRegions, probeVpcs, message }) => {
    const act = () =>
      new TrafficManager(testApp({ nag: false }), 'TM', {
        profiles: PROFILES,
        homeRegion: 'us-east-1',
        probeRegions,
        probeVpcs: probeVpcs as Record<string, VpcFactory>,
      });
    expect(act).toThrow(InvalidDeploymentError);
    expect(act).toThrow(message);
  });

  it('fails when a profile asks for a probe region that has no probe stack', () => {
    const profiles = [{ ...profile('shop'), probeRegions: ['ap-southeast-1'] }];
    expect(
      () =>
        new TrafficManager(testApp({ nag: false }), 'TM', {
          profiles,
          homeRegion: 'us-east-1',
          probeRegions: ['us-east-1'],
        }),
    ).toThrow(
      `profile "shop" probeRegions: ap-southeast-1 is not one of the deployment's probe regions (us-east-1): nothing would probe from it`,
    );
  });

  it("fails when a profile's regionQuorum counts more regions than the deployment probes from", () => {
    const shop = profile('shop');
    const profiles = [
      { ...shop, probeRegions: undefined, monitorConfig: { ...shop.monitorConfig, regionQuorum: 3 } },
    ];
    expect(
      () =>
        new TrafficManager(testApp({ nag: false }), 'TM', {
          profiles,
          homeRegion: 'us-east-1',
          probeRegions: ['us-east-1', 'eu-west-1'],
        }),
    ).toThrow(
      `profile "shop" monitorConfig.regionQuorum: must be at most 2, the number of the deployment's probe regions (us-east-1, eu-west-1), got 3`,
    );
  });
});

describe('profiles written in the app, in the definitions format', () => {
  const shop = {
    name: 'shop',
    trafficRoutingMethod: 'Priority' as const,
    dnsConfig: { zoneName: 'example.com', hostedZoneId: ZONE_ID, relativeName: 'shop' },
    endpoints: [{ name: 'east', target: 'east.example.net', priority: 1 }],
  };

  it('are validated and normalized by the construct exactly as a definitions file is', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tm-props-'));
    try {
      await writeFile(join(dir, 'definitions.json'), JSON.stringify([shop]));
      const fromFile = await loadProfiles(join(dir, 'definitions.json'));
      const tm = new TrafficManager(testApp({ nag: false }), 'TM', {
        profiles: [shop],
        homeRegion: 'us-east-1',
        probeRegions: ['us-east-1'],
      });
      const fromProps = new TrafficManager(testApp({ nag: false }), 'TM', {
        profiles: fromFile,
        homeRegion: 'us-east-1',
        probeRegions: ['us-east-1'],
      });
      expect(Template.fromStack(tm.home).toJSON()).toEqual(Template.fromStack(fromProps.home).toJSON());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fail the synth with the house-style lines of tm validate', () => {
    const act = () =>
      new TrafficManager(testApp({ nag: false }), 'TM', {
        profiles: [{ ...shop, endpoints: [{ ...shop.endpoints[0]!, priority: 0 }] }],
        homeRegion: 'us-east-1',
        probeRegions: ['us-east-1'],
      });
    expect(act).toThrow(InvalidDefinitionsError);
    expect(act).toThrow(
      /in the profiles prop:\nprofiles\[0\] "shop" endpoints\[0\] "east"\.priority: .+, got 0$/,
    );
  });
});

describe('loadProfiles (cdk synth) prints the notices of a valid file', () => {
  it('as tm validate does, leaving out the hosted zone id the hostedZones prop may supply', async () => {
    // Prepare
    const dir = await mkdtemp(join(tmpdir(), 'tm-notices-'));
    const file = join(dir, 'azure.json');
    await writeFile(
      file,
      JSON.stringify([
        {
          name: 'shop',
          trafficRoutingMethod: 'performance',
          dnsConfig: { zoneName: 'example.com', relativeName: 'shop', fqdn: 'shop.trafficmanager.net' },
          endpoints: [{ name: 'east', target: 'east.example.net', endpointLocation: 'East US' }],
        },
      ]),
    );
    const written: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
      written.push(String(text));
      return true;
    });

    // Act
    let profiles;
    try {
      profiles = await loadProfiles(file);
    } finally {
      spy.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }

    // Assess
    expect(profiles[0]?.endpoints[0]?.endpointLocation).toBe('us-east-1');
    expect(written.join('')).toBe(
      'notice: profiles[0] "shop".dnsConfig.fqdn: is a field Azure sets (read-only or resource metadata) and is ignored, got "shop.trafficmanager.net"\n' +
        'notice: profiles[0] "shop" endpoints[0] "east".endpointLocation: is the Azure region East US (Virginia): latency is measured to the nearest AWS region, us-east-1, got "East US"\n',
    );
  });
});
