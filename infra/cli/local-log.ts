/**
 * What `tm local` prints for what the local stack reports: one line per evaluator event, a
 * notice when a profile starts or stops being served by the all-degraded rule, one line per
 * DNS change. The stack emits the events and changes (`onEvent`, `onDnsChanges`); the lines
 * are made here.
 */
import { EventDetailType } from '../../shared/contracts/events.js';
import { isStatusEvent, type EvaluatorEvent } from '../../functions/evaluator/ports.js';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';
import type { Profile } from '../../shared/profile/types.js';
import { servesAllDegraded } from '../../shared/routing/eligibility.js';
import type { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import type { Change, RecordSet } from '../../shared/zone/record-set.js';
import { allDegradedAnswer, profileFailsOver } from './all-degraded-answer.js';

/** The stack's `onEvent` and `onDnsChanges`, printing their lines to `log`. */
export function localLog(log: (line: string) => void) {
  let profiles: readonly Profile[] = [];
  const allDegraded = allDegradedNotices((name) => profiles.find((p) => p.name === name));
  return {
    onEvent(event: EvaluatorEvent, current: readonly Profile[]): void {
      profiles = current;
      const line = describeEvent(event);
      if (line !== undefined) log(line);
      const notice = isStatusEvent(event) ? allDegraded(event.record) : undefined;
      if (notice !== undefined) log(notice);
    },
    onDnsChanges(changes: readonly Change[]): void {
      for (const line of describeDnsChanges(changes)) log(line);
    },
  };
}

/** One log line per event, e.g. `shop/east Online → Degraded: 4 consecutive failures (tolerated 3) in 2/3 regions`. */
function describeEvent(event: EvaluatorEvent): string | undefined {
  if (event.kind === EventDetailType.publishRejected)
    return `${event.profile}: Route 53 refused the change at ${event.name}: ${event.reasons.join('; ')}`;
  if (event.kind === EventDetailType.driftRepaired) {
    const show = (r: RecordSet | null) => (r === null ? 'nothing' : targetOf(r));
    const set = event.setIdentifier === undefined ? '' : ` [${event.setIdentifier}]`;
    return `drift repaired at ${event.name} ${event.type}${set} (${event.profile}): found ${show(event.found)}, wrote ${show(event.written)}`;
  }
  if (event.kind === EventDetailType.certificateExpiring)
    return `${event.profile}/${event.endpoint}: certificate ${event.subject} (issuer ${event.issuer}) expires in ${event.daysLeft} days (${new Date(event.notAfter).toISOString()}; warning at ${event.certificateWarningDays})`;
  return describeTransition(event.record);
}

function describeTransition(record: TransitionRecord): string {
  const subject =
    record.endpoint === undefined ? `${record.profile} (profile)` : `${record.profile}/${record.endpoint}`;
  const stale = record.stale ? ' [stale data: last status kept]' : '';
  if (record.from === record.to) {
    return record.stale ? `${subject} ${record.to}${stale}` : `${subject} ${record.to}: fresh data again`;
  }
  return `${subject} ${record.from ?? '(new)'} → ${record.to}: ${record.reason}${stale}`;
}

/**
 * Follows the endpoint statuses the events report and says when a profile starts (or stops)
 * being served by the "all degraded" rule — the DNS change alone would look like a failover —
 * and what DNS then answers, which depends on the routing method (`allDegradedAnswer`).
 */
export function allDegradedNotices(
  profileOf: (name: string) => Profile | undefined,
): (record: TransitionRecord) => string | undefined {
  const statuses = new Map<string, Map<string, EndpointMonitorStatus>>();
  const serving = new Set<string>();
  return (record) => {
    if (record.endpoint === undefined) return undefined;
    const endpoints = statuses.get(record.profile) ?? new Map<string, EndpointMonitorStatus>();
    endpoints.set(record.endpoint, record.to as EndpointMonitorStatus);
    statuses.set(record.profile, endpoints);
    const now = servesAllDegraded([...endpoints.values()]);
    if (now === serving.has(record.profile)) return undefined;
    if (now) {
      serving.add(record.profile);
      return `${record.profile}: every endpoint is Degraded — DNS ${allDegradedAnswer(profileOf(record.profile), endpoints)}; the profile shows Degraded`;
    }
    serving.delete(record.profile);
    const again = profileFailsOver(profileOf(record.profile))
      ? 'with the available endpoints only'
      : 'as before';
    return `${record.profile}: ${record.endpoint} is ${record.to} — DNS answers ${again} again`;
  };
}

/** `dns shop.example.com A: UPSERT 192.0.2.10` per change. */
function describeDnsChanges(changes: readonly Change[]): string[] {
  return changes.map((change) => {
    const record = change.recordSet;
    const set = record.setIdentifier === undefined ? '' : ` [${record.setIdentifier}]`;
    return `dns ${change.action.padEnd(6)} ${record.name} ${record.type}${set} ${targetOf(record)}`;
  });
}

function targetOf(record: RecordSet): string {
  return record.aliasTarget === undefined ? record.values.join(' ') : `ALIAS ${record.aliasTarget.dnsName}`;
}
