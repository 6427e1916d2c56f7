/**
 * Cross-field rules (SPEC §1, DESIGN §2, issue 2): everything that relates two or more
 * fields. They read the raw input defensively — a field of the wrong shape is skipped
 * here because the schema already reports it — so that one run reports every problem.
 */
import { DEFAULTS, LIMITS } from './defaults.js';
import { parseSubnet, type IpFamily } from './ip.js';
import { isRecord, type IssuePath, type ValidationIssue } from './issues.js';
import { isDnsName, isResourceName, MAX_DNS_NAME_LENGTH, normalizeDnsName } from './names.js';
import { checkNesting, type HostedZoneRef, type NestingNode } from './nesting.js';
import { classifyTarget, type ClassifiedTarget } from './target.js';
import { PROBE_PROTOCOLS, ROUTING_METHODS, type ProbeProtocol, type RoutingMethod } from './types.js';

type Report = (path: IssuePath, rule: string, received: unknown, message: string) => void;

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
      const first = profileNames.get(name.toLowerCase());
      if (first === undefined) profileNames.set(name.toLowerCase(), index);
      else
        report(
          [...base, 'name'],
          'unique-name',
          raw.name,
          `must be unique: ${refTo(list, 'profiles', first)} has the same name`,
        );
    }
    const fqdn = checkDnsConfig(raw.dnsConfig, [...base, 'dnsConfig'], report);
    if (fqdn !== undefined) {
      const first = fqdns.get(fqdn);
      if (first === undefined) fqdns.set(fqdn, index);
      else {
        report(
          [...base, 'dnsConfig', 'relativeName'],
          'unique-fqdn',
          (raw.dnsConfig as Record<string, unknown>).relativeName,
          `must give a DNS name no other profile uses: ${refTo(list, 'profiles', first)} is ${fqdn} too`,
        );
      }
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
  const endpoints = Array.isArray(profile.endpoints) ? profile.endpoints : [];
  return checkEndpoints(endpoints, [...base, 'endpoints'], method, protocol, report);
}

const HTTP_ONLY_FIELDS = ['path', 'method', 'customHeaders', 'expectedStatusCodeRanges'] as const;

function checkMonitorConfig(raw: unknown, base: IssuePath, report: Report): ProbeProtocol | undefined {
  const monitor = isRecord(raw) ? raw : {};
  const protocol =
    monitor.protocol === undefined
      ? DEFAULTS.protocol
      : PROBE_PROTOCOLS.find((known) => known === monitor.protocol);
  if (protocol === 'TCP') {
    if (monitor.port === undefined)
      report([...base, 'port'], 'required', undefined, 'is required when protocol is TCP');
    for (const field of HTTP_ONLY_FIELDS) {
      if (monitor[field] !== undefined) {
        report(
          [...base, field],
          'tcp-field',
          monitor[field],
          'must not be set when protocol is TCP (HTTP/HTTPS only)',
        );
      }
    }
  }
  const limits = LIMITS.timeoutInSeconds[10];
  if (monitor.intervalInSeconds === 10 && monitor.timeoutInSeconds === LIMITS.timeoutInSeconds[30].max) {
    report(
      [...base, 'timeoutInSeconds'],
      'range',
      monitor.timeoutInSeconds,
      `must be an integer ${limits.min}–${limits.max} when intervalInSeconds is 10`,
    );
  }
  const rule = monitor.healthRule;
  if (isRecord(rule) && rule.kind === 'sampleWindow') {
    const size = withDefault(rule.sampleSize, DEFAULTS.sampleSize);
    const required = withDefault(rule.successfulSamplesRequired, DEFAULTS.successfulSamplesRequired);
    if (size !== undefined && required !== undefined && required > size) {
      const defaulted = rule.successfulSamplesRequired === undefined ? ` (its default is ${required})` : '';
      report(
        [...base, 'healthRule', 'successfulSamplesRequired'],
        'sample-window',
        rule.successfulSamplesRequired,
        `must be at most sampleSize (${size})${defaulted}`,
      );
    }
  }
  return protocol;
}

function checkProbeRegions(raw: unknown, base: IssuePath, report: Report): void {
  if (!Array.isArray(raw)) return;
  const seen = new Map<unknown, number>();
  for (const [index, region] of raw.entries()) {
    const first = seen.get(region);
    if (first === undefined) seen.set(region, index);
    else
      report([...base, index], 'unique', region, `must be unique: probeRegions[${first}] is the same region`);
  }
}

