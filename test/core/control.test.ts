/**
 * Runtime control in the pure core: what each `tm endpoint|profile` command writes
 * (planControl), how the controls change the effective profiles (applyControls), and the
 * statuses that follow (SPEC §4: Disabled is not monitored and not served; re-enabled is
 * CheckingEndpoint until checks made after that moment decide; an override holds until it
 * expires).
 */
import { describe, expect, it } from 'vitest';
import { applyControls, NO_CONTROLS } from '../../shared/control/apply.js';
import {
  ControlError,
  InapplicableControlError,
  UnknownControlTargetError,
} from '../../shared/control/errors.js';
import { planControl, type ControlAction } from '../../shared/control/operations.js';
import type { MonitorOverrideItem, RuntimeControls, StatusControlItem } from '../../shared/state/items.js';
import { evaluateProfiles } from '../../shared/status/evaluate.js';
import { external, heartbeats, nested, profile, REGIONS, verdict } from './evaluate-fixtures.js';

const NOW = Date.parse('2026-05-01T10:00:00Z');
const MINUTE = 60_000;
const shop = profile('shop', [
  external('east'),
  external('west'),
  external('off', { endpointStatus: 'Disabled' }),
  external('always', { alwaysServe: true }),
  nested('eu', 'shop-eu'),
]);
const shopEu = profile('shop-eu', [external('fra')]);
const profiles = [shop, shopEu];
const alice = { by: 'alice', at: NOW - MINUTE, reason: 'kernel upgrade' };

const disabled = (endpoint?: string, extra: Partial<StatusControlItem> = {}): StatusControlItem => ({
  profile: 'shop',
  ...(endpoint === undefined ? {} : { endpoint }),
  status: 'Disabled',
  set: alice,
  ...extra,
});
const override = (fields: Partial<MonitorOverrideItem> = {}): MonitorOverrideItem => ({
  profile: 'shop',
  endpoint: 'east',
  status: 'Degraded',
  until: NOW + 30 * MINUTE,
  set: { ...alice, reason: 'drain' },
  ...fields,
});
const controls = (fields: Partial<RuntimeControls>): RuntimeControls => ({ ...NO_CONTROLS, ...fields });

/** Statuses after applying `c` at `now`, every region having said "up" a minute before. */
function statusesWith(c: RuntimeControls, now = NOW) {
  const effective = applyControls(profiles, c, now);
  const verdicts = effective.flatMap((p) =>
    p.endpoints.flatMap((e) =>
      e.type === 'external' && !e.alwaysServe
        ? REGIONS.map((r) => verdict(p, e.name, r, 'up', NOW - MINUTE))
        : [],
    ),
  );
  const reports = evaluateProfiles({
    profiles: effective,
    verdicts,
    heartbeats: heartbeats(now),
    previous: new Map(),
    defaultProbeRegions: [],
    now,
  });
  const of = (p: string, e: string) =>
    reports.find((r) => r.profile === p)?.endpoints.find((x) => x.endpoint === e);
  return { reports, of };
}

