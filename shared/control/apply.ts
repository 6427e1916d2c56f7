/**
 * Runtime control (`tm endpoint disable|enable|override|clear`, `tm profile
 * disable|enable`) applied to the deployed definitions: the effective profiles every
 * reader of the table works from — the evaluator (statuses, records), the probe planner
 * (a disabled endpoint is not probed) and `tm status`. Pure: `now` decides which monitor
 * overrides are still in effect.
 */
import type { Endpoint, Profile } from '../profile/types.js';
import type { MonitorOverrideItem, RuntimeControls, StatusControlItem } from '../state/items.js';
import { laterStamp } from '../status/reenabled.js';

export const NO_CONTROLS: RuntimeControls = { statuses: [], overrides: [] };

/** True while an override is in effect: it ends at `until` exactly. */
export function isInEffect(override: Pick<MonitorOverrideItem, 'until'>, now: number): boolean {
  return now < override.until;
}

export function applyControls(
  profiles: readonly Profile[],
  controls: RuntimeControls,
  now: number,
): Profile[] {
  if (controls.statuses.length === 0 && controls.overrides.length === 0) return [...profiles];
  const statuses = new Map(controls.statuses.map((c) => [keyOf(c.profile, c.endpoint), c]));
  const overrides = new Map(
    controls.overrides.filter((o) => isInEffect(o, now)).map((o) => [keyOf(o.profile, o.endpoint), o]),
  );
  return profiles.map((profile) => {
    const own = statuses.get(keyOf(profile.name, undefined));
    const endpoints = profile.endpoints.map((endpoint) =>
      withEndpointControls(
        endpoint,
        statuses.get(keyOf(profile.name, endpoint.name)),
        overrides.get(keyOf(profile.name, endpoint.name)),
      ),
    );
    const status = runtimeStatusOf(own);
    // A runtime re-enable feeds the same mechanism as a deployed one (shared/status/reenabled.ts).
    const enabledAt = laterStamp(profile.enabledAt, own?.enabledAt);
    return {
      ...profile,
      endpoints,
      ...(status === undefined ? {} : { profileStatus: status.status, runtime: { status } }),
      ...(enabledAt === undefined ? {} : { enabledAt }),
    };
  });
}

function withEndpointControls(
  endpoint: Endpoint,
  control: StatusControlItem | undefined,
  override: MonitorOverrideItem | undefined,
): Endpoint {
  const status = runtimeStatusOf(control);
  const monitored = endpoint.type === 'external' && !endpoint.alwaysServe;
  const inEffect = monitored ? override : undefined;
  const enabledAt = laterStamp(endpoint.enabledAt, control?.enabledAt);
  const runtime = {
    ...(status === undefined ? {} : { status }),
    ...(inEffect === undefined ? {} : { override: inEffect }),
  };
  return {
    ...endpoint,
    ...(status === undefined ? {} : { endpointStatus: status.status }),
    ...(enabledAt === undefined ? {} : { enabledAt }),
    ...(Object.keys(runtime).length === 0 ? {} : { runtime }),
  };
}

function runtimeStatusOf(control: StatusControlItem | undefined) {
  if (control?.status === undefined) return undefined;
  return { status: control.status, set: control.set };
}

function keyOf(profile: string, endpoint: string | undefined): string {
  return `${profile}/${endpoint ?? ''}`;
}
