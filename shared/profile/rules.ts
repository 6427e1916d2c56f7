/**
 * Cross-field rules: everything that relates two or more fields, one group per file in
 * rules/. They read the raw input defensively — a field of the wrong shape is skipped here
 * because the schema already reports it — so that one run reports every problem.
 */
import { isRecord, type IssuePath, type ValidationIssue } from './issues.js';
import { isDnsName, MAX_DNS_NAME_LENGTH, normalizeDnsName } from './names.js';
import { addressingRules } from './rules/addressing.js';
import { endpointIdentityRules } from './rules/endpoint-identity.js';
import { geographicRules } from './rules/geographic.js';
import { methodFieldRules } from './rules/method-fields.js';
import {
  checkMonitorConfig,
  checkProbeRegions,
  checkRegionQuorum,
  endpointMonitorRules,
} from './rules/monitor.js';
import { nestedEndpointRules } from './rules/nested-endpoints.js';
import { checkNesting, type HostedZoneRef, type NestingNode } from './rules/nesting.js';
import { endpointScope, refTo, seenBefore, validName, type Report } from './rules/report.js';
import { subnetRules } from './rules/subnets.js';
import { classifyTarget } from './target.js';
import { ROUTING_METHODS, type RoutingMethod } from './types.js';

export function checkRules(list: readonly unknown[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const report: Report = (path, rule, received, message) => issues.push({ path, rule, received, message });
  const profileNames = new Map<string, number>();
  const fqdns = new Map<string, number>();
  const nesting: NestingNode[] = [];

  for (const [index, raw] of list.entries()) {
    if (!isRecord(raw)) continue;
    const base: IssuePath = ['profiles', index];
    const name = validName(raw.name);
    if (name !== undefined) {
      const first = seenBefore(profileNames, name.toLowerCase(), index);
      if (first !== undefined)
        report(
          [...base, 'name'],
          'unique-name',
          raw.name,
          `must be unique: ${refTo(list, 'profiles', first)} has the same name`,
        );
    }
    const fqdn = checkDnsConfig(raw.dnsConfig, [...base, 'dnsConfig'], report);
    if (fqdn !== undefined) {
      const first = seenBefore(fqdns, fqdn, index);
      if (first !== undefined)
        report(
          [...base, 'dnsConfig', 'relativeName'],
          'unique-fqdn',
          (raw.dnsConfig as Record<string, unknown>).relativeName,
          `must give a DNS name no other profile uses: ${refTo(list, 'profiles', first)} is ${fqdn} too`,
        );
    }
    const edges = checkProfile(raw, base, report);
    if (name !== undefined && profileNames.get(name.toLowerCase()) === index) {
      const zone = hostedZoneOf(raw.dnsConfig, fqdn);
      nesting.push({
        index,
        name,
        edges,
        hostNameTargets: hasHostNameTarget(raw.endpoints),
        ...(zone && { zone }),
      });
    }
  }
  issues.push(...checkNesting(nesting));
  return issues;
}

/** The hosted zone of a profile whose dnsConfig is valid (its fqdn is known). */
function hostedZoneOf(raw: unknown, fqdn: string | undefined): HostedZoneRef | undefined {
  if (fqdn === undefined || !isRecord(raw) || typeof raw.zoneName !== 'string') return undefined;
  const zoneName = normalizeDnsName(raw.zoneName);
  return typeof raw.hostedZoneId === 'string' && raw.hostedZoneId !== ''
    ? { zoneName, hostedZoneId: raw.hostedZoneId }
    : { zoneName };
}

function hasHostNameTarget(endpoints: unknown): boolean {
  if (!Array.isArray(endpoints)) return false;
  return endpoints.some(
    (e) =>
      isRecord(e) &&
      e.type !== 'nested' &&
      typeof e.target === 'string' &&
      classifyTarget(e.target)?.kind === 'hostname',
  );
}

function checkDnsConfig(raw: unknown, base: IssuePath, report: Report): string | undefined {
  if (!isRecord(raw)) return undefined;
  const { zoneName, relativeName } = raw;
  if (typeof zoneName !== 'string' || !isDnsName(zoneName, true)) return undefined;
  if (typeof relativeName !== 'string' || !isDnsName(relativeName, false)) return undefined;
  const fqdn = `${relativeName.toLowerCase()}.${normalizeDnsName(zoneName)}`;
  if (fqdn.length > MAX_DNS_NAME_LENGTH) {
    report(
      [...base, 'relativeName'],
      'fqdn-length',
      relativeName,
      `must make a name of at most ${MAX_DNS_NAME_LENGTH} characters together with the zone (${fqdn.length})`,
    );
    return undefined;
  }
  return fqdn;
}

/** Profile-level rules; returns the nested edges for the graph rules. */
function checkProfile(
  profile: Record<string, unknown>,
  base: IssuePath,
  report: Report,
): NestingNode['edges'] {
  const method = ROUTING_METHODS.includes(profile.trafficRoutingMethod as RoutingMethod)
    ? (profile.trafficRoutingMethod as RoutingMethod)
    : undefined;
  if (profile.maxReturn !== undefined && method !== undefined && method !== 'MultiValue') {
    report(
      [...base, 'maxReturn'],
      'method-field',
      profile.maxReturn,
      'is only allowed with trafficRoutingMethod MultiValue',
    );
  }
  const protocol = checkMonitorConfig(profile.monitorConfig, [...base, 'monitorConfig'], report);
  checkProbeRegions(profile.probeRegions, [...base, 'probeRegions'], report);
  checkRegionQuorum(profile.monitorConfig, profile.probeRegions, [...base, 'monitorConfig'], report);
  // Every endpoint rule group over the list.
  const endpoints: readonly unknown[] = Array.isArray(profile.endpoints) ? profile.endpoints : [];
  const scope = endpointScope(endpoints, [...base, 'endpoints'], method, protocol, report);
  const nested = nestedEndpointRules(scope);
  const groups = [
    endpointIdentityRules(scope),
    nested,
    endpointMonitorRules(scope),
    methodFieldRules(scope),
    geographicRules(scope),
    subnetRules(scope),
    addressingRules(scope),
  ];
  for (const [index, raw] of endpoints.entries()) {
    if (!isRecord(raw)) continue;
    for (const group of groups) group.endpoint(raw, index);
  }
  for (const group of groups) group.finish?.();
  return nested.edges;
}