interface SubnetOwner {
  readonly endpoint: number;
  readonly subnet: number;
  readonly source: string;
  readonly family: IpFamily;
  readonly first: bigint;
  readonly last: bigint;
}

function checkEndpoints(
  endpoints: readonly unknown[],
  base: IssuePath,
  method: RoutingMethod | undefined,
  protocol: ProbeProtocol | undefined,
  report: Report,
): NestingNode['edges'] {
  const ref = (index: number) => refTo({ endpoints }, 'endpoints', index);
  const names = new Map<string, number>();
  const priorities = new Map<number, number>();
  const geoCodes = new Map<string, { endpoint: number; entry: number }>();
  const subnets: SubnetOwner[] = [];
  let fallback: number | undefined;
  let addressing: { endpoint: number; target: ClassifiedTarget } | undefined;
  const edges: { endpointIndex: number; targetProfile: string }[] = [];

  for (const [index, raw] of endpoints.entries()) {
    if (!isRecord(raw)) continue;
    const at = (field: string | number, ...rest: (string | number)[]): IssuePath => [
      ...base,
      index,
      field,
      ...rest,
    ];
    const nested = raw.type === 'nested';

    const name = validName(raw.name);
    if (name !== undefined) {
      const first = names.get(name.toLowerCase());
      if (first === undefined) names.set(name.toLowerCase(), index);
      else
        report(
          at('name'),
          'unique-name',
          raw.name,
          `must be unique in the profile: ${ref(first)} has the same name`,
        );
    }

    const priority =
      raw.priority === undefined
        ? index + 1
        : validInteger(raw.priority, LIMITS.priority.min, LIMITS.priority.max);
    if (priority !== undefined) {
      const first = priorities.get(priority);
      if (first === undefined) priorities.set(priority, index);
      else {
        const theirs =
          isRecord(endpoints[first]) && (endpoints[first] as Record<string, unknown>).priority === undefined
            ? ' (its list position)'
            : '';
        const ours =
          raw.priority === undefined
            ? `; without a priority this endpoint gets its list position, ${priority}`
            : '';
        report(
          at('priority'),
          'unique-priority',
          raw.priority,
          `must be unique in the profile: ${ref(first)} has priority ${priority}${theirs}${ours}`,
        );
      }
    }

    if (nested && raw.alwaysServe === true) {
      report(
        at('alwaysServe'),
        'nested-always-serve',
        raw.alwaysServe,
        'must not be true: health checks cannot be turned off for nested endpoints',
      );
    }
    if (nested && typeof raw.targetProfile === 'string' && isResourceName(raw.targetProfile)) {
      edges.push({ endpointIndex: index, targetProfile: raw.targetProfile });
    }
    if (protocol === 'TCP' && raw.customHeaders !== undefined) {
      report(
        at('customHeaders'),
        'tcp-field',
        raw.customHeaders,
        'must not be set when protocol is TCP (HTTP/HTTPS only)',
      );
    }

    // Routing-method fields: required by their method, an error elsewhere (a sign of the wrong method).
    if (method === 'Performance') {
      if (raw.endpointLocation === undefined) {
        report(
          at('endpointLocation'),
          'required',
          undefined,
          'is required with trafficRoutingMethod Performance',
        );
      }
    } else if (method !== undefined && raw.endpointLocation !== undefined) {
      report(
        at('endpointLocation'),
        'method-field',
        raw.endpointLocation,
        'is only allowed with trafficRoutingMethod Performance',
      );
    }

    if (method === 'Geographic') {
      if (raw.geoMapping === undefined || (Array.isArray(raw.geoMapping) && raw.geoMapping.length === 0)) {
        report(
          at('geoMapping'),
          'required',
          raw.geoMapping,
          'must map at least one location with trafficRoutingMethod Geographic',
        );
      }
      for (const [entry, code] of (Array.isArray(raw.geoMapping) ? raw.geoMapping : []).entries()) {
        if (typeof code !== 'string') continue;
        const key = code.toUpperCase();
        const first = geoCodes.get(key);
        if (first === undefined) geoCodes.set(key, { endpoint: index, entry });
        else {
          const owner =
            first.endpoint === index ? `geoMapping[${first.entry}] of this endpoint` : ref(first.endpoint);
          report(
            at('geoMapping', entry),
            'geo-unique',
            code,
            `must be mapped by one endpoint only: ${owner} maps ${key} already`,
          );
        }
      }
    } else if (method !== undefined && raw.geoMapping !== undefined) {
      report(
        at('geoMapping'),
        'method-field',
        raw.geoMapping,
        'is only allowed with trafficRoutingMethod Geographic',
      );
    }

    if (method === 'Subnet') {
      if (raw.subnets === undefined || (Array.isArray(raw.subnets) && raw.subnets.length === 0)) {
        if (fallback === undefined) fallback = index;
        else {
          report(
            at('subnets'),
            'subnet-fallback',
            raw.subnets,
            `must list client ranges: only one endpoint may be the fallback (no subnets), and ${ref(fallback)} already is`,
          );
        }
      }
      for (const [subnet, source] of (Array.isArray(raw.subnets) ? raw.subnets : []).entries()) {
        if (typeof source !== 'string') continue;
        const parsed = parseSubnet(source);
        if (parsed.ok)
          subnets.push({
            endpoint: index,
            subnet,
            source,
            family: parsed.family,
            first: parsed.first,
            last: parsed.last,
          });
      }
    } else if (method !== undefined && raw.subnets !== undefined) {
      report(at('subnets'), 'method-field', raw.subnets, 'is only allowed with trafficRoutingMethod Subnet');
    }

    if (nested) {
      if (method === 'MultiValue') {
        report(
          at('type'),
          'nested-parent-multivalue',
          raw.type,
          'must not be "nested": a MultiValue profile cannot have nested endpoints',
        );
      }
      continue;
    }
    const target = typeof raw.target === 'string' ? classifyTarget(raw.target) : undefined;
    if (target === undefined || method === undefined) continue;
    if (method === 'MultiValue') {
      if (target.kind === 'hostname') {
        report(
          at('target'),
          'addressing-kind',
          raw.target,
          'must be an IP address: MultiValue profiles accept IP addresses only',
        );
      }
    } else if (addressing === undefined) {
      addressing = { endpoint: index, target };
    } else if (addressing.target.kind !== target.kind) {
      report(
        at('target'),
        'addressing-kind',
        raw.target,
        `must be ${KIND_LABEL[addressing.target.kind]} like ${ref(addressing.endpoint)}: one addressing kind per profile`,
      );
    }
  }
  checkSubnetOverlaps(subnets, base, ref, report);
  return edges;
}

