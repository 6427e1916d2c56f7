/**
 * `tm status [--profile NAME] [--json] [--dns-port N | --table NAME --region R]` — the
 * status items the evaluator keeps, and the runtime controls in the table (who disabled or
 * overrode what, why, until when), from the running local stack or from AWS (stack.ts).
 */
import { DynamoDbEvaluatorStore } from '../../functions/evaluator/dynamodb-state-store.js';
import type { PublishProblem } from '../../functions/evaluator/ports.js';
import type { ProfileStatusReport } from '../../shared/status/evaluate.js';
import { isInEffect, NO_CONTROLS } from '../../shared/control/apply.js';
import { describeAuthor, describeOverride } from '../../shared/control/describe.js';
import type { RuntimeControls } from '../../shared/state/items.js';
import { readControls } from '../../functions/shared/control-store.js';
import { withCurrentChecks, type CurrentVote } from '../../shared/status/current-checks.js';
import { withCertificates, type EndpointWithCertificate } from '../../shared/status/certificates.js';
import type { Io } from './io.js';
import { connectOrSay, type Stack, type StackOptions } from './stack.js';
import { readDeployedConfig, type DeployedConfig } from '../../functions/shared/config-reader.js';
import { EnvironmentVariable } from '../../shared/contracts/environment.js';
import { isUnreachable } from './unreachable.js';
import { dataPlaneOf, heldOverrides, type HeldOverride } from './data-plane-steering.js';
import {
  awsHealthCheckReader,
  localHealthCheckReader,
  readHealthChecks,
  targetCheckIdsOf,
  type HealthCheckState,
  type OurHealthCheck,
} from './health-checks.js';

export interface StatusOptions extends StackOptions {
  readonly profile?: string;
  readonly json?: boolean;
}

export async function run(_args: [], options: StatusOptions, io: Io): Promise<number> {
  const stack = connectOrSay(options, 'status', io);
  if (stack === undefined) return 1;
  let snapshot: StatusSnapshot;
  let config: DeployedConfig;
  const now = Date.now();
  const checks = healthCheckReaderOf(stack);
  try {
    [snapshot, config] = await Promise.all([
      readStatus(stack, options.profile, now),
      readDeployedConfig(stack.client, stack.tableName),
    ]);
  } catch (error) {
    if (isUnreachable(error)) return await homeRegionUnreachable(stack, checks, options, io);
    io.stderr.write(`tm status: could not read ${stack.description}: ${(error as Error).message}\n`);
    checks?.reader.close();
    return 1;
  } finally {
    stack.client.destroy();
  }
  const { controls, zones } = snapshot;
  if (options.profile !== undefined && snapshot.profiles.length === 0) {
    checks?.reader.close();
    io.stderr.write(`tm status: no status for profile "${options.profile}" (yet)\n`);
    return 1;
  }
  const reports = await withHealthChecks(snapshot.profiles, config, checks, io);
  const dataPlane = await dataPlaneOverridesOf(stack, config, now, io);
  io.stdout.write(
    options.json === true
      ? `${JSON.stringify({ profiles: reports, controls, zones, dataPlane: { overrides: dataPlane } }, null, 2)}\n`
      : formatReports(reports, now, controls) + formatZones(zones, now) + formatHeld(dataPlane, now),
  );
  return 0;
}

/**
 * The outage-time overrides holding vote alarms in the probe regions (docs/cli.md, "During an
 * outage"): what steers the static path beside the controls in the table. Empty when the
 * deployment has no static failover or its name is not known.
 */
async function dataPlaneOverridesOf(
  stack: Stack,
  config: DeployedConfig | undefined,
  now: number,
  io: Io,
): Promise<HeldOverride[]> {
  const plane = await dataPlaneOf(stack, {}, config, io.stderr);
  if (plane === undefined) return [];
  try {
    const { held, unread } = await heldOverrides(plane, now);
    if (unread.length > 0)
      io.stderr.write(
        `tm status: data-plane overrides not read in ${unread.join(', ')} (CloudWatch did not answer)\n`,
      );
    return held;
  } finally {
    plane.alarms.destroy();
  }
}

