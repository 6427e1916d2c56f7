/**
 * Statuses set by hand, for `tm plan --status shop/east=Degraded`: a dry run of what the
 * evaluator would publish. External monitored endpoints not named have no results yet
 * (CheckingEndpoint); configuration still decides first (an override cannot make a
 * disabled endpoint Online); nested endpoints follow their child profile.
 */
import type { Profile } from '../profile/types.js';
import { buildReports } from './build-reports.js';
import { StatusOverrideError } from './errors.js';
import type { ProfileStatusReport } from './report.js';
import { EndpointMonitorStatus } from './vocabulary.js';

/** The statuses monitoring can produce for an external endpoint; the others follow from configuration. */
export const SETTABLE_STATUSES: readonly EndpointMonitorStatus[] = [
  EndpointMonitorStatus.Online,
  EndpointMonitorStatus.Degraded,
  EndpointMonitorStatus.CheckingEndpoint,
];

/**
 * @param overrides by `profile/endpoint`.
 * @throws StatusOverrideError listing every unknown profile or endpoint, nested endpoint and
 *   status that cannot be set by hand.
 */
export function statusesFromOverrides(
  profiles: readonly Profile[],
  overrides: ReadonlyMap<string, EndpointMonitorStatus>,
  now: number,
): ProfileStatusReport[] {
  checkOverrides(profiles, overrides);
  return buildReports(profiles, new Map(), now, (profile, endpoint) => {
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
  for (const [key, status] of overrides) {
    const where = `--status ${key}=${status}`;
    if (!SETTABLE_STATUSES.includes(status)) {
      problems.push(`${where}: status must be one of ${SETTABLE_STATUSES.join(', ')}, got "${status}"`);
    }
    const slash = key.indexOf('/');
    if (slash <= 0 || slash === key.length - 1) {
      problems.push(`${where}: must name an endpoint as profile/endpoint, got "${key}"`);
      continue;
    }
    const profileName = key.slice(0, slash);
    const endpointName = key.slice(slash + 1);
    const profile = profiles.find((p) => p.name === profileName);
    if (profile === undefined) {
      problems.push(
        `${where}: no profile "${profileName}" (defined: ${profiles.map((p) => p.name).join(', ')})`,
      );
      continue;
    }
    const endpoint = profile.endpoints.find((e) => e.name === endpointName);
    if (endpoint === undefined) {
      problems.push(
        `${where}: profile "${profileName}" has no endpoint "${endpointName}" (defined: ${profile.endpoints.map((e) => e.name).join(', ')})`,
      );
    } else if (endpoint.type === 'nested') {
      problems.push(
        `${where}: "${endpointName}" is a nested endpoint; its status follows child profile "${endpoint.targetProfile}" — set that profile's endpoints instead`,
      );
    }
  }
  if (problems.length > 0) throw new StatusOverrideError(problems);
}
