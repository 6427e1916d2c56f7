/**
 * `tm plan FILE [--status profile/endpoint=STATUS,…] [--json]` — a dry run: the Route 53
 * record sets the evaluator would publish for those endpoint monitor statuses (endpoints
 * not named have no results yet: CheckingEndpoint). No AWS call. Exit 0 with the plan;
 * 1 when the definitions cannot be loaded or are invalid; 2 on a usage error.
 */
import { cidrCollectionNameOf } from '../../shared/routing/cidr-names.js';
import { geoCodeOf } from '../../shared/profile/geo-codes.js';
import { planRecords, type RecordPlan } from '../../shared/routing/planner.js';
import { StatusOverrideError } from '../../shared/status/errors.js';
import {
  endpointStatusLookup,
  SETTABLE_STATUSES,
  statusesFromOverrides,
  type ProfileStatusReport,
} from '../../shared/status/evaluate.js';
import { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import { healthSettingsOf } from '../../shared/profile/health-settings.js';
import type { Profile } from '../../shared/profile/types.js';
import type { CidrCollection, RecordSet } from '../../shared/zone/record-set.js';
import { UsageError } from './errors.js';
import { describeFigures, figuresOf } from './figures.js';
import type { Io } from './io.js';
import { loadProfilesFor } from './load-profiles.js';
import { alignColumns } from './io.js';
import { staticFailoverLines, staticFailoverTotal, staticFailoverWarnings } from './static-failover.js';

export interface PlanOptions {
  /** `profile/endpoint=STATUS` or `profile=Disabled`, one per item (commas already split). */
  readonly status?: readonly string[];
  readonly json?: boolean;
}

export async function run([file]: [string], options: PlanOptions, io: Io): Promise<number> {
  const overrides = parseStatuses(options.status ?? []);
  const profiles = await loadProfilesFor(
    'plan',
    file,
    io.stderr,
    () => `tm plan: ${file} is not valid (tm validate ${file})`,
  );
  if (profiles === undefined) return 1;

  let reports: ProfileStatusReport[];
  try {
    // The clock only dates the reports' `since`; the plan does not depend on it.
    reports = statusesFromOverrides(profiles, overrides, Date.now());
  } catch (error) {
    if (!(error instanceof StatusOverrideError)) throw error;
    throw new UsageError(error.problems.join('\ntm plan: '));
  }
  const plan = planRecords(profiles, endpointStatusLookup(reports));
  for (const line of staticFailoverWarnings(profiles)) io.stderr.write(`${line}\n`);
  io.stdout.write(
    options.json === true ? formatJson(profiles, reports, plan) : formatPlan(profiles, reports, plan),
  );
  return 0;
}

/** `--status` items by `profile/endpoint` (or `profile`). @throws UsageError */
export function parseStatuses(items: readonly string[]): Map<string, EndpointMonitorStatus> {
  const overrides = new Map<string, EndpointMonitorStatus>();
  for (const item of items) {
    const [key, status] = parseStatus(item);
    if (overrides.has(key)) throw new UsageError(`--status ${key} is given twice`);
    overrides.set(key, status);
  }
  return overrides;
}

const STATUS_BY_LOWER = new Map(Object.values(EndpointMonitorStatus).map((s) => [s.toLowerCase(), s]));

function parseStatus(value: string): [string, EndpointMonitorStatus] {
  const match = /^([^/=\s]+(?:\/[^/=\s]+)?)=(\S+)$/.exec(value);
  if (match === null) {
    throw new UsageError(
      `--status must look like profile/endpoint=STATUS (e.g. shop/east=Degraded) or profile=Disabled, got "${value}"`,
    );
  }
  const [, key = '', statusText = ''] = match;
  const status = STATUS_BY_LOWER.get(statusText.toLowerCase());
  if (status === undefined) {
    throw new UsageError(
      `--status ${key}: unknown status "${statusText}" (one of ${SETTABLE_STATUSES.join(', ')})`,
    );
  }
  return [key, status];
}

function formatJson(
  profiles: readonly Profile[],
  reports: readonly ProfileStatusReport[],
  plan: RecordPlan,
): string {
  const document = {
    profiles: reports,
    records: plan.records,
    cidrCollections: plan.cidrCollections,
    figures: profiles.map(figuresOf),
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * Per profile: its monitor status, each endpoint's status, its records (and CIDR collection),
 * its failover figures.
 */
export function formatPlan(
  profiles: readonly Profile[],
  reports: readonly ProfileStatusReport[],
  plan: RecordPlan,
): string {
  const lines: string[] = [];
  for (const profile of profiles) {
    const report = reports.find((r) => r.profile === profile.name);
    const fqdn = profile.dnsConfig.fqdn;
    lines.push(
      `${profile.name}  ${fqdn}  ${profile.trafficRoutingMethod}  monitor status ${report?.status ?? '?'}`,
    );
    const settings = healthSettingsOf(profile.monitorConfig);
    if (settings.length > 0) lines.push(`  health rules: ${settings.join(', ')}`);
    const endpoints = report?.endpoints ?? [];
    const width = Math.max(0, ...endpoints.map((e) => e.endpoint.length));
    for (const endpoint of endpoints) lines.push(`  ${endpoint.endpoint.padEnd(width)}  ${endpoint.status}`);
    const records = plan.records.filter((r) => r.name === fqdn);
    lines.push(
      ...(records.length === 0 ? ['  no records: the name answers NXDOMAIN'] : formatRecords(records)),
    );
    const collection = plan.cidrCollections.find((c) => c.name === cidrCollectionNameOf(profile));
    if (collection !== undefined) lines.push(formatCollection(collection));
    lines.push(...describeFigures(figuresOf(profile), '  '));
    lines.push(...staticFailoverLines(profile, profiles, '  '), '');
  }
  const total = staticFailoverTotal(profiles);
  if (total.length > 0) lines.push(...total, '');
  return lines.join('\n');
}

function formatRecords(records: readonly RecordSet[]): string[] {
  const rows = records.map((r) => [
    r.name,
    r.type,
    r.ttl === undefined ? '-' : String(r.ttl),
    policyOf(r),
    r.aliasTarget === undefined ? r.values.join(' ') : `ALIAS → ${r.aliasTarget.dnsName}`,
  ]);
  const columns = rows.some((row) => row[3] !== '') ? [0, 1, 2, 3, 4] : [0, 1, 2, 4];
  return alignColumns(rows.map((row) => columns.map((column) => row[column] ?? ''))).map(
    (line) => `  ${line}`,
  );
}

/** The routing policy of a record in a few words: `set=east weight=10`, `set=eu/DE geo=DE`. */
export function policyOf(record: RecordSet): string {
  const parts: string[] = [];
  if (record.setIdentifier !== undefined) parts.push(`set=${record.setIdentifier}`);
  if (record.weight !== undefined) parts.push(`weight=${record.weight}`);
  if (record.region !== undefined) parts.push(`region=${record.region}`);
  if (record.geoLocation !== undefined) parts.push(`geo=${geoCodeOf(record.geoLocation)}`);
  if (record.multiValueAnswer === true) parts.push('multivalue');
  if (record.cidrRoutingConfig !== undefined) {
    parts.push(`cidr=${record.cidrRoutingConfig.collectionId}/${record.cidrRoutingConfig.locationName}`);
  }
  if (record.failover !== undefined) parts.push(`failover=${record.failover}`);
  return parts.join(' ');
}

function formatCollection(collection: CidrCollection): string {
  const locations = Object.entries(collection.locations).map(([name, cidrs]) => `${name} ${cidrs.join(' ')}`);
  return `  CIDR collection ${collection.name}: ${locations.join('; ')}`;
}