function formatHeld(held: readonly HeldOverride[], now: number): string {
  if (held.length === 0) return '';
  const lines = held.map(
    (o) =>
      `  ${o.subject} ${o.status} by ${o.by} at ${new Date(o.at).toISOString()}` +
      `${o.until === undefined ? '' : `, until ${new Date(o.until).toISOString()} (in ${Math.ceil((o.until - now) / 60_000)}m)`}` +
      `${o.reason === undefined ? '' : `: "${o.reason}"`} — its vote alarm ${o.alarm} in ${o.regions.join(', ')}`,
  );
  return `\nHeld in the data plane (outage-time overrides; tm endpoint enable or clear ends them):\n${lines.join('\n')}\n`;
}

/** Where the health checks are read, and the deployment name their ids derive from; undefined: not known. */
function healthCheckReaderOf({ dnsPort, pointer }: Stack) {
  const deployment =
    dnsPort === undefined ? process.env[EnvironmentVariable.staticFailoverDeployment] : pointer?.deployment;
  if (deployment === undefined || deployment === '') return undefined;
  const reader = pointer === undefined ? awsHealthCheckReader() : localHealthCheckReader(pointer);
  return { reader, deployment };
}

/** Each endpoint with `healthCheck`: its target check's state, null without one (or when Route 53 does not answer). */
async function withHealthChecks(
  reports: readonly ProfileStatus[],
  config: DeployedConfig,
  checks: ReturnType<typeof healthCheckReaderOf>,
  io: Io,
): Promise<ProfileStatus[]> {
  let states = new Map<string, HealthCheckState | null>();
  let targets = new Map<string, string>();
  if (checks !== undefined) {
    targets = targetCheckIdsOf(config.profiles, checks.deployment, config.defaultProbeRegions);
    try {
      const found = await readHealthChecks(checks.reader, new Set(targets.values()));
      states = new Map(found.map((check) => [check.id, check.state]));
    } catch (error) {
      io.stderr.write(`tm status: health checks not read (Route 53): ${(error as Error).message}\n`);
    } finally {
      checks.reader.close();
    }
  }
  return reports.map((report) => ({
    ...report,
    endpoints: report.endpoints.map((endpoint) => {
      const id = targets.get(`${report.profile}/${endpoint.endpoint}`);
      return { ...endpoint, healthCheck: id === undefined ? null : (states.get(id) ?? null) };
    }),
  }));
}

/**
 * The home region does not answer (its table's calls fail: unreachable.ts): no status, but what
 * Route 53's data plane says — every health check of ours with its state.
 */
async function homeRegionUnreachable(
  stack: Stack,
  checks: ReturnType<typeof healthCheckReaderOf>,
  options: StatusOptions,
  io: Io,
): Promise<number> {
  const reason = `the home region is unreachable: ${stack.description}'s table does not answer`;
  let healthChecks: OurHealthCheck[] = [];
  let problem: string | undefined;
  try {
    healthChecks = checks === undefined ? [] : await readHealthChecks(checks.reader);
  } catch (error) {
    problem = `health checks not read (Route 53): ${(error as Error).message}`;
  } finally {
    checks?.reader.close();
  }
  // Without the table, the profiles come from the local stack (or nowhere, against AWS).
  const held = await dataPlaneOverridesOf(stack, undefined, Date.now(), io);
  if (options.json === true) {
    io.stdout.write(
      `${JSON.stringify({ homeRegion: { reachable: false, reason }, healthChecks, dataPlane: { overrides: held }, ...(problem === undefined ? {} : { problem }) }, null, 2)}\n`,
    );
    return 0;
  }
  const lines = [
    `${reason} — statuses, votes and controls cannot be read; DNS follows the Route 53 health checks:`,
    ...healthChecks.map(
      (c) => `  ${c.id}  ${(c.state ?? 'unknown').padEnd(9)}  ${c.type} ${c.healthCheckId}`,
    ),
    ...(healthChecks.length === 0 && problem === undefined
      ? ['  (no health checks of ours in Route 53)']
      : []),
    ...(problem === undefined ? [] : [`  ${problem}`]),
  ];
  io.stdout.write(`${lines.join('\n')}\n${formatHeld(held, Date.now())}`);
  return 0;
}

