/** Schema output → the normalized `Profile` model: every default applied, string forms parsed. */
import { DEFAULTS, type ProfileDefaults } from './defaults.js';
import { parseSubnet, type SubnetParse } from './subnet.js';
import { normalizeDnsName } from './names.js';
import type { ProfileParsed } from './schema.js';
import { classifyTarget, type ClassifiedTarget } from './target.js';
import type { Endpoint, ExpectedBody, HealthRule, MonitorConfig, Profile, SubnetRange } from './types.js';

type MonitorParsed = NonNullable<ProfileParsed['monitorConfig']>;
type EndpointParsed = ProfileParsed['endpoints'][number];

/** Only called on input that passed every rule. */
export function normalizeProfile(parsed: ProfileParsed, defaults: ProfileDefaults = {}): Profile {
  const zoneName = normalizeDnsName(parsed.dnsConfig.zoneName);
  const relativeName = parsed.dnsConfig.relativeName.toLowerCase();
  return {
    name: parsed.name,
    profileStatus: parsed.profileStatus ?? DEFAULTS.profileStatus,
    trafficRoutingMethod: parsed.trafficRoutingMethod,
    dnsConfig: {
      zoneName,
      hostedZoneId: parsed.dnsConfig.hostedZoneId,
      relativeName,
      ttl: parsed.dnsConfig.ttl ?? DEFAULTS.ttl,
      fqdn: `${relativeName}.${zoneName}`,
    },
    maxReturn:
      parsed.trafficRoutingMethod === 'MultiValue' ? (parsed.maxReturn ?? DEFAULTS.maxReturn) : undefined,
    monitorConfig: normalizeMonitor(parsed.monitorConfig ?? {}),
    probeRegions: parsed.probeRegions === undefined ? undefined : [...parsed.probeRegions],
    staticFailover: parsed.staticFailover ?? defaults.staticFailover ?? DEFAULTS.staticFailover,
    endpoints: parsed.endpoints.map(normalizeEndpoint),
  };
}

function normalizeMonitor(monitor: MonitorParsed): MonitorConfig {
  const protocol = monitor.protocol ?? DEFAULTS.protocol;
  const interval = monitor.intervalInSeconds ?? DEFAULTS.intervalInSeconds;
  const http = protocol !== 'TCP';
  return {
    protocol,
    // TCP without a port never gets here (rule `required`).
    port: monitor.port ?? DEFAULTS.port[protocol === 'HTTPS' ? 'HTTPS' : 'HTTP'],
    path: http ? (monitor.path ?? DEFAULTS.path) : undefined,
    method: monitor.method ?? DEFAULTS.method,
    intervalInSeconds: interval,
    timeoutInSeconds: monitor.timeoutInSeconds ?? DEFAULTS.timeoutInSeconds[interval],
    toleratedNumberOfFailures: monitor.toleratedNumberOfFailures ?? DEFAULTS.toleratedNumberOfFailures,
    customHeaders: http ? (monitor.customHeaders ?? []) : [],
    expectedStatusCodeRanges: http
      ? (monitor.expectedStatusCodeRanges ?? [...DEFAULTS.expectedStatusCodeRanges])
      : [],
    healthRule: normalizeHealthRule(monitor.healthRule),
    ...(monitor.requiredSuccessesToRecover === undefined
      ? {}
      : { requiredSuccessesToRecover: monitor.requiredSuccessesToRecover }),
    ...(monitor.maxLatencyMs === undefined ? {} : { maxLatencyMs: monitor.maxLatencyMs }),
    ...(monitor.regionQuorum === undefined ? {} : { regionQuorum: monitor.regionQuorum }),
    ...(monitor.expectedBody === undefined
      ? {}
      : { expectedBody: normalizeExpectedBody(monitor.expectedBody) }),
    ...(monitor.certificateWarningDays === undefined
      ? {}
      : { certificateWarningDays: monitor.certificateWarningDays }),
  };
}

function normalizeExpectedBody(body: NonNullable<MonitorParsed['expectedBody']>): ExpectedBody {
  return typeof body === 'string'
    ? { kind: 'substring', text: body }
    : { kind: 'regex', pattern: body.regex, flags: body.flags ?? '' };
}

function normalizeHealthRule(rule: MonitorParsed['healthRule']): HealthRule {
  if (rule === undefined || rule.kind === 'consecutiveFailures') return DEFAULTS.healthRule;
  return {
    kind: 'sampleWindow',
    sampleSize: rule.sampleSize ?? DEFAULTS.sampleSize,
    successfulSamplesRequired: rule.successfulSamplesRequired ?? DEFAULTS.successfulSamplesRequired,
  };
}

function normalizeEndpoint(endpoint: EndpointParsed, index: number): Endpoint {
  const common = {
    name: endpoint.name,
    endpointStatus: endpoint.endpointStatus ?? DEFAULTS.endpointStatus,
    priority: endpoint.priority ?? index + 1,
    weight: endpoint.weight ?? DEFAULTS.weight,
    endpointLocation: endpoint.endpointLocation,
    geoMapping: (endpoint.geoMapping ?? []).map((code) => code.toUpperCase()),
    subnets: (endpoint.subnets ?? []).map(toSubnetRange),
  };
  if (endpoint.type === 'nested') {
    return {
      ...common,
      type: 'nested',
      customHeaders: [],
      targetProfile: endpoint.targetProfile,
      minChildEndpoints: endpoint.minChildEndpoints ?? DEFAULTS.minChildEndpoints,
      minChildEndpointsIPv4: endpoint.minChildEndpointsIPv4,
      minChildEndpointsIPv6: endpoint.minChildEndpointsIPv6,
    };
  }
  // Validated input: the target classifies and every subnet parses.
  const target = classifyTarget(endpoint.target) as ClassifiedTarget;
  return {
    ...common,
    type: 'external',
    customHeaders: endpoint.customHeaders ?? [],
    target: target.value,
    targetKind: target.kind,
    alwaysServe: endpoint.alwaysServe ?? DEFAULTS.alwaysServe,
  };
}

function toSubnetRange(source: string): SubnetRange {
  const parsed = parseSubnet(source) as Extract<SubnetParse, { ok: true }>;
  return { source, cidrs: parsed.cidrs };
}
