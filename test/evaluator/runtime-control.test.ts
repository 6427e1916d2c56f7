/**
 * Runtime control through the real stream: a CONTROL item written the way `tm endpoint …`
 * writes it reaches the evaluator, which publishes the change and records it; an expired
 * override is deleted by the tick, and the delete re-evaluates the profile.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runControl } from '../../functions/shared/control-command.js';
import { readControls } from '../../functions/shared/control-store.js';
import { readDeployedConfig } from '../../functions/shared/config-reader.js';
import type { ControlAction } from '../../shared/control/operations.js';
import { definition, startEvaluatorHarness, type EvaluatorHarness } from './harness.js';
import { until } from '../support/eventually.js';

const MINUTE = 60_000;
const app = (ttl = 30) =>
  definition({
    name: 'app',
    dnsConfig: { ttl },
    endpoints: [
      { name: 'primary', target: '192.0.2.10' },
      { name: 'secondary', target: '192.0.2.20' },
    ],
  });
let h: EvaluatorHarness;

beforeEach(async () => {
  h = await startEvaluatorHarness();
  await h.define([app()]);
  // define drains the stream, but DynamoDB Local can show a write's record a poll late: wait for
  // the evaluation of the definitions itself (-→CheckingEndpoint), so the verdicts below come after it.
  await until(
    async () => (await h.deps.store.loadStatuses()).has('app'),
    10_000,
    () => 'no status for app after its definitions',
  );
  await h.heartbeat();
  await h.allUp();
  await h.settle();
});
afterEach(async () => {
  await h.stop();
});

/** What the CLI does: read the deployed config, then plan and commit on the control version. */
async function control(action: ControlAction, reason = 'maintenance') {
  const config = await readDeployedConfig(h.dynamodb, h.tableName);
  await runControl(
    h.dynamodb,
    h.tableName,
    config.profiles,
    action,
    { by: 'alice', reason },
    () => h.clock.now,
  );
  await h.settle();
}

const statusOf = async (endpoint: string) =>
  (await h.deps.store.loadStatuses()).get('app')?.report.endpoints.find((e) => e.endpoint === endpoint);
const transitionsOf = (endpoint: string) =>
  h.events.filter((e) => e.endpoint === endpoint).map((e) => `${e.from ?? '-'}→${e.to}`);

describe('runtime control through the stream', () => {
  it('disable: the next endpoint answers and the transition is recorded with who and why', async () => {
    expect(h.values('app.example.com')).toEqual(['192.0.2.10']);

    const setAt = new Date(h.clock.now).toISOString();
    await control({ kind: 'disable', profile: 'app', endpoint: 'primary' });

    expect(h.values('app.example.com')).toEqual(['192.0.2.20']);
    expect(await statusOf('primary')).toMatchObject({ status: 'Disabled' });
    const last = h.events.filter((e) => e.endpoint === 'primary').at(-1);
    expect(last).toMatchObject({
      from: 'Online',
      to: 'Disabled',
      reason: `endpoint disabled at runtime by alice at ${setAt}: "maintenance": not monitored`,
    });
  });

  it('enable: CheckingEndpoint (served again) until a check made after that moment decides, then Online', async () => {
    await control({ kind: 'disable', profile: 'app', endpoint: 'primary' });
    h.clock.now += MINUTE;

    await control({ kind: 'enable', profile: 'app', endpoint: 'primary' });
    expect(await statusOf('primary')).toMatchObject({ status: 'CheckingEndpoint' });
    expect(h.values('app.example.com')).toEqual(['192.0.2.10']);

    h.clock.now += 1;
    await h.verdict('app', 'primary', 'up');
    await h.settle();
    expect(await statusOf('primary')).toMatchObject({ status: 'Online' });
    expect(transitionsOf('primary')).toEqual([
      '-→CheckingEndpoint',
      'CheckingEndpoint→Online',
      'Online→Disabled',
      'Disabled→CheckingEndpoint',
      'CheckingEndpoint→Online',
    ]);
  });

  it('a later deploy of the same definitions does not undo a runtime disable', async () => {
    await control({ kind: 'disable', profile: 'app', endpoint: 'primary' });
    await h.define([app(60)]);
    expect(h.records('app.example.com')).toMatchObject([{ ttl: 60, values: ['192.0.2.20'] }]);
  });

  it('override Degraded for 30m: the next endpoint answers; the tick deletes it once expired and the checks decide again', async () => {
    await control({
      kind: 'override',
      profile: 'app',
      endpoint: 'primary',
      status: 'Degraded',
      forMs: 30 * MINUTE,
    });
    expect(h.values('app.example.com')).toEqual(['192.0.2.20']);

    h.clock.now += 29 * MINUTE;
    expect((await h.tick()).expiredOverrides).toEqual([]);
    await h.settle();
    expect(h.values('app.example.com')).toEqual(['192.0.2.20']);

    h.clock.now += MINUTE;
    await h.heartbeat();
    expect((await h.tick()).expiredOverrides).toEqual(['app/primary']);
    await h.settle();
    expect(h.values('app.example.com')).toEqual(['192.0.2.10']);
    expect((await readControls(h.dynamodb, h.tableName)).overrides).toEqual([]);
    expect(transitionsOf('primary').slice(-2)).toEqual(['Online→Degraded', 'Degraded→Online']);
  });

  it('clear removes an override at once', async () => {
    await control({
      kind: 'override',
      profile: 'app',
      endpoint: 'primary',
      status: 'Degraded',
      forMs: 30 * MINUTE,
    });
    await control({ kind: 'clear', profile: 'app', endpoint: 'primary' });
    expect(h.values('app.example.com')).toEqual(['192.0.2.10']);
  });

  it('profile disable: the name answers nothing (NXDOMAIN); enable brings it back', async () => {
    await control({ kind: 'disable', profile: 'app' });
    expect(h.records('app.example.com')).toEqual([]);
    await control({ kind: 'enable', profile: 'app' });
    expect(h.values('app.example.com')).toEqual(['192.0.2.10']);
  });
});