const KIND_LABEL: Readonly<Record<ClassifiedTarget['kind'], string>> = {
  hostname: 'a host name',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

/**
 * No client address may map to two endpoints (nor twice to one): a sweep over ranges
 * sorted by start reports each range that begins inside an earlier-starting one.
 */
function checkSubnetOverlaps(
  subnets: SubnetOwner[],
  base: IssuePath,
  ref: (index: number) => string,
  report: Report,
): void {
  for (const family of ['ipv4', 'ipv6'] as const) {
    const sorted = subnets
      .filter((s) => s.family === family)
      .sort((a, b) =>
        a.first < b.first ? -1 : a.first > b.first ? 1 : a.endpoint - b.endpoint || a.subnet - b.subnet,
      );
    let widest: SubnetOwner | undefined;
    for (const range of sorted) {
      if (widest !== undefined && range.first <= widest.last) {
        const owner = widest.endpoint === range.endpoint ? 'this endpoint' : ref(widest.endpoint);
        report(
          [...base, range.endpoint, 'subnets', range.subnet],
          'subnet-overlap',
          range.source,
          `must not overlap ${JSON.stringify(widest.source)} of ${owner}: an address maps to one endpoint only`,
        );
      }
      if (widest === undefined || range.last > widest.last) widest = range;
    }
  }
}

function refTo(container: unknown, list: string, index: number): string {
  const items = Array.isArray(container) ? container : isRecord(container) ? container[list] : undefined;
  const item = Array.isArray(items) ? items[index] : undefined;
  const name = isRecord(item) && typeof item.name === 'string' ? ` ${JSON.stringify(item.name)}` : '';
  return `${list}[${index}]${name}`;
}

function validName(value: unknown): string | undefined {
  return typeof value === 'string' && isResourceName(value) ? value : undefined;
}

function validInteger(value: unknown, min: number, max: number): number | undefined {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
    ? (value as number)
    : undefined;
}

function withDefault(value: unknown, fallback: number): number | undefined {
  return value === undefined ? fallback : validInteger(value, LIMITS.sampleSize.min, LIMITS.sampleSize.max);
}
