/**
 * The README's failover table is computed, not typed: each row must be what `tm validate`
 * prints for that profile (the same module, the same AWS settings).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { figuresOf } from '../../infra/cli/figures.js';
import { demoDefinitions } from '../../infra/local/demo.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import type { Profile } from '../../shared/profile/types.js';

const README = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');

const minimal = { trafficRoutingMethod: 'Priority', endpoints: [{ name: 'a', target: '192.0.2.1' }] };
const rows: readonly { label: string; definition: unknown }[] = [
  { label: 'the demo (`npm start`)', definition: demoDefinitions(8080)[0] },
  {
    label: 'every default',
    definition: { ...minimal, name: 'defaults', dnsConfig: { zoneName: 'example.com', relativeName: 'd' } },
  },
  {
    label: 'fast: `intervalInSeconds: 10`',
    definition: {
      ...minimal,
      name: 'fast',
      dnsConfig: { zoneName: 'example.com', relativeName: 'f' },
      monitorConfig: { intervalInSeconds: 10 },
    },
  },
];

function parsed(definition: unknown): Profile {
  const result = parseDefinitionsOrThrow([definition]);
  const [profile] = result;
  if (profile === undefined) throw new Error('no profile');
  return profile;
}

function row(label: string, profile: Profile): string {
  const { monitorConfig: m, dnsConfig } = profile;
  const figures = figuresOf(profile);
  const settings = `${m.intervalInSeconds} s, ${m.timeoutInSeconds} s, ${m.toleratedNumberOfFailures}, ${dnsConfig.ttl} s`;
  return `| ${label} | ${settings} | ${figures.moveAway.totalSeconds} s | ${figures.comeBack.totalSeconds} s | ${figures.checksPerMinute} |`;
}

describe("the README's failover table", () => {
  it.each(rows)('has the figures tm validate computes for $label', ({ label, definition }) => {
    expect(README).toContain(`${row(label, parsed(definition))}\n`);
  });
});