describe('applyControls + the status tables', () => {
  it('no controls: the deployed definitions as they are', () => {
    expect(applyControls(profiles, NO_CONTROLS, NOW)).toEqual(profiles);
  });

  it('an endpoint disabled at runtime is Disabled, with who and why in the reason', () => {
    const { of } = statusesWith(controls({ statuses: [disabled('east')] }));
    expect(of('shop', 'east')).toMatchObject({
      status: 'Disabled',
      reason:
        'endpoint disabled at runtime by alice at 2026-05-01T09:59:00.000Z: "kernel upgrade": not monitored',
      votes: [],
    });
    expect(of('shop', 'west')?.status).toBe('Online');
  });

  it('a profile disabled at runtime: Disabled, its endpoints Inactive, a parent nesting it sees Stopped', () => {
    const c = controls({ statuses: [{ profile: 'shop-eu', status: 'Disabled', set: alice }] });
    const { reports, of } = statusesWith(c);
    expect(reports.find((r) => r.profile === 'shop-eu')?.status).toBe('Disabled');
    expect(of('shop-eu', 'fra')?.reason).toBe(
      'profile disabled at runtime by alice at 2026-05-01T09:59:00.000Z: "kernel upgrade": not monitored',
    );
    expect(of('shop', 'eu')?.status).toBe('Stopped');
  });

  it('enabled again at runtime: CheckingEndpoint while the only verdicts are from before that moment', () => {
    const c = controls({ statuses: [{ profile: 'shop', endpoint: 'east', set: alice, enabledAt: NOW - 1 }] });
    const { of } = statusesWith(c);
    expect(of('shop', 'east')?.status).toBe('CheckingEndpoint');
    expect(of('shop', 'west')?.status).toBe('Online');
  });

  it('a runtime Enabled wins over the definitions: the deployed-Disabled endpoint is monitored again', () => {
    const c = controls({
      statuses: [
        { profile: 'shop', endpoint: 'off', status: 'Enabled', set: alice, enabledAt: NOW - 2 * MINUTE },
      ],
    });
    expect(statusesWith(c).of('shop', 'off')?.status).toBe('Online');
    expect(applyControls(profiles, c, NOW)[0]?.endpoints[2]).toMatchObject({
      endpointStatus: 'Enabled',
      enabledAt: NOW - 2 * MINUTE,
      runtime: { status: { status: 'Enabled', set: alice } },
    });
  });

  it('the later of the deployed and the runtime re-enable counts', () => {
    const deployed = [{ ...shop, endpoints: shop.endpoints.map((e) => ({ ...e, enabledAt: NOW - 5 })) }];
    const c = controls({ statuses: [{ profile: 'shop', endpoint: 'east', set: alice, enabledAt: NOW - 9 }] });
    expect(applyControls(deployed, c, NOW)[0]?.endpoints[0]?.enabledAt).toBe(NOW - 5);
  });

  it.each([
    {
      name: 'Degraded while in effect: the endpoint is Degraded, the checks still show',
      fields: {},
      at: NOW,
      expected: 'Degraded',
    },
    {
      name: 'Online while in effect, whatever the checks say',
      fields: { status: 'Online' as const },
      at: NOW,
      expected: 'Online',
    },
    {
      name: 'expired at `until` exactly: the checks decide again',
      fields: {},
      at: NOW + 30 * MINUTE,
      expected: 'Online',
    },
  ])('a monitor override: $name', ({ fields, at, expected }) => {
    const { of } = statusesWith(controls({ overrides: [override(fields)] }), at);
    expect(of('shop', 'east')?.status).toBe(expected);
    expect(of('shop', 'east')?.votes).toHaveLength(3);
  });

  it('an override says who, why and until when', () => {
    const { of } = statusesWith(controls({ overrides: [override()] }));
    expect(of('shop', 'east')?.reason).toBe(
      'Degraded set by hand until 2026-05-01T10:30:00.000Z, by alice at 2026-05-01T09:59:00.000Z: "drain"',
    );
  });

  it.each([
    { name: 'a disabled endpoint stays Disabled', endpoint: 'off', expected: 'Disabled' },
    { name: 'an always-serve endpoint stays Unmonitored', endpoint: 'always', expected: 'Unmonitored' },
  ])('configuration decides before an override: $name', ({ endpoint, expected }) => {
    const { of } = statusesWith(controls({ overrides: [override({ endpoint })] }));
    expect(of('shop', endpoint)?.status).toBe(expected);
  });
});

