/**
 * Statuses assumed by hand, for `tm plan --status shop/east=Degraded`: a dry run of what the
 * evaluator would publish. External monitored endpoints not named have no results yet
 * (CheckingEndpoint). `Disabled` disables the endpoint (`shop/east=Disabled`) or the whole
 * profile (`shop=Disabled`) as the configuration would — "what if I disable it" — so the
 * status tables decide the rest: Disabled endpoints, Inactive endpoints of a disabled
 * profile, Stopped nested endpoints of a disabled child. Configuration still decides first
 * otherwise (an assumed status cannot make a disabled endpoint Online); nested endpoints
 * follow their child profile.
 */
import type { Profile } from '../profile/types.js';
import { buildReports } from './build-reports.js';
import { StatusOverrideError } from './errors.js';
import type { ProfileStatusReport } from './report.js';
import { EndpointMonitorStatus } from './vocabulary.js';

/** The endpoint monitor statuses an operator can cause: by monitoring results, or by disabling. */
export const SETTABLE_STATUSES: readonly EndpointMonitorStatus[] = [
  EndpointMonitorStatus.Online,
  EndpointMonitorStatus.Degraded,
  EndpointMonitorStatus.CheckingEndpoint,
  EndpointMonitorStatus.Disabled,
];

/** How the statuses that follow from configuration come about, for the error that refuses them. */
const HOW_TO_CAUSE: Partial<Record<string, string>> = {
  [EndpointMonitorStatus.Inactive]: 'the endpoints of a disabled profile are Inactive: use PROFILE=Disabled',
  [EndpointMonitorStatus.Stopped]:
    'a nested endpoint is Stopped when its child profile is disabled: use CHILD=Disabled',
  [EndpointMonitorStatus.Unmonitored]:
    'only `alwaysServe: true` in the definitions makes an endpoint Unmonitored',
};

/**
 * @param overrides by `profile/endpoint` (any settable status) or `profile` (Disabled only).
 * @throws StatusOverrideError listing every unknown profile or endpoint, nested endpoint
 *   given a monitoring status, and status that cannot be set by hand.
 */
export function statusesFromOverrides(
  profiles: readonly Profile[],
  overrides: ReadonlyMap<string, EndpointMonitorStatus>,
  now: number,
): ProfileStatusReport[] {
  checkOverrides(profiles, overrides);
  const disabled = (key: string) => overrides.get(key) === EndpointMonitorStatus.Disabled;
  const assumed = profiles.map((profile): Profile => ({
    ...profile,
    profileStatus: disabled(profile.name) ? 'Disabled' : profile.profileStatus,
    endpoints: profile.endpoints.map((endpoint) =>
      disabled(`${profile.name}/${endpoint.name}`) ? { ...endpoint, endpointStatus: 'Disabled' } : endpoint,
    ),
  }));
  return buildReports(assumed, new Map(), now, (profile, endpoint) => {
    const status = overrides.get(`${profile.name}/${endpoint.name}`);
    return {
      decision: {
        status: status ?? EndpointMonitorStatus.CheckingEndpoint,
        reason: status === undefined ? 'no results yet' : 'set by hand',
        stale: false,
      },
      since: now,
      targetKey: undefined,
      votes: [],
    };
  });
}

function checkOverrides(
  profiles: readonly Profile[],
  overrides: ReadonlyMap<string, EndpointMonitorStatus>,
): void {
  const problems: string[] = [];
  const defined = (names: readonly { name: string }[]) => names.map((n) => n.name).join(', ');
  for (const [key, status] of overrides) {
    const where = `--status ${key}=${status}`;
    const slash = key.indexOf('/');
    const profileName = slash < 0 ? key : key.slice(0, slash);
    const endpointName = slash < 0 ? undefined : key.slice(slash + 1);
    if (profileName === '' || endpointName === '' || endpointName?.includes('/') === true) {
      problems.push(`${where}: must name an endpoint as profile/endpoint (or a profile), got "${key}"`);
      continue;
    }
    if (!SETTABLE_STATUSES.includes(status)) {
      const how = HOW_TO_CAUSE[status];
      problems.push(
        `${where}: status must be one of ${SETTABLE_STATUSES.join(', ')}, got "${status}"${how === undefined ? '' : ` (${how})`}`,
      );
      continue;
    }
    const profile = profiles.find((p) => p.name === profileName);
    if (profile === undefined) {
      problems.push(`${where}: no profile "${profileName}" (defined: ${defined(profiles)})`);
      continue;
    }
    if (endpointName === undefined) {
      if (status !== EndpointMonitorStatus.Disabled)
        problems.push(`${where}: a whole profile can only be Disabled; name an endpoint as ${key}/ENDPOINT`);
      continue;
    }
    const endpoint = profile.endpoints.find((e) => e.name === endpointName);
    if (endpoint === undefined) {
      problems.push(
        `${where}: profile "${profileName}" has no endpoint "${endpointName}" (defined: ${defined(profile.endpoints)})`,
      );
    } else if (endpoint.type === 'nested' && status !== EndpointMonitorStatus.Disabled) {
      problems.push(
        `${where}: "${endpointName}" is a nested endpoint; its status follows child profile "${endpoint.targetProfile}" — set that profile's endpoints instead (or disable it: ${key}=Disabled)`,
      );
    }
  }
  if (problems.length > 0) throw new StatusOverrideError(problems);
}
