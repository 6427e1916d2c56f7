/**
 * `tm endpoint disable|enable|override|clear` through the data plane
 * (docs/adr/0011-static-failover.md, "Steering without the control plane"): when the home
 * region is unreachable, or the evaluator's Route 53 calls fail, a command cannot reach DNS
 * through the table and the evaluator. It then overwrites the endpoint's target vote alarm in
 * every probe region (CloudWatch's API is regional) with one whose state is fixed
 * (shared/static-failover/override.ts); Route 53's health checks follow it, and DNS answers from
 * the static path without the endpoint. `enable`, `clear` and `override --status Online` put the
 * planned alarm back wherever an override holds it — so the command that comes last decides.
 */
import { cloudWatchClient } from '../../functions/shared/aws-clients.js';
import { CloudWatchAlarmGateway } from '../../functions/evaluator/alarm-gateway.js';
import { reasonOf } from '../../functions/evaluator/publishing-state.js';
import { ALARM_EVALUATION_SECONDS, HEALTH_CHECK_PICKUP_SECONDS } from '../../shared/monitor/failover-time.js';
import type { ControlAction } from '../../shared/control/operations.js';
import { distinctRegions } from '../../shared/static-failover/checks.js';
import {
  isHeld,
  overriddenAlarm,
  overrideTargetOf,
  type AlarmOverride,
} from '../../shared/static-failover/override.js';
import type { DeployedConfig } from '../../functions/shared/config-reader.js';
import { EnvironmentVariable } from '../../shared/contracts/environment.js';
import { call } from './fault.js';
import type { Output } from './io.js';
import { loadProfilesFor } from './load-profiles.js';
import type { Stack } from './stack.js';
import type { AlarmSpec } from '../../shared/static-failover/types.js';
import { LOCAL_CREDENTIALS } from '../local/home-table.js';
import type { LocalStackPointer } from '../local/state-file.js';

/** What steering needs: the deployment's profiles and probe regions, and CloudWatch in each region. */
export type DataPlane = NonNullable<Awaited<ReturnType<typeof dataPlaneOf>>>;

/** CloudWatch of a deployment (the SDK's configuration, region by region) or of the local stack. */
function alarmGatewayOf(local: LocalStackPointer | undefined): CloudWatchAlarmGateway {
  return new CloudWatchAlarmGateway((region) =>
    local?.cloudWatchEndpoint === undefined
      ? cloudWatchClient({ region })
      : cloudWatchClient({ endpoint: local.cloudWatchEndpoint, region, credentials: LOCAL_CREDENTIALS }),
  );
}

/**
 * The deployment as the data plane needs it, or undefined: its profiles from the table
 * (`deployed`), else from --definitions, else from the local stack's control endpoint; its name
 * from the local stack or STATIC_FAILOVER_DEPLOYMENT.
 */
export async function dataPlaneOf(
  stack: Stack,
  options: { readonly definitions?: string; readonly probeRegions?: readonly string[] },
  deployed: DeployedConfig | undefined,
  stderr: Output,
) {
  const deployment = stack.pointer?.deployment ?? process.env[EnvironmentVariable.staticFailoverDeployment];
  if (deployment === undefined || deployment === '') return undefined;
  let config = deployed;
  if (options.definitions !== undefined) {
    const profiles = await loadProfilesFor(
      'endpoint',
      options.definitions,
      stderr,
      (n) => `tm endpoint: ${options.definitions} has ${n} ${n === 1 ? 'problem' : 'problems'}`,
    );
    if (profiles === undefined) return undefined;
    config = { profiles, defaultProbeRegions: options.probeRegions ?? deployed?.defaultProbeRegions ?? [] };
  } else if (config === undefined && stack.pointer?.controlEndpoint !== undefined) {
    config = await call<DeployedConfig>(stack.pointer, 'GET', '/config').catch(() => undefined);
  }
  if (config === undefined) return undefined;
  return {
    deployment,
    profiles: config.profiles,
    defaultProbeRegions: options.probeRegions ?? config.defaultProbeRegions,
    alarms: alarmGatewayOf(stack.pointer),
  };
}

/** An outage-time override that holds a target's vote alarm, with the probe regions it holds in. */
export interface HeldOverride extends AlarmOverride {
  readonly alarm: string;
  readonly regions: readonly string[];
}

/**
 * Every outage-time override holding one of the deployment's vote alarms, read in each probe
 * region (DescribeAlarms by the deployment's prefix); a region whose CloudWatch does not answer
 * is named in `unread`.
 */