/** What `tm status` shows (and the status page): the status items and runtime controls. */
export type StatusSnapshot = Awaited<ReturnType<typeof readStatus>>;

/**
 * Reads the status items, runtime controls and zone reconciles of `stack` (of one profile
 * when given), each vote with its region's latest checks from its summary items, and each HTTPS
 * endpoint with the certificate it presents (days left counted at `now`).
 */
export async function readStatus(stack: Stack, profile?: string, now = Date.now()) {
  const store = new DynamoDbEvaluatorStore(stack.client, stack.tableName);
  const [statuses, stored] = await Promise.all([
    store.loadStatuses(),
    readControls(stack.client, stack.tableName),
  ]);
  const shown = (c: { profile: string }) => profile === undefined || c.profile === profile;
  const items = [...statuses.values()]
    .filter((s) => shown(s.report))
    .sort((a, b) => a.report.profile.localeCompare(b.report.profile));
  const zoneIds = [...new Set(items.map((s) => s.hostedZoneId).filter((id) => id !== ''))].sort();
  const reconciles = new Map(
    (await store.loadZoneReconciles(zoneIds)).map(({ hostedZoneId, ...last }) => [hostedZoneId, last]),
  );
  // The votes show the latest checks, which the regions' summary items carry (statuses change rarely).
  const regions = new Set(
    items.flatMap((s) => s.report.endpoints.flatMap((e) => e.votes.map((v) => v.region))),
  );
  const checks = await store.loadRegionChecks([...regions]);
  const reports = items.map((s) => ({
    ...s.report,
    ...(s.publishProblem === undefined ? {} : { publishProblem: s.publishProblem }),
  }));
  return {
    /** By profile name. */
    profiles: withCertificates(withCurrentChecks(reports, checks), checks, now),
    /** The runtime controls in effect (a status control only while it sets a status). */
    controls: {
      statuses: stored.statuses.filter((c) => c.status !== undefined && shown(c)),
      overrides: stored.overrides.filter(shown),
    },
    /** Per profile, the name its records live at and the record sets the evaluator last published there. */
    published: items.map((s) => ({ profile: s.report.profile, name: s.ownedName, records: s.published })),
    /** Each hosted zone with owned names (of the profile, when given) and its last reconcile (null: not reconciled yet). */
    zones: zoneIds.map((hostedZoneId) => ({
      hostedZoneId,
      lastReconcile: reconciles.get(hostedZoneId) ?? null,
    })),
  };
}

