/** Rules across monitorConfig fields (TCP has no HTTP fields, timeout within the interval, sample window, region quorum) and probeRegions. */
import { DEFAULTS, LIMITS } from '../defaults.js';
import { isRecord, type IssuePath } from '../issues.js';
import { PROBE_PROTOCOLS, type ProbeProtocol } from '../types.js';
import { seenBefore, validInteger, type EndpointRules, type EndpointScope, type Report } from './report.js';

const HTTP_ONLY_FIELDS = [
  'path',
  'method',
  'customHeaders',
  'expectedStatusCodeRanges',
  'expectedBody',
] as const;
const TCP_FIELD_MESSAGE = 'must not be set when protocol is TCP (HTTP/HTTPS only)';

/** Returns the monitor's protocol (its default when absent, undefined when invalid). */
export function checkMonitorConfig(raw: unknown, base: IssuePath, report: Report): ProbeProtocol | undefined {
  const monitor = isRecord(raw) ? raw : {};
  const protocol =
    monitor.protocol === undefined
      ? DEFAULTS.protocol
      : PROBE_PROTOCOLS.find((known) => known === monitor.protocol);
  if (protocol === 'TCP') {
    if (monitor.port === undefined)
      report([...base, 'port'], 'required', undefined, 'is required when protocol is TCP');
    for (const field of HTTP_ONLY_FIELDS) {
      if (monitor[field] !== undefined)
        report([...base, field], 'tcp-field', monitor[field], TCP_FIELD_MESSAGE);
    }
  }
  if (monitor.method === 'HEAD' && monitor.expectedBody !== undefined && protocol !== 'TCP') {
    report(
      [...base, 'expectedBody'],
      'head-body',
      monitor.expectedBody,
      'must not be set when method is HEAD (a HEAD answer has no body; use GET)',
    );
  }
  if (protocol !== undefined && protocol !== 'HTTPS' && monitor.certificateWarningDays !== undefined) {
    // An error, not ignored: a warning that can never fire would look like a covered certificate.
    report(
      [...base, 'certificateWarningDays'],
      'https-field',
      monitor.certificateWarningDays,
      `must not be set when protocol is ${protocol} (HTTPS only: only HTTPS checks see a certificate)`,
    );
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
  checkMaxLatency(monitor, base, report);
  const rule = monitor.healthRule;
  if (isRecord(rule) && rule.kind === 'sampleWindow') {
    const size = sampleSizeOrDefault(rule.sampleSize, DEFAULTS.sampleSize);
    const required = sampleSizeOrDefault(rule.successfulSamplesRequired, DEFAULTS.successfulSamplesRequired);
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

/** A sample-window size field, or its default when absent. */
function sampleSizeOrDefault(value: unknown, fallback: number): number | undefined {
  return value === undefined ? fallback : validInteger(value, LIMITS.sampleSize.min, LIMITS.sampleSize.max);
}

/** maxLatencyMs must be below the timeout (written, or the interval's default): a slower check has timed out already. */
function checkMaxLatency(monitor: Record<string, unknown>, base: IssuePath, report: Report): void {
  const max = validInteger(monitor.maxLatencyMs, LIMITS.maxLatencyMs.min, LIMITS.maxLatencyMs.max);
  if (max === undefined) return;
  const interval = monitor.intervalInSeconds === 10 ? 10 : 30;
  const written = monitor.timeoutInSeconds;
  const timeoutMs = (typeof written === 'number' ? written : DEFAULTS.timeoutInSeconds[interval]) * 1000;
  if (max < timeoutMs) return;
  const defaulted = written === undefined ? `, its default with intervalInSeconds ${interval}` : '';
  report(
    [...base, 'maxLatencyMs'],
    'max-latency',
    max,
    `must be less than the timeout (${timeoutMs} ms${defaulted})`,
  );
}

/**
 * A regionQuorum count above the profile's probe regions could never be met. Without
 * probeRegions the deployment's regions apply, which the deployment checks.
 */
export function checkRegionQuorum(
  monitorConfig: unknown,
  probeRegions: unknown,
  base: IssuePath,
  report: Report,
): void {
  const { min, max } = LIMITS.regionQuorum;
  const quorum = validInteger(isRecord(monitorConfig) ? monitorConfig.regionQuorum : undefined, min, max);
  if (quorum === undefined || !Array.isArray(probeRegions) || probeRegions.length === 0) return;
  const regions = new Set(probeRegions).size;
  if (quorum <= regions) return;
  report(
    [...base, 'regionQuorum'],
    'region-quorum',
    quorum,
    `must be at most ${regions}, the number of probeRegions (a count above it can never be met)`,
  );
}

export function checkProbeRegions(raw: unknown, base: IssuePath, report: Report): void {
  if (!Array.isArray(raw)) return;
  const seen = new Map<unknown, number>();
  for (const [index, region] of raw.entries()) {
    const first = seenBefore(seen, region, index);
    if (first !== undefined)
      report([...base, index], 'unique', region, `must be unique: probeRegions[${first}] is the same region`);
  }
}

/** An endpoint's own customHeaders are HTTP-only too. */
export function endpointMonitorRules(scope: EndpointScope): EndpointRules {
  return {
    endpoint(raw, index) {
      if (scope.protocol === 'TCP' && raw.customHeaders !== undefined) {
        scope.report(scope.at(index, 'customHeaders'), 'tcp-field', raw.customHeaders, TCP_FIELD_MESSAGE);
      }
    },
  };
}
