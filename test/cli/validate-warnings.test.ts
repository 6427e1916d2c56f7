/**
 * What `tm validate` and `tm plan` say about settings whose effect depends on the deployment or
 * on the routing method: a regionQuorum count with no probeRegions (the deployment's regions
 * are not known at validate time), and the failover figures of methods that never fail over.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmInProcess } from '../support/tm.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-validate-warnings-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const dnsConfig = (relativeName: string) => ({ zoneName: 'example.com', hostedZoneId: 'Z1', relativeName });

async function definitionsFile(name: string, profiles: unknown[]): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(profiles));
  return file;
}

describe('tm validate: regionQuorum without probeRegions', () => {
  it('exits 0 with a warning naming the profile, the field and the regions the deployment needs', async () => {
    // Prepare
    const file = await definitionsFile('quorum.json', [
      {
        name: 'shop',
        trafficRoutingMethod: 'Priority',
        dnsConfig: dnsConfig('shop'),
        monitorConfig: { regionQuorum: 5 },
        endpoints: [{ name: 'east', target: '192.0.2.1' }],
      },
    ]);

    // Act
    const { code, stderr } = await tmInProcess('validate', file);

    // Assess
    expect(code).toBe(0);
    expect(stderr).toBe(
      'warning: profiles[0] "shop".monitorConfig.regionQuorum: 5 needs the deployment to probe from at least 5 regions; ' +
        "without probeRegions the regions are the deployment's, unknown here: cdk synth and tm local refuse fewer\n",
    );
  });

  it.each([
    {
      name: 'no warning for a named quorum',
      monitorConfig: { regionQuorum: 'majority' },
      probeRegions: undefined,
    },
    {
      name: 'no warning when probeRegions is given (validate checks the count)',
      monitorConfig: { regionQuorum: 2 },
      probeRegions: ['us-east-1', 'eu-west-1'],
    },
  ])('$name', async ({ monitorConfig, probeRegions }) => {
    // Prepare
    const file = await definitionsFile('quorum-ok.json', [
      {
        name: 'shop',
        trafficRoutingMethod: 'Priority',
        dnsConfig: dnsConfig('shop'),
        monitorConfig,
        ...(probeRegions === undefined ? {} : { probeRegions }),
        endpoints: [{ name: 'east', target: '192.0.2.1' }],
      },
    ]);

    // Act
    const { code, stderr } = await tmInProcess('validate', file);

    // Assess
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});

describe('tm validate and tm plan: methods without failover', () => {
  it.each([
    {
      name: 'Geographic',
      profile: {
        name: 'geo',
        trafficRoutingMethod: 'Geographic',
        dnsConfig: dnsConfig('geo'),
        endpoints: [{ name: 'world', target: '192.0.2.1', geoMapping: ['WORLD'] }],
      },
    },
    {
      name: 'Subnet',
      profile: {
        name: 'net',
        trafficRoutingMethod: 'Subnet',
        dnsConfig: dnsConfig('net'),
        endpoints: [{ name: 'all', target: '192.0.2.1' }],
      },
    },
  ])('$name: "no failover", not a time users move away within', async ({ name, profile }) => {
    // Prepare
    const file = await definitionsFile(`${name}.json`, [profile]);

    // Act
    const validate = await tmInProcess('validate', file);
    const plan = await tmInProcess('plan', file);

    // Assess
    for (const { code, stdout } of [validate, plan]) {
      expect(code).toBe(0);
      expect(stdout).toContain(`  no failover (${name}): a Degraded endpoint keeps its answers\n`);
      expect(stdout).not.toContain('users move away within');
      expect(stdout).not.toContain('they come back within');
    }
  });
});

describe("tm validate: Route 53's default quotas", () => {
  // Static failover's own warning (health checks) is tested in test/cli/static-failover-output.test.ts.
  const weighted = (count: number, staticFailover = false) =>
    Array.from({ length: count }, (_, p) => ({
      name: `p${p}`,
      staticFailover,
      trafficRoutingMethod: 'Weighted',
      dnsConfig: dnsConfig(`p${p}`),
      endpoints: Array.from({ length: 200 }, (_, e) => ({
        name: `e${e}`,
        target: `e${e}.p${p}.example.net`,
      })),
    }));

  it('warns, naming the quota and the number needed, when a hosted zone needs more records than the default', async () => {
    // Prepare: 50 × 200 weighted records, plus the zone's SOA and NS, in one zone.
    const file = await definitionsFile('zone-quota.json', weighted(50));

    // Act
    const { code, stderr } = await tmInProcess('validate', file);

    // Assess
    expect(code).toBe(0);
    expect(stderr).toBe(
      'warning: profiles[0] "p0".dnsConfig.hostedZoneId: hosted zone Z1 (example.com): the profiles publish 10000 record sets, plus its SOA and NS: ' +
        'over Route 53\'s default quota of 10000 records per hosted zone; request an increase (Service Quotas, Route 53, "Records per hosted zone") before deploying\n',
    );
  }, 60_000);

  it("counts static failover's records: the switch and the structure under _static beside today's", async () => {
    // Prepare: 25 × 200 weighted records at _fast, 25 × 200 under _static and 25 × 2 switches.
    const file = await definitionsFile('zone-quota-static.json', weighted(25, true));

    // Act
    const { code, stderr } = await tmInProcess('validate', file);

    // Assess
    expect(code).toBe(0);
    expect(stderr).toContain(
      'warning: profiles[0] "p0".dnsConfig.hostedZoneId: hosted zone Z1 (example.com): the profiles publish 10050 record sets, plus its SOA and NS: ' +
        "over Route 53's default quota of 10000 records per hosted zone",
    );
  }, 60_000);

  it('says nothing when the zone fits the default quota', async () => {
    const file = await definitionsFile('zone-fits.json', weighted(49));
    const { code, stderr } = await tmInProcess('validate', file);
    expect(code).toBe(0);
    expect(stderr).toBe('');
  }, 60_000);
});
