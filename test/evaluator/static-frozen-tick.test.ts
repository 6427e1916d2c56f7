/**
 * The evaluator tick says when the static path is frozen: a silent probe region's health check
 * keeps its last vote, so with a silent majority under Azure's rule the data plane can no
 * longer fail over or back. The tick emits `StaticFailoverFrozen` (alarmed) every minute while
 * some profile has static failover, and names the profiles. DynamoDB Local, the production store
 * and tick, the local Route 53 and CloudWatch.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EvaluatorMetrics } from '../../functions/evaluator/ports.js';
import { readDeployedConfig } from '../../functions/shared/config-reader.js';
import { runControl } from '../../functions/shared/control-command.js';
import { MetricName } from '../../shared/contracts/metrics.js';
import { definition, startEvaluatorHarness, type EvaluatorHarness } from './harness.js';

const MINUTE = 60_000;
const EAST = 'us-east-1';

const shop = (staticFailover: boolean) =>
  definition({
    name: 'shop',
    staticFailover,
    endpoints: [
      { name: 'east', target: '192.0.2.10' },
      { name: 'west', target: '192.0.2.20' },
    ],
  });

let h: EvaluatorHarness;
beforeEach(async () => {
  h = await startEvaluatorHarness({ staticFailover: { deployment: 'tm-frozen' } });
});
afterEach(async () => {
  await h.stop();
});

/** One tick, recording what it emitted under `StaticFailoverFrozen`. */
async function tick() {
  const frozen: number[] = [];
  const metrics: EvaluatorMetrics = {
    count: (name, value) => void (name === MetricName.staticFailoverFrozen && frozen.push(value)),
    duration: () => undefined,
    flush: () => undefined,
  };
  const outcome = await h.tick(metrics);
  return { outcome, frozen };
}

/** All three regions up and fresh. */
async function allFresh(profile: ReturnType<typeof shop>) {
  await h.define([profile]);
  await h.heartbeat();
  await h.allUp();
  await h.settle();
}

describe('StaticFailoverFrozen', () => {
  it('0 while every region is fresh; 1, naming the shop, once two of three fall silent', async () => {
    await allFresh(shop(true));
    const before = await tick();
    h.clock.now += 10 * MINUTE;
    await h.heartbeat([EAST]);

    const after = await tick();

    expect(before.outcome.staticFailoverFrozen).toEqual([]);
    expect(before.frozen).toEqual([0]);
    expect(after.outcome.stale).toHaveLength(2);
    expect(after.outcome.staticFailoverFrozen).toEqual(['shop']);
    expect(after.frozen).toEqual([1]);
  });

  it('a profile disabled at runtime (`tm profile disable`) has no static path to freeze: 0', async () => {
    await allFresh(shop(true));
    h.clock.now += 10 * MINUTE;
    await h.heartbeat([EAST]);
    const config = await readDeployedConfig(h.dynamodb, h.tableName);
    await runControl(
      h.dynamodb,
      h.tableName,
      config.profiles,
      { kind: 'disable', profile: 'shop' },
      {
        by: 'alice',
        reason: 'maintenance',
      },
    );

    const { outcome, frozen } = await tick();

    expect(outcome.stale).toHaveLength(2);
    expect(outcome.staticFailoverFrozen).toEqual([]);
    expect(frozen).toEqual([0]);
  });

  it('no profile with static failover: the metric is not emitted', async () => {
    await allFresh(shop(false));
    h.clock.now += 10 * MINUTE;
    await h.heartbeat([EAST]);

    const { outcome, frozen } = await tick();

    expect(outcome.stale).toHaveLength(2);
    expect(outcome.staticFailoverFrozen).toEqual([]);
    expect(frozen).toEqual([]);
  });
});
