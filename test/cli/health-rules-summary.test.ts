/** `tm validate` and `tm plan` name the opt-in health settings a profile has in effect (and nothing for Azure's rule). */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmInProcess } from '../support/tm.js';

const zone = { zoneName: 'example.com', hostedZoneId: 'Z00000000000000000001' };
function profile(name: string, monitorConfig: Record<string, unknown>) {
  return {
    name,
    trafficRoutingMethod: 'Priority',
    dnsConfig: { ...zone, relativeName: name },
    monitorConfig,
    probeRegions: ['us-east-1', 'eu-west-1', 'ap-southeast-1'],
    endpoints: [{ name: 'east', target: '192.0.2.10' }],
  };
}
const DEFINITIONS = [
  profile('plain', {}),
  profile('careful', {
    requiredSuccessesToRecover: 3,
    maxLatencyMs: 500,
    regionQuorum: 'all',
    expectedBody: { regex: '^ok$', flags: 'i' },
  }),
];

let dir = '';
let file = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-health-'));
  file = join(dir, 'definitions.json');
  await writeFile(file, JSON.stringify(DEFINITIONS));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the settings in effect', () => {
  it('tm validate lists them after the check', async () => {
    // Act
    const result = await tmInProcess('validate', file);
    // Assess
    const lines = result.stdout.trimEnd().split('\n');
    expect(result.code).toBe(0);
    expect(lines[0]).toMatch(/ HTTP:80\/ every 30s {2}/);
    expect(lines[1]).toContain(
      ' HTTP:80/ every 30s (up again after 3 successes, slow above 500 ms, region quorum all, body matches /^ok$/i)  ',
    );
    // The time to come back counts the successes needed.
    const careful = result.stdout.split('\ncareful\n')[1]!;
    expect(careful).toMatch(/^ {2}they come back within 3 × 30 s interval \+ 10 s timeout/m);
  });

  it('tm plan lists them under the profile', async () => {
    // Act
    const result = await tmInProcess('plan', file);
    // Assess
    const blocks = result.stdout.split('\n\n');
    expect(result.code).toBe(0);
    expect(blocks[0]).not.toContain('health rules');
    expect(blocks[1]!.split('\n')[1]).toBe(
      '  health rules: up again after 3 successes, slow above 500 ms, region quorum all, body matches /^ok$/i',
    );
  });
});
