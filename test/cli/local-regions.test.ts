/** `tm local --regions`: a profile asking more of the regions than they give stops before anything starts, as `cdk synth` does. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmInProcess } from '../support/tm.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-local-regions-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** One profile `shop` with this monitorConfig; `lines` go at the profile's level (two spaces in). */
async function definitions(monitorConfig: string, ...lines: string[]): Promise<string> {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(
    file,
    [
      '- name: shop',
      '  trafficRoutingMethod: Priority',
      '  dnsConfig: { zoneName: example.com, relativeName: shop }',
      `  monitorConfig: ${monitorConfig}`,
      ...lines,
      '  endpoints:',
      '    - { name: east, target: 127.0.0.11, priority: 1 }',
      '',
    ].join('\n'),
  );
  return file;
}

describe('tm local --regions against the profiles', () => {
  it.each([
    {
      name: 'a regionQuorum count above the regions: exit 1 naming profile, field and rule',
      monitorConfig: '{ protocol: HTTP, path: /, regionQuorum: 3 }',
      lines: [],
      regions: 'us-east-1,eu-west-1',
      problem:
        'profile "shop" monitorConfig.regionQuorum: must be at most 2, the number of the probe regions of --regions (us-east-1, eu-west-1), got 3',
    },
    {
      name: 'a probeRegions entry that --regions does not name: exit 1 naming it',
      monitorConfig: '{ protocol: HTTP, path: / }',
      lines: ['  probeRegions: [us-east-1, ap-southeast-1]'],
      regions: 'us-east-1',
      problem:
        'profile "shop" probeRegions: ap-southeast-1 is not one of the probe regions of --regions (us-east-1): nothing would probe from it',
    },
  ])('$name, nothing started', async ({ monitorConfig, lines, regions, problem }) => {
    const file = await definitions(monitorConfig, ...lines);

    const { code, stdout, stderr } = await tmInProcess(
      'local',
      file,
      '--regions',
      regions,
      '--dns-port',
      '0',
    );

    expect(stderr.trimEnd().split('\n')).toEqual([`tm local: ${problem}`]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
  });
});