export function formatZones(zones: StatusSnapshot['zones'], now: number): string {
  if (zones.length === 0) return '';
  const lines = ['zones (last reconcile with what was published):'];
  for (const { hostedZoneId, lastReconcile: last } of zones) {
    if (last === null) {
      lines.push(`  ${hostedZoneId}  not reconciled yet`);
      continue;
    }
    const repaired =
      last.repaired === 0
        ? 'no drift'
        : `${last.repaired} record set${last.repaired === 1 ? '' : 's'} repaired (change ${last.changeId ?? '?'})`;
    const names = `${last.names} owned name${last.names === 1 ? '' : 's'}`;
    lines.push(`  ${hostedZoneId}  ${when(last.at, now)}  ${names}, ${repaired}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A profile's report, with the reason Route 53 refused its last change when it did. */
export type ProfileStatus = ProfileStatusReport & { readonly publishProblem?: PublishProblem };

export function formatReports(
  reports: readonly ProfileStatus[],
  now: number,
  controls: RuntimeControls = NO_CONTROLS,
): string {
  if (reports.length === 0) return 'no profiles evaluated yet\n';
  const lines: string[] = [];
  const controlLines = (profile: string, endpoint: string | undefined, indent: string) => {
    const status = controls.statuses.find((c) => c.profile === profile && c.endpoint === endpoint);
    if (status?.status !== undefined)
      lines.push(`${indent}runtime: ${status.status} ${describeAuthor(status.set)}`);
    const override = controls.overrides.find((o) => o.profile === profile && o.endpoint === endpoint);
    if (override !== undefined) {
      const left = isInEffect(override, now)
        ? `in ${Math.ceil((override.until - now) / 60_000)}m`
        : 'expired';
      lines.push(`${indent}override: ${describeOverride(override)} (${left})`);
    }
  };
  for (const report of reports) {
    lines.push(
      `${report.profile}  ${report.status}${report.stale ? ' [stale]' : ''}  since ${when(report.since, now)}`,
    );
    controlLines(report.profile, undefined, '  ');
    if (report.publishProblem !== undefined) {
      lines.push(
        `  ! Route 53 refused its last change (${when(report.publishProblem.at, now)}): ${report.publishProblem.reasons.join('; ')}`,
      );
    }
    const width = Math.max(...report.endpoints.map((e) => e.endpoint.length));
    for (const endpoint of report.endpoints) {
      lines.push(
        `  ${endpoint.endpoint.padEnd(width)}  ${endpoint.status.padEnd(16)}${endpoint.stale ? ' [stale]' : ''}  since ${when(endpoint.since, now)}  ${endpoint.reason}`,
      );
      if (endpoint.votes.length > 0) {
        const votes = endpoint.votes.map((v) => `${v.region} ${v.vote}${describeChecks(v, now)}`);
        lines.push(`  ${' '.repeat(width)}  ${votes.join(' · ')}`);
      }
      const healthCheck = (endpoint as { healthCheck?: HealthCheckState | null }).healthCheck;
      if (healthCheck !== undefined && healthCheck !== null)
        lines.push(`  ${' '.repeat(width)}  Route 53 health check: ${healthCheck}`);
      const certificate = describeCertificate(endpoint);
      if (certificate !== undefined) lines.push(`  ${' '.repeat(width)}  ${certificate}`);
      controlLines(report.profile, endpoint.endpoint, `  ${' '.repeat(width)}  `);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `certificate shop.example.com (issuer R11): 12 days left, until 2026-12-13 08:00:00Z` */
function describeCertificate({ certificate: c }: EndpointWithCertificate): string | undefined {
  if (c === undefined) return undefined;
  const left = c.daysLeft < 0 ? 'EXPIRED' : `${c.daysLeft} day${c.daysLeft === 1 ? '' : 's'} left`;
  const until = new Date(c.notAfter).toISOString().replace('T', ' ').slice(0, 19);
  return `certificate ${c.subject} (issuer ${c.issuer}): ${left}, until ${until}Z`;
}

/** ` 12ms, checked 3s ago (median 11ms, 6 checks, 0 failed)`: the latest check and its period. */
function describeChecks(vote: CurrentVote, now: number): string {
  const latency = vote.latencyMs === undefined ? '' : ` ${Math.round(vote.latencyMs)}ms`;
  const checked = vote.checkedAt === undefined ? '' : `, checked ${ago(vote.checkedAt, now)} ago`;
  const period = vote.lastPeriod;
  if (period === undefined) return `${latency}${checked}`;
  const median =
    period.medianLatencyMs === undefined ? '' : `median ${Math.round(period.medianLatencyMs)}ms, `;
  return `${latency}${checked} (${median}${period.checks} checks, ${period.failures} failed)`;
}

function when(at: number, now: number): string {
  return `${new Date(at).toISOString().replace('T', ' ').slice(0, 19)}Z (${ago(at, now)} ago)`;
}

function ago(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  return seconds < 120
    ? `${seconds}s`
    : seconds < 7200
      ? `${Math.round(seconds / 60)}m`
      : `${Math.round(seconds / 3600)}h`;
}
