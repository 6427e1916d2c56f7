/**
 * Votes, alarms and health checks (docs/adr/0011-static-failover.md, "Votes, alarms and
 * checks"): per target and probe region a `Vote` metric, its alarm and a CLOUDWATCH_METRIC
 * check; per target one CALCULATED check with the cross-region rule; forced checks for
 * overrides; the guard. Collected in a registry so targets shared by profiles are planned once.
 */
import { VOTE_PERIOD_SECONDS } from '../monitor/failover-time.js';
import { upVotesNeeded } from '../monitor/quorum.js';
import type { RegionQuorum } from '../profile/types.js';
import type { MonitorOverrideItem } from '../state/items.js';
import { EndpointMonitorStatus } from '../status/vocabulary.js';
import { checkIdOf, guardAlarmNameOf, targetIdOf, voteAlarmNameOf } from './identity.js';
import {
  type AlarmSpec,
  CheckRole,
  EVALUATOR_METRIC,
  type HealthCheckSpec,
  type MetricSpec,
  STATIC_FAILOVER_NAMESPACE,
  VOTE_METRIC,
  type VoteTarget,
} from './types.js';

export function distinctRegions(regions: readonly string[]): string[] {
  return [...new Set(regions)].sort();
}

export type ChecksRegistry = ReturnType<typeof createChecksRegistry>;

export function createChecksRegistry(deployment: string) {
  const targets = new Map<string, VoteTarget>();
  const metrics = new Map<string, MetricSpec>();
  const alarms = new Map<string, AlarmSpec>();
  const leaves = new Map<string, HealthCheckSpec>();
  const calculated = new Map<string, HealthCheckSpec>();
  const dimensions = (target?: string) => [
    { name: 'Deployment', value: deployment },
    ...(target === undefined ? [] : [{ name: 'Target', value: target }]),
  ];

  const metricCheck = (
    region: string,
    alarm: Omit<AlarmSpec, 'region' | 'namespace' | 'statistic' | 'periodSeconds'>,
    role: CheckRole,
    description: string,
  ): string => {
    const metric = {
      region,
      namespace: STATIC_FAILOVER_NAMESPACE,
      metricName: alarm.metricName,
      dimensions: alarm.dimensions,
    };
    metrics.set(`${region}|${alarm.name}`, metric);
    alarms.set(`${region}|${alarm.name}`, {
      ...metric,
      ...alarm,
      statistic: 'Minimum',
      periodSeconds: VOTE_PERIOD_SECONDS,
    });
    const id = checkIdOf(deployment, 'r', `${role}|${region}|${alarm.name}`);
    leaves.set(id, {
      id,
      role,
      description,
      type: 'CLOUDWATCH_METRIC',
      alarm: { region, name: alarm.name },
      insufficientDataHealthStatus: 'LastKnownStatus',
    });
    return id;
  };

  const calculatedCheck = (role: CheckRole, children: string[], threshold: number, description: string) => {
    const id = checkIdOf(deployment, 'c', `${role}|${threshold}|${[...children].sort().join(',')}`);
    calculated.set(id, { id, role, description, type: 'CALCULATED', children, healthThreshold: threshold });
    return id;
  };

  const regionChecks = (verdictKey: string, regions: readonly string[]) => {
    const targetId = targetIdOf(verdictKey);
    const sorted = distinctRegions(regions);
    const known = targets.get(targetId);
    targets.set(targetId, {
      id: targetId,
      verdictKey,
      regions: distinctRegions([...(known?.regions ?? []), ...sorted]),
    });
    const alarmName = voteAlarmNameOf(deployment, targetId);
    const ids = sorted.map((region) =>
      metricCheck(
        region,
        {
          name: alarmName,
          metricName: VOTE_METRIC,
          dimensions: dimensions(targetId),
          evaluationPeriods: 1,
          datapointsToAlarm: 1,
          threshold: 1,
          comparisonOperator: 'LessThanThreshold',
          treatMissingData: 'missing',
        },
        CheckRole.Region,
        `vote of ${targetId} in ${region}`,
      ),
    );
    return { targetId, ids };
  };

  return {
    /** The check a monitored endpoint's record carries; registers everything behind it. */
    targetCheck(verdictKey: string, regions: readonly string[], quorum: RegionQuorum | undefined) {
      const { targetId, ids } = regionChecks(verdictKey, regions);
      const threshold = upVotesNeeded(quorum, ids.length);
      if (ids.length === 1 && threshold === 1) return ids[0] as string;
      return calculatedCheck(
        CheckRole.Target,
        ids,
        threshold,
        `${targetId}: ${threshold} of ${ids.length} regions up${quorum === undefined ? '' : ` (quorum ${quorum})`}`,
      );
    },
    /** An override's check: always unhealthy (Degraded) or always healthy (Online). */
    forcedCheck(verdictKey: string, regions: readonly string[], status: MonitorOverrideItem['status']) {
      const { targetId, ids } = regionChecks(verdictKey, regions);
      return status === EndpointMonitorStatus.Degraded
        ? calculatedCheck(
            CheckRole.ForcedDown,
            ids,
            ids.length + 1,
            `${targetId}: overridden Degraded (always unhealthy)`,
          )
        : calculatedCheck(CheckRole.ForcedUp, ids, 0, `${targetId}: overridden Online (always healthy)`);
    },
    /** The guard over every probe region of the deployment. */
    guardCheck(regions: readonly string[]) {
      const sorted = distinctRegions(regions);
      const ids = sorted.map((region) =>
        metricCheck(
          region,
          {
            name: guardAlarmNameOf(deployment),
            metricName: EVALUATOR_METRIC,
            dimensions: dimensions(),
            evaluationPeriods: 2,
            datapointsToAlarm: 2,
            threshold: 1,
            comparisonOperator: 'LessThanThreshold',
            treatMissingData: 'breaching',
          },
          CheckRole.GuardRegion,
          `evaluator publishing, seen in ${region}`,
        ),
      );
      const majority = Math.floor(ids.length / 2) + 1;
      return calculatedCheck(
        CheckRole.Guard,
        ids,
        majority,
        `evaluator publishing: ${majority} of ${ids.length} regions`,
      );
    },
    targets: () => [...targets.values()],
    metrics: () => [...metrics.values()],
    alarms: () => [...alarms.values()],
    /** Children first. */
    healthChecks: () => [...leaves.values(), ...calculated.values()],
  };
}