describe('planControl (what each command writes)', () => {
  const caller = { by: 'bob', reason: 'patching' };
  const plan = (action: ControlAction, c: RuntimeControls = NO_CONTROLS) =>
    planControl(profiles, c, action, caller, NOW);
  const set = { by: 'bob', at: NOW, reason: 'patching' };

  it.each<{ name: string; action: ControlAction; c?: RuntimeControls; expected: object; summary: string }>([
    {
      name: 'disable an enabled endpoint: a runtime Disabled',
      action: { kind: 'disable', profile: 'shop', endpoint: 'east' },
      expected: { status: { profile: 'shop', endpoint: 'east', status: 'Disabled', set } },
      summary: 'shop/east disabled: not probed, not in DNS answers',
    },
    {
      name: 'disable keeps the last runtime re-enable stamp',
      action: { kind: 'disable', profile: 'shop', endpoint: 'east' },
      c: controls({ statuses: [{ profile: 'shop', endpoint: 'east', set: alice, enabledAt: 7 }] }),
      expected: { status: { profile: 'shop', endpoint: 'east', status: 'Disabled', set, enabledAt: 7 } },
      summary: 'shop/east disabled: not probed, not in DNS answers',
    },
    {
      name: 'disable a profile',
      action: { kind: 'disable', profile: 'shop' },
      expected: { status: { profile: 'shop', status: 'Disabled', set } },
      summary: 'profile shop disabled: not probed, not in DNS answers',
    },
    {
      name: 'enable a runtime-disabled endpoint: the definitions decide again, stamped now',
      action: { kind: 'enable', profile: 'shop', endpoint: 'east' },
      c: controls({ statuses: [disabled('east')] }),
      expected: { status: { profile: 'shop', endpoint: 'east', set, enabledAt: NOW } },
      summary: 'shop/east enabled: CheckingEndpoint until checks made from now on decide',
    },
    {
      name: 'enable an endpoint the definitions disable: a runtime Enabled, stamped now',
      action: { kind: 'enable', profile: 'shop', endpoint: 'off' },
      expected: { status: { profile: 'shop', endpoint: 'off', status: 'Enabled', set, enabledAt: NOW } },
      summary: 'shop/off enabled: CheckingEndpoint until checks made from now on decide',
    },
    {
      name: 'override: the status until now + for',
      action: { kind: 'override', profile: 'shop', endpoint: 'west', status: 'Degraded', forMs: 30 * MINUTE },
      expected: {
        override: { profile: 'shop', endpoint: 'west', status: 'Degraded', until: NOW + 30 * MINUTE, set },
      },
      summary:
        'shop/west Degraded set by hand until 2026-05-01T10:30:00.000Z, by bob at 2026-05-01T10:00:00.000Z: "patching"',
    },
    {
      name: 'clear an override and a runtime Disabled: enabled again, stamped now',
      action: { kind: 'clear', profile: 'shop', endpoint: 'east' },
      c: controls({ statuses: [disabled('east')], overrides: [override()] }),
      expected: { override: null, status: { profile: 'shop', endpoint: 'east', set, enabledAt: NOW } },
      summary:
        'shop/east: runtime control cleared; the definitions decide again (Enabled, CheckingEndpoint until checks made from now on decide)',
    },
    {
      name: 'clear an override only',
      action: { kind: 'clear', profile: 'shop', endpoint: 'east' },
      c: controls({ overrides: [override()] }),
      expected: { override: null },
      summary: 'shop/east: runtime control cleared; the definitions decide again (Enabled)',
    },
    {
      name: 'clear a runtime Enabled of a deployed-Disabled endpoint: Disabled again, the old stamp kept',
      action: { kind: 'clear', profile: 'shop', endpoint: 'off' },
      c: controls({
        statuses: [{ profile: 'shop', endpoint: 'off', status: 'Enabled', set: alice, enabledAt: 7 }],
      }),
      expected: { status: { profile: 'shop', endpoint: 'off', set, enabledAt: 7 } },
      summary: 'shop/off: runtime control cleared; the definitions decide again (Disabled)',
    },
    {
      name: 'clear a runtime Disabled never enabled before at runtime of a deployed-Disabled endpoint: deleted',
      action: { kind: 'clear', profile: 'shop', endpoint: 'off' },
      c: controls({ statuses: [disabled('off')] }),
      expected: { status: null },
      summary: 'shop/off: runtime control cleared; the definitions decide again (Disabled)',
    },
  ])('$name', ({ action, c, expected, summary }) => {
    const result = plan(action, c);
    expect(result).toEqual({ ...expected, summary });
  });

  it.each<{ name: string; action: ControlAction; c?: RuntimeControls; summary: string }>([
    {
      name: 'disable what is disabled at runtime',
      action: { kind: 'disable', profile: 'shop', endpoint: 'east' },
      c: controls({ statuses: [disabled('east')] }),
      summary:
        'shop/east is already disabled at runtime by alice at 2026-05-01T09:59:00.000Z: "kernel upgrade"',
    },
    {
      name: 'disable what the definitions disable',
      action: { kind: 'disable', profile: 'shop', endpoint: 'off' },
      summary: 'shop/off is already disabled in the definitions',
    },
    {
      name: 'enable what is enabled (re-enabling would throw its checks away)',
      action: { kind: 'enable', profile: 'shop', endpoint: 'east' },
      summary: 'shop/east is already enabled in the definitions',
    },
    {
      name: 'clear with nothing to clear',
      action: { kind: 'clear', profile: 'shop', endpoint: 'east' },
      summary: 'shop/east has no runtime control to clear',
    },
  ])('asking for what already holds writes nothing: $name', ({ action, c, summary }) => {
    expect(plan(action, c)).toEqual({ summary });
  });

  it.each<{ name: string; action: ControlAction; error: typeof ControlError; message: string }>([
    {
      name: 'an unknown profile',
      action: { kind: 'disable', profile: 'nope' },
      error: UnknownControlTargetError,
      message: 'no profile "nope" is deployed (deployed: shop, shop-eu)',
    },
    {
      name: 'an unknown endpoint',
      action: { kind: 'disable', profile: 'shop', endpoint: 'north' },
      error: UnknownControlTargetError,
      message: 'profile "shop" has no endpoint "north" (endpoints: east, west, off, always, eu)',
    },
    {
      name: 'an override of a nested endpoint',
      action: { kind: 'override', profile: 'shop', endpoint: 'eu', status: 'Online', forMs: MINUTE },
      error: InapplicableControlError,
      message:
        'shop/eu is a nested endpoint: its status follows child profile "shop-eu"; override that profile\'s endpoints instead',
    },
    {
      name: 'an override of an always-serve endpoint',
      action: { kind: 'override', profile: 'shop', endpoint: 'always', status: 'Online', forMs: MINUTE },
      error: InapplicableControlError,
      message: 'shop/always is always served (alwaysServe): it has no monitor status to override',
    },
  ])('refuses $name', ({ action, error, message }) => {
    expect(() => plan(action)).toThrow(error);
    expect(() => plan(action)).toThrow(message);
  });
});
