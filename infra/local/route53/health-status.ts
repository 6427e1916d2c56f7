/**
 * The status of the local Route 53's health checks: what its data plane (the
 * DNS server, GetHealthCheckStatus) sees. Deterministic: the status follows
 * the alarm states and the checks' settings, plus the one memory Route 53
 * keeps, a CLOUDWATCH_METRIC check's last known status.
 * https://docs.aws.amazon.com/Route53/latest/APIReference/API_HealthCheckConfig.html
 * https://docs.aws.amazon.com/Route53/latest/DeveloperGuide/dns-failover-determining-health-of-endpoints.html
 */
import type { AlarmStates } from '../cloudwatch/alarm-states.js';
import type { HealthCheck, HealthCheckStore } from './health-checks.js';

export class HealthEvaluator {
  /** Last status each CLOUDWATCH_METRIC check took from an OK or ALARM state (before Inverted). */
  private readonly lastKnown = new Map<string, boolean>();

  constructor(
    private readonly checks: Pick<HealthCheckStore, 'find'>,
    private readonly alarms: AlarmStates,
  ) {}

  /**
   * Healthy or not. A disabled check is healthy (Route 53 "considers the status of the health
   * check to always be healthy"); Inverted flips the result; a deleted check counts as healthy,
   * as a record without a check does (Route 53 calls its status unpredictable).
   */
  isHealthy(id: string): boolean {
    const check = this.checks.find(id);
    if (check === undefined || check.config.disabled) return true;
    const healthy = check.config.type === 'CALCULATED' ? this.calculated(check) : this.alarm(check);
    return check.config.inverted ? !healthy : healthy;
  }

  /** Reads every alarm check once, so LastKnownStatus remembers states no query happened to see. */
  observe(ids: Iterable<string>): void {
    for (const id of ids) {
      const check = this.checks.find(id);
      if (check?.config.type === 'CLOUDWATCH_METRIC' && !check.config.disabled) this.alarm(check);
    }
  }

  forget(id: string): void {
    this.lastKnown.delete(id);
  }

  /** Healthy when at least HealthThreshold children are healthy (0: always; above the count: never). */
  private calculated(check: HealthCheck): boolean {
    const children = check.config.childHealthChecks ?? [];
    const healthy = children.filter((child) => this.isHealthy(child)).length;
    return healthy >= (check.config.healthThreshold ?? 0);
  }

  /** OK → healthy, ALARM → unhealthy; INSUFFICIENT_DATA or no such alarm → InsufficientDataHealthStatus. */
  private alarm(check: HealthCheck): boolean {
    const alarm = check.config.alarmIdentifier;
    const state = alarm === undefined ? undefined : this.alarms.stateOf(alarm.region, alarm.name);
    if (state === 'OK' || state === 'ALARM') {
      this.lastKnown.set(check.id, state === 'OK');
      return state === 'OK';
    }
    switch (check.config.insufficientDataHealthStatus ?? 'LastKnownStatus') {
      case 'Healthy':
        return true;
      case 'Unhealthy':
        return false;
      case 'LastKnownStatus':
        // A new check that has never seen OK or ALARM is healthy.
        return this.lastKnown.get(check.id) ?? true;
    }
  }
}
