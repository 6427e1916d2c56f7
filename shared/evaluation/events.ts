/** The events the evaluator emits: status changes (with their record changes), Route 53 refusals and drift repairs. */
import { EventDetailType } from '../contracts/events.js';
import type { Profile } from '../profile/types.js';
import type { Change, RecordSet } from '../zone/record-set.js';
import type { StoredStatus } from './stored-status.js';
import { detailTypeOf, type TransitionDetailType, type TransitionRecord } from './transitions.js';
import type { RejectedName } from './zones.js';

/** An endpoint or profile status change; its detail is the transition record. */
export interface StatusEvent {
  /** The event's `detail-type`. */
  readonly kind: TransitionDetailType;
  readonly record: TransitionRecord;
}

/** Route 53 refused one profile's change; the rest of its zone was published without it. */
export interface PublishRejectedEvent {
  readonly kind: typeof EventDetailType.publishRejected;
  /** Stable and unique: `<profile>/rejected/<revision>@<decidedAt ms>` (a consumer drops repeats by it). */
  readonly eventId: string;
  readonly profile: string;
  readonly hostedZoneId: string;
  /** The profile's DNS name: the only name its changes touch. */
  readonly name: string;
  readonly reasons: readonly string[];
  /** The changes that were refused (nothing of them was applied). */
  readonly changes: readonly Change[];
}

/**
 * Someone else changed (or deleted, or added) a record set at a name this deployment owns; the
 * reconcile put back what was published. One event per record set identity.
 */
export interface DriftRepairedEvent {
  readonly kind: typeof EventDetailType.driftRepaired;
  /** Stable and unique: `<profile>/drift/<type> <name>[ <setIdentifier>]@<reconciledAt ms>`. */
  readonly eventId: string;
  readonly profile: string;
  readonly hostedZoneId: string;
  readonly name: string;
  readonly type: RecordSet['type'];
  readonly setIdentifier?: string;
  /** What the zone held (null: nothing — it had been deleted). */
  readonly found: RecordSet | null;
  /** What was written back (null: the record set found was deleted). */
  readonly written: RecordSet | null;
  /** Epoch ms the zone was read. */
  readonly reconciledAt: number;
  readonly changeId: string;
  readonly changeSubmittedAt: number;
  /**
   * When GetChange was first seen answering INSYNC (the outbox publisher asks before it puts the
   * event on the bus); null if the change was still PENDING when the event stopped waiting.
   */
  readonly inSyncAt: number | null;
}

/**
 * An HTTPS endpoint presents a certificate with fewer days left than its profile's
 * `certificateWarningDays`. Once per certificate (per endpoint and notAfter): a renewed
 * certificate that comes near its expiry warns again. A warning, never a failed check.
 */
export interface CertificateExpiringEvent {
  readonly kind: typeof EventDetailType.certificateExpiring;
  /** Stable and unique: `<profile>/<endpoint>/certificate@<notAfter ms>`. */
  readonly eventId: string;
  readonly profile: string;
  readonly endpoint: string;
  /** Epoch ms. */
  readonly notAfter: number;
  readonly subject: string;
  readonly issuer: string;
  /** Whole days left when the tick saw it (rounded down; negative once expired). */
  readonly daysLeft: number;
  readonly certificateWarningDays: number;
  /** The probe region whose check saw it (the soonest to expire, when regions differ). */
  readonly region: string;
  /** Epoch ms of the tick that warned. */
  readonly detectedAt: number;
}

export type EvaluatorEvent =
  StatusEvent | PublishRejectedEvent | DriftRepairedEvent | CertificateExpiringEvent;

export function isStatusEvent(event: EvaluatorEvent): event is StatusEvent {
  return (
    event.kind === EventDetailType.endpointStatusChanged ||
    event.kind === EventDetailType.profileStatusChanged
  );
}

export function statusEvents(records: readonly TransitionRecord[]): StatusEvent[] {
  return records.map((record) => ({ kind: detailTypeOf(record), record }));
}

/** One event per profile whose refusal is new (or whose reasons changed), so a refusal retried every reconcile is not an event storm. */
export function rejectionEvents(
  profiles: readonly Profile[],
  rejected: ReadonlyMap<string, RejectedName & { hostedZoneId: string }>,
  previous: ReadonlyMap<string, StoredStatus>,
  stamp: { readonly decidedAt: number; readonly revisionOf: (profile: string) => number },
): PublishRejectedEvent[] {
  const events: PublishRejectedEvent[] = [];
  for (const profile of profiles) {
    const refused = rejected.get(profile.dnsConfig.fqdn);
    if (refused === undefined) continue;
    const before = previous.get(profile.name)?.publishProblem;
    if (before !== undefined && before.reasons.join('\n') === refused.reasons.join('\n')) continue;
    events.push({
      kind: EventDetailType.publishRejected,
      eventId: `${profile.name}/rejected/${stamp.revisionOf(profile.name)}@${stamp.decidedAt}`,
      profile: profile.name,
      hostedZoneId: refused.hostedZoneId,
      name: refused.name,
      reasons: refused.reasons,
      changes: refused.changes,
    });
  }
  return events;
}
