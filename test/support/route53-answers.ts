/**
 * A test oracle (not product code): which records Route 53's data plane answers from a zone
 * whose records carry health checks, following the documented rules
 * (docs/adr/0011-static-failover.md, "How Route 53 answers when records carry health"):
 *
 * 1. A record is healthy when its health check (if any) is healthy and, for an alias with
 *    EvaluateTargetHealth, when its target name has at least one healthy record of its type
 *    (API reference AliasTarget; "How Amazon Route 53 chooses records when health checking is
 *    configured"). A record with neither is healthy.
 * 2. CLOUDWATCH_METRIC: healthy in OK, unhealthy in ALARM; INSUFFICIENT_DATA with
 *    LastKnownStatus keeps the last status, and a new check is healthy (HealthCheckConfig).
 *    CALCULATED: healthy while at least HealthThreshold children are healthy (a threshold
 *    above the number of children: never; 0: always).
 * 3. Failover: primary if healthy, else secondary if healthy, else the primary
 *    (ResourceRecordSet, Failover).
 * 4. Weighted, latency: among the healthy records; if none is healthy, all count as healthy
 *    (ResourceRecordSet, HealthCheckId). An unhealthy alias is backed out of ("How health
 *    checks work in complex configurations").
 * 5. Multivalue: up to 8 healthy records; if none is healthy, up to 8 unhealthy ones.
 * 6. Geolocation and CIDR records are returned by location; with no checks on them (our
 *    structure puts none) they are compared as record sets, not resolved here.
 */
import type { HealthCheckSpec, StaticRecord } from '../../shared/static-failover/types.js';
import type { RecordType } from '../../shared/zone/record-set.js';

export type AlarmState = 'OK' | 'ALARM' | 'INSUFFICIENT_DATA';

export interface Route53DataPlane {
  readonly records: readonly StaticRecord[];
  readonly healthChecks: readonly HealthCheckSpec[];
  /** Alarm state by `region|alarm name`; absent: INSUFFICIENT_DATA. */
  readonly alarms: ReadonlyMap<string, AlarmState>;
  /** Last known status of CLOUDWATCH_METRIC checks by id; absent: new (healthy). */
  readonly lastKnown?: ReadonlyMap<string, boolean>;
}

export interface Resolution {
  /** Records answered (multivalue: all values of one answer; weighted: every candidate). */
  readonly records: StaticRecord[];
}

export function createOracle(plane: Route53DataPlane) {
  const checks = new Map(plane.healthChecks.map((c) => [c.id, c]));
  const memo = new Map<string, boolean>();

  const checkHealthy = (id: string): boolean => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const check = checks.get(id);
    if (check === undefined) throw new Error(`record references unknown health check ${id}`);
    let healthy: boolean;
    if (check.type === 'CLOUDWATCH_METRIC') {
      const state = plane.alarms.get(`${check.alarm.region}|${check.alarm.name}`) ?? 'INSUFFICIENT_DATA';
      healthy = state === 'OK' ? true : state === 'ALARM' ? false : (plane.lastKnown?.get(id) ?? true);
    } else {
      healthy = check.children.filter(checkHealthy).length >= check.healthThreshold;
    }
    memo.set(id, healthy);
    return healthy;
  };

  const group = (name: string, type: RecordType) =>
    plane.records.filter((r) => r.name === name && r.type === type);

  const recordHealthy = (record: StaticRecord, seen: ReadonlySet<string> = new Set()): boolean => {
    if (record.healthCheckRef !== undefined && !checkHealthy(record.healthCheckRef)) return false;
    const alias = record.aliasTarget;
    if (alias === undefined || !alias.evaluateTargetHealth) return true;
    if (seen.has(alias.dnsName)) throw new Error(`alias loop at ${alias.dnsName}`);
    const next = new Set([...seen, alias.dnsName]);
    return group(alias.dnsName, record.type).some((r) => recordHealthy(r, next));
  };

  /** The records chosen at one name (rules 3–5); `regionOrder`: latency preference of the client. */
  const choose = (name: string, type: RecordType, regionOrder: readonly string[]): StaticRecord[] => {
    const records = group(name, type);
    const healthy = records.filter((r) => recordHealthy(r));
    const pool = healthy.length > 0 ? healthy : records;
    const [first] = records;
    if (first === undefined) return [];
    if (first.failover !== undefined) {
      const primary = records.find((r) => r.failover === 'PRIMARY');
      const secondary = records.find((r) => r.failover === 'SECONDARY');
      if (primary !== undefined && recordHealthy(primary)) return [primary];
      if (secondary !== undefined && recordHealthy(secondary)) return [secondary];
      return primary === undefined ? [] : [primary];
    }
    if (first.region !== undefined) {
      for (const region of regionOrder) {
        const chosen = pool.find((r) => r.region === region);
        if (chosen !== undefined) return [chosen];
      }
      return [];
    }
    if (first.multiValueAnswer === true) return pool.slice(0, 8);
    return pool; // weighted (every candidate) or a simple record
  };

  /**
   * Follows aliases while `follow(target)` says so; returns the records answered. An alias
   * not followed (e.g. to another profile) is returned as it is.
   */
  const resolve = (
    name: string,
    type: RecordType,
    options: { readonly regionOrder?: readonly string[]; readonly follow: (target: string) => boolean },
  ): Resolution => {
    const out: StaticRecord[] = [];
    const visit = (at: string, depth: number) => {
      if (depth > 32) throw new Error(`alias chain too deep at ${at}`);
      for (const record of choose(at, type, options.regionOrder ?? [])) {
        const target = record.aliasTarget?.dnsName;
        if (target !== undefined && options.follow(target)) visit(target, depth + 1);
        else out.push(record);
      }
    };
    visit(name, 0);
    return { records: out };
  };

  return { checkHealthy, recordHealthy, choose, resolve };
}