export async function heldOverrides(
  plane: DataPlane,
  now: number,
): Promise<{ held: HeldOverride[]; unread: string[] }> {
  const regions = distinctRegions([
    ...plane.defaultProbeRegions,
    ...plane.profiles.flatMap((p) => p.probeRegions ?? []),
  ]);
  const unread: string[] = [];
  const byAlarm = new Map<string, HeldOverride>();
  await Promise.all(
    regions.map(async (region) => {
      try {
        for (const alarm of await plane.alarms.describe(region, plane.deployment)) {
          if (alarm.override === undefined || !isHeld(alarm.override, now)) continue;
          const key = `${alarm.name}|${JSON.stringify(alarm.override)}`;
          const known = byAlarm.get(key);
          byAlarm.set(key, {
            ...alarm.override,
            alarm: alarm.name,
            regions: [...(known?.regions ?? []), region],
          });
        }
      } catch {
        unread.push(region);
      }
    }),
  );
  const held = [...byAlarm.values()]
    .map((o) => ({ ...o, regions: [...o.regions].sort() }))
    .sort((a, b) => a.subject.localeCompare(b.subject));
  return { held, unread: unread.sort() };
}

/** Seconds from the alarm's overwrite to Route 53 answering by it: the next evaluation and the pickup. */
export const STEERING_SECONDS = ALARM_EVALUATION_SECONDS + HEALTH_CHECK_PICKUP_SECONDS;

export interface Steering {
  /** Lines for stdout, each starting `  data plane: ` or indented under it. */
  readonly lines: readonly string[];
  /** Every probe region took it (or had nothing to put back). */
  readonly ok: boolean;
}

/**
 * What `action` writes into the probe regions: an override (disable, override) wherever asked,
 * or the planned alarm back where an override holds it (enable, clear, override Online).
 */
export async function steer(
  plane: DataPlane,
  action: ControlAction,
  caller: { readonly by: string; readonly reason?: string },
  now: number,
  options: { readonly override: boolean },
): Promise<Steering> {
  if (action.endpoint === undefined)
    return {
      ok: !options.override,
      lines: !options.override
        ? []
        : [
            '  data plane: a whole profile cannot be steered there (its records would have to change): tm profile disable|enable waits for the home region and Route 53',
          ],
    };
  // Override where asked; else put the planned alarm back where an override holds it.
  const override = options.override ? overrideOf(action, caller, now) : undefined;
  if (override === undefined && !endsOverride(action)) return { ok: true, lines: [] };
  const target = overrideTargetOf(plane.profiles, plane, action.profile, action.endpoint);
  if ('problem' in target)
    // Nothing can hold an override there, so ending one has nothing to do.
    return override === undefined
      ? { ok: true, lines: [] }
      : {
          ok: false,
          lines: [`  data plane: cannot steer ${action.profile}/${action.endpoint}: ${target.problem}`],
        };
  const write = async (alarm: AlarmSpec): Promise<'set' | 'restored' | 'free'> => {
    if (override !== undefined) {
      await plane.alarms.put(overriddenAlarm(alarm, override));
      return 'set';
    }
    const current = await plane.alarms.describeOne(alarm.region, alarm.name);
    if (current?.override === undefined) return 'free';
    await plane.alarms.put(alarm);
    return 'restored';
  };
  const results = await Promise.all(
    target.alarms.map((alarm) =>
      write(alarm).then(
        (outcome) => ({ region: alarm.region, outcome, problem: undefined }),
        (error: unknown) => ({ region: alarm.region, outcome: undefined, problem: reasonOf(error) }),
      ),
    ),
  );
  const regions = (outcome: string) => results.filter((r) => r.outcome === outcome).map((r) => r.region);
  const refused = results.filter((r) => r.problem !== undefined);
  const lines: string[] = [];
  const subject = `${action.profile}/${action.endpoint}`;
  if (regions('set').length > 0 && override !== undefined)
    lines.push(
      `  data plane: ${subject} forced ${override.status === 'Degraded' ? 'unhealthy' : 'healthy'} by its vote alarm (${target.targetId}) in ${regions('set').join(', ')}; ` +
        `the static path answers by it within ${STEERING_SECONDS} s + the TTL, held ${override.until === undefined ? 'until tm endpoint enable or clear' : `until ${new Date(override.until).toISOString()}`}`,
    );
  if (regions('restored').length > 0)
    lines.push(
      `  data plane: ${subject}'s vote alarm (${target.targetId}) back to the probes' votes in ${regions('restored').join(', ')}`,
    );
  for (const { region, problem } of refused)
    lines.push(`  data plane: CloudWatch in ${region} refused: ${problem}`);
  if (lines.length > 0 && target.sharedWith.length > 0)
    lines.push(`    also ${target.sharedWith.join(', ')}: probed the same way, they share the alarm`);
  return { ok: refused.length === 0, lines };
}

function endsOverride(action: ControlAction): boolean {
  return (
    action.kind === 'enable' ||
    action.kind === 'clear' ||
    (action.kind === 'override' && action.status === 'Online')
  );
}

/** The override an action asks the data plane for; undefined for one that ends it. */
function overrideOf(
  action: ControlAction,
  caller: { readonly by: string; readonly reason?: string },
  now: number,
): AlarmOverride | undefined {
  const base = {
    subject: `${action.profile}/${action.endpoint ?? '*'}`,
    by: caller.by,
    at: now,
    ...(caller.reason === undefined ? {} : { reason: caller.reason }),
  };
  if (action.kind === 'disable') return { ...base, status: 'Degraded' };
  if (action.kind === 'override') return { ...base, status: action.status, until: now + action.forMs };
  return undefined;
}
