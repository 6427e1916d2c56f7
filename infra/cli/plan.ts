/**
 * `tm plan FILE [--status profile/endpoint=STATUS …] [--json]` — a dry run: the Route 53
 * record sets the evaluator would publish for those endpoint monitor statuses (endpoints
 * not named have no results yet: CheckingEndpoint). No AWS call. Exit 0 with the plan;
 * 1 when the definitions cannot be loaded or are invalid; 2 on a usage error.
 */
import { cidrCollectionNameOf } from '../../shared/routing/cidr-names.js';
import { geoCodeOf } from '../../shared/routing/geo-location.js';
import { planRecords, type RecordPlan } from '../../shared/routing/planner.js';
import { StatusOverrideError } from '../../shared/status/errors.js';
import {
  endpointStatusLookup,
  SETTABLE_STATUSES,
  statusesFromOverrides,
  type ProfileStatusReport,
} from '../../shared/status/evaluate.js';
import { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import type { Profile } from '../../shared/profile/types.js';
import type { CidrCollection, RecordSet } from '../../shared/zone/record-set.js';
import { loadProfilesFor, type Output } from './load-profiles.js';

export type { Output } from './load-profiles.js';

const USAGE = `usage: tm plan FILE [--status profile/endpoint=STATUS …] [--json]

  --status p/e=STATUS   the endpoint's monitor status (Online, Degraded, CheckingEndpoint);
                        repeatable; endpoints not named are CheckingEndpoint (no results yet)
  --json                print { profiles, records, cidrCollections } as JSON
`;

interface PlanArgs {
  readonly file: string;
  readonly overrides: Map<string, EndpointMonitorStatus>;
  readonly json: boolean;
}

class UsageError extends Error {
  override name = 'UsageError';
}

export async function run(
  args: string[],
  stdout: Output = process.stdout,
  stderr: Output = process.stderr,
): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    stdout.write(USAGE);
    return 0;
  }
  let parsed: PlanArgs;
  try {
    parsed = parseArgs(args);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(`tm plan: ${error.message}\n${USAGE}`);
    return 2;
  }

  const profiles = await loadProfilesFor(
    'plan',
    parsed.file,
    stderr,
    () => `tm plan: ${parsed.file} is not valid (tm validate ${parsed.file})`,
  );
  if (profiles === undefined) return 1;

  let reports: ProfileStatusReport[];
  try {
    // The clock only dates the reports' `since`; the plan does not depend on it.
    reports = statusesFromOverrides(profiles, parsed.overrides, Date.now());
  } catch (error) {
    if (!(error instanceof StatusOverrideError)) throw error;
    stderr.write(error.problems.map((problem) => `tm plan: ${problem}\n`).join(''));
    return 2;
  }
  const plan = planRecords(profiles, endpointStatusLookup(reports));
  stdout.write(parsed.json ? formatJson(reports, plan) : formatPlan(profiles, reports, plan));
  return 0;
}

export function parseArgs(args: readonly string[]): PlanArgs {
  const files: string[] = [];
  const overrides = new Map<string, EndpointMonitorStatus>();
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--json') {
      json = true;
    } else if (arg === '--status' || arg.startsWith('--status=')) {
      const value = arg === '--status' ? args[++i] : arg.slice('--status='.length);
      if (value === undefined) throw new UsageError('--status needs a value: profile/endpoint=STATUS');
      const [key, status] = parseStatus(value);
      if (overrides.has(key)) throw new UsageError(`--status ${key} is given twice`);
      overrides.set(key, status);
    } else if (arg.startsWith('-')) {
      throw new UsageError(`unknown option ${arg}`);
    } else {
      files.push(arg);
    }
  }
  const [file] = files;
  if (file === undefined) throw new UsageError('missing FILE');
  if (files.length > 1) throw new UsageError(`only one FILE, got ${files.join(', ')}`);
  return { file, overrides, json };
}

const STATUS_BY_LOWER = new Map(Object.values(EndpointMonitorStatus).map((s) => [s.toLowerCase(), s]));

function parseStatus(value: string): [string, EndpointMonitorStatus] {
  const match = /^([^/=\s]+)\/([^/=\s]+)=(\S+)$/.exec(value);
  if (match === null) {
    throw new UsageError(
      `--status must look like profile/endpoint=STATUS (e.g. shop/east=Degraded), got "${value}"`,
    );
  }
  const [, profile = '', endpoint = '', statusText = ''] = match;
  const status = STATUS_BY_LOWER.get(statusText.toLowerCase());
  if (status === undefined) {
    throw new UsageError(
      `--status ${profile}/${endpoint}: unknown status "${statusText}" (one of ${SETTABLE_STATUSES.join(', ')})`,
    );
  }
  return [`${profile}/${endpoint}`, status];
}

function formatJson(reports: readonly ProfileStatusReport[], plan: RecordPlan): string {
  return `${JSON.stringify({ profiles: reports, records: plan.records, cidrCollections: plan.cidrCollections }, null, 2)}\n`;
}

/** Per profile: its monitor status, each endpoint's status, its records (and CIDR collection). */
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
    const endpoints = report?.endpoints ?? [];
    const width = Math.max(0, ...endpoints.map((e) => e.endpoint.length));
    for (const endpoint of endpoints) lines.push(`  ${endpoint.endpoint.padEnd(width)}  ${endpoint.status}`);
    const records = plan.records.filter((r) => r.name === fqdn);
    lines.push(
      ...(records.length === 0 ? ['  no records: the name answers NXDOMAIN'] : formatRecords(records)),
    );
    const collection = plan.cidrCollections.find((c) => c.name === cidrCollectionNameOf(profile));
    if (collection !== undefined) lines.push(formatCollection(collection));
    lines.push('');
  }
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
  const width = (column: number) => Math.max(...rows.map((row) => (row[column] ?? '').length));
  const widths = columns.map(width);
  return rows.map(
    (row) =>
      `  ${columns
        .map((column, k) =>
          k === columns.length - 1 ? row[column] : (row[column] ?? '').padEnd(widths[k] ?? 0),
        )
        .join('  ')}`,
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
