/**
 * Nested profiles (SPEC §6): a nested endpoint's status is its child profile's aggregate
 * status propagated upward; the parent never probes the child's endpoints.
 */
import type { NestedEndpoint, Profile } from '../profile/types.js';
import type { EndpointStatusDecision } from './endpoint-status.js';
import { NestingCycleError } from './errors.js';
import type { ProfileStatusReport } from './report.js';
import { EndpointMonitorStatus, ProfileMonitorStatus } from './vocabulary.js';

/**
 * Children count as "Online" when Online or Unmonitored: an always-serve child endpoint is
 * served by the child profile just like an Online one (docs/adr/0003-statuses-and-staleness.md).
 */
const ONLINE: ReadonlySet<EndpointMonitorStatus> = new Set([
  EndpointMonitorStatus.Online,
  EndpointMonitorStatus.Unmonitored,
]);
const ONLINE_OR_CHECKING: ReadonlySet<EndpointMonitorStatus> = new Set([
  ...ONLINE,
  EndpointMonitorStatus.CheckingEndpoint,
]);

/**
 * - child profile Disabled or Inactive → Stopped;
 * - else Online if at least `minChildEndpoints` children are Online (and, when set, at least
 *   `minChildEndpointsIPv4` IPv4 and `minChildEndpointsIPv6` IPv6 ones — every threshold must hold);
 * - else CheckingEndpoint if Online + CheckingEndpoint children reach the thresholds;
 * - else Degraded.
 * IPv4/IPv6 children are the child's external endpoints by `targetKind`; a grandchild
 * (nested) endpoint counts toward `minChildEndpoints` only.
 */
export function nestedEndpointStatus(
  endpoint: NestedEndpoint,
  child: Profile | undefined,
  childReport: ProfileStatusReport | undefined,
): EndpointStatusDecision {
  const name = `child profile "${endpoint.targetProfile}"`;
  if (child === undefined || childReport === undefined) {
    return { status: EndpointMonitorStatus.Stopped, reason: `${name} is not defined`, stale: false };
  }
  const stale = childReport.stale;
  if (
    childReport.status === ProfileMonitorStatus.Disabled ||
    childReport.status === ProfileMonitorStatus.Inactive
  ) {
    return { status: EndpointMonitorStatus.Stopped, reason: `${name} is ${childReport.status}`, stale };
  }
  const statusOf = new Map(childReport.endpoints.map((e) => [e.endpoint, e.status]));
  const children = child.endpoints.map((e) => ({
    status: statusOf.get(e.name) ?? EndpointMonitorStatus.CheckingEndpoint,
    family: e.type === 'external' ? e.targetKind : undefined,
  }));
  const count = (level: ReadonlySet<EndpointMonitorStatus>) => {
    const counted = children.filter((c) => level.has(c.status));
    return {
      all: counted.length,
      ipv4: counted.filter((c) => c.family === 'ipv4').length,
      ipv6: counted.filter((c) => c.family === 'ipv6').length,
    };
  };
  const reaches = (n: ReturnType<typeof count>) =>
    n.all >= endpoint.minChildEndpoints &&
    (endpoint.minChildEndpointsIPv4 === undefined || n.ipv4 >= endpoint.minChildEndpointsIPv4) &&
    (endpoint.minChildEndpointsIPv6 === undefined || n.ipv6 >= endpoint.minChildEndpointsIPv6);
  const online = count(ONLINE);
  const onlineOrChecking = count(ONLINE_OR_CHECKING);
  const [status, counted, what] = reaches(online)
    ? ([EndpointMonitorStatus.Online, online, 'Online'] as const)
    : reaches(onlineOrChecking)
      ? ([EndpointMonitorStatus.CheckingEndpoint, onlineOrChecking, 'Online or CheckingEndpoint'] as const)
      : ([EndpointMonitorStatus.Degraded, online, 'Online'] as const);
  return { status, reason: `${name}: ${describe(endpoint, counted, what)}`, stale };
}

function describe(
  endpoint: NestedEndpoint,
  n: { all: number; ipv4: number; ipv6: number },
  what: string,
): string {
  const parts = [`${n.all} ${what} (min ${endpoint.minChildEndpoints})`];
  if (endpoint.minChildEndpointsIPv4 !== undefined)
    parts.push(`${n.ipv4} IPv4 (min ${endpoint.minChildEndpointsIPv4})`);
  if (endpoint.minChildEndpointsIPv6 !== undefined)
    parts.push(`${n.ipv6} IPv6 (min ${endpoint.minChildEndpointsIPv6})`);
  return parts.join(', ');
}

/**
 * Profiles ordered children before parents, so each nested endpoint finds its child's
 * status already computed. Order among independent profiles follows the input.
 * Children not in `profiles` are ignored here (their nested endpoints become Stopped).
 */
export function childrenFirst(profiles: readonly Profile[]): Profile[] {
  const byName = new Map(profiles.map((p) => [p.name, p]));
  const ordered: Profile[] = [];
  const done = new Set<string>();
  const visit = (profile: Profile, path: readonly string[]): void => {
    if (done.has(profile.name)) return;
    if (path.includes(profile.name)) throw new NestingCycleError([...path, profile.name]);
    for (const endpoint of profile.endpoints) {
      const child = endpoint.type === 'nested' ? byName.get(endpoint.targetProfile) : undefined;
      if (child !== undefined) visit(child, [...path, profile.name]);
    }
    done.add(profile.name);
    ordered.push(profile);
  };
  for (const profile of profiles) visit(profile, []);
  return ordered;
}
