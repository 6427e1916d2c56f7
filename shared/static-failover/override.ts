/**
 * Steering without the control plane (docs/adr/0011-static-failover.md, "Steering without the
 * control plane"): during a Route 53 control-plane or home-region outage no health check or
 * record can change, but CloudWatch's API is regional. `tm endpoint disable|override` then
 * overwrites the endpoint's target vote alarm, in every probe region, with a definition whose
 * state is fixed: always ALARM (Degraded: the target check turns unhealthy) or never ALARM
 * (Online). The alarm's description records the command, so every reader — the evaluator's
 * alarm diff, `tm status`, the next command — knows it is an operator's, who set it and until when.
 */
import { z } from 'zod';
import { endpointVerdictKey } from '../probe/target.js';
import { failsOver } from '../routing/failover-methods.js';
import type { Profile } from '../profile/types.js';
import { createChecksRegistry, distinctRegions } from './checks.js';
import { voteAlarmNameOf, targetIdOf } from './identity.js';
import { hasVote } from './records.js';
import type { AlarmSpec } from './types.js';

// A malformed `until` or `reason` (not ours: an operator's edit) reads as absent.
const AlarmOverride = z
  .object({
    status: z.enum(['Degraded', 'Online']),
    /** `profile/endpoint` the command named. */
    subject: z.string(),
    /** Who ran it (as a runtime control records it). */
    by: z.string(),
    /** Epoch ms. */
    at: z.number(),
    /** Epoch ms; absent: until a later command ends it (`tm endpoint enable|clear`). */
    until: z.number().optional().catch(undefined),
    reason: z.string().optional().catch(undefined),
  })
  .readonly();
export type AlarmOverride = z.infer<typeof AlarmOverride>;

/** What precedes the override's JSON in the alarm's description. */
const MARK = 'traffic-manager override ';
/** CloudWatch's limit on AlarmDescription. */
const DESCRIPTION_MAX = 1024;

/**
 * The vote alarm with its state fixed. Votes are 0 or 1, so `≥ 0` breaches on every datapoint
 * and `< 0` on none; missing data is treated the same way, so neither depends on the votes.
 */
export function overriddenAlarm(alarm: AlarmSpec, override: AlarmOverride): AlarmSpec {
  const { override: _previous, ...plain } = alarm;
  return {
    ...plain,
    threshold: 0,
    ...(override.status === 'Degraded'
      ? { comparisonOperator: 'GreaterThanOrEqualToThreshold', treatMissingData: 'breaching' }
      : { comparisonOperator: 'LessThanThreshold', treatMissingData: 'notBreaching' }),
    override,
  };
}

/** True while the override holds: until a later command ends it, or its `until` passes. */
export function isHeld(override: AlarmOverride, now: number): boolean {
  return override.until === undefined || now < override.until;
}

/** The AlarmDescription that records the override (at most 1,024 characters: the reason is cut to fit). */
export function describeAlarmOverride(override: AlarmOverride): string {
  const text = MARK + JSON.stringify(override);
  if (text.length <= DESCRIPTION_MAX || override.reason === undefined) return text;
  const over = text.length - DESCRIPTION_MAX;
  return describeAlarmOverride({ ...override, reason: `${override.reason.slice(0, -(over + 1))}…` });
}

/** The override an alarm's description records; undefined for any other description. */
export function alarmOverrideOf(description: string | undefined): AlarmOverride | undefined {
  if (description === undefined || !description.startsWith(MARK)) return undefined;
  try {
    const parsed = AlarmOverride.safeParse(JSON.parse(description.slice(MARK.length)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Where an endpoint's data-plane override goes: its target's vote alarms, one per probe region. */
export interface OverrideTarget {
  readonly targetId: string;
  /** The planned vote alarms (one per probe region), as the evaluator puts them. */
  readonly alarms: readonly AlarmSpec[];
  /** Other `profile/endpoint`s probed the same way: an alarm override takes them out (or in) too. */
  readonly sharedWith: readonly string[];
}

/**
 * The vote alarms behind `profile/endpoint`, or why the data plane cannot steer it: only an
 * external, monitored endpoint of a profile under static failover, in a routing method that fails
 * over, has a target (the rule `planStaticFailover` follows).
 */
export function overrideTargetOf(
  profiles: readonly Profile[],
  options: { readonly deployment: string; readonly defaultProbeRegions: readonly string[] },
  profileName: string,
  endpointName: string,
): OverrideTarget | { readonly problem: string } {
  const profile = profiles.find((p) => p.name === profileName);
  const endpoint = profile?.endpoints.find((e) => e.name === endpointName);
  const subject = `${profileName}/${endpointName}`;
  if (profile === undefined || endpoint === undefined)
    return { problem: `${subject} is not in the definitions` };
  if (!profile.staticFailover) return { problem: `profile "${profileName}" has staticFailover: false` };
  if (!failsOver(profile.trafficRoutingMethod))
    return {
      problem: `a ${profile.trafficRoutingMethod} profile never fails over, so it has no health checks`,
    };
  const kind = endpoint.type === 'external' ? 'always served' : 'nested';
  if (!hasVote(profile, endpoint)) return { problem: `${subject} is ${kind}: it has no vote of its own` };
  const regionsOf = (p: Profile) => distinctRegions(p.probeRegions ?? options.defaultProbeRegions);
  if (regionsOf(profile).length === 0) return { problem: `profile "${profileName}" has no probe regions` };
  const targetId = targetIdOf(endpointVerdictKey(profile, endpoint));
  // Every profile endpoint probed the same way shares the alarms: in each of their probe regions.
  const registry = createChecksRegistry(options.deployment);
  const sharedWith: string[] = [];
  for (const p of profiles) {
    if (!p.staticFailover || regionsOf(p).length === 0) continue;
    for (const e of p.endpoints) {
      if (!hasVote(p, e)) continue;
      const key = endpointVerdictKey(p, e);
      if (targetIdOf(key) !== targetId) continue;
      registry.targetCheck(key, regionsOf(p), p.monitorConfig.regionQuorum);
      if (p.name !== profileName || e.name !== endpointName) sharedWith.push(`${p.name}/${e.name}`);
    }
  }
  const name = voteAlarmNameOf(options.deployment, targetId);
  return { targetId, alarms: registry.alarms().filter((a) => a.name === name), sharedWith };
}
