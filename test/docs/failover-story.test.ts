/**
 * One failover-time story: `tm validate` / `tm plan` (figures), `tm history` and the status page
 * (a transition's timing) and the docs all use the same formula with the same parts —
 * `(tolerated + 1) × interval + timeout + publish + TTL` — and say which of those parts a
 * measured detect → publish time covers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { figuresOf } from '../../infra/cli/figures.js';
import { EVALUATOR_STREAM_SETTINGS } from '../../functions/evaluator/stream-settings.js';
import { expectedDuration } from '../../shared/evaluation/timing.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';

const read = (file: string) => readFileSync(join(import.meta.dirname, '..', '..', file), 'utf8');
const defaults = parseDefinitionsOrThrow([
  {
    name: 'defaults',
    trafficRoutingMethod: 'Priority',
    dnsConfig: { zoneName: 'example.com', relativeName: 'd' },
    endpoints: [{ name: 'a', target: '192.0.2.1' }],
  },
])[0]!;
const figures = figuresOf(defaults);
const aws = { batchingWindowSeconds: EVALUATOR_STREAM_SETTINGS.maxBatchingWindowMs / 1000 };

describe('one failover-time story', () => {
  it.each([
    { direction: 'failing' as const, shown: figures.moveAway },
    { direction: 'recovering' as const, shown: figures.comeBack },
  ])('tm history ($direction) shows the formula tm validate prints', ({ direction, shown }) => {
    const expected = expectedDuration(defaults.monitorConfig, defaults.dnsConfig.ttl, direction, aws);
    expect(expected.formula).toBe(shown.formula);
  });

  it('the measured span (first failing check → in sync) is compared with the formula less its first interval and its TTL', () => {
    const { moveAway } = figures;
    const expected = expectedDuration(defaults.monitorConfig, defaults.dnsConfig.ttl, 'failing', aws);
    expect(expected.ms).toBe((moveAway.totalSeconds - moveAway.intervalSeconds - moveAway.ttlSeconds) * 1000);
  });

  it.each(['README.md', 'docs/definitions.md', 'docs/monitoring.md', 'docs/cli.md'])(
    '%s gives the default move-away time tm validate prints, and no other',
    (file) => {
      const text = read(file);
      expect(text.includes(`${figures.moveAway.totalSeconds} s`), 'the default move-away time').toBe(true);
      expect(text.match(/\b160 s\b/)?.[0]).toBeUndefined();
    },
  );
});
