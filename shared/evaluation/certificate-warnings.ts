/**
 * Certificate expiry, judged each minute by the evaluator tick: per HTTPS endpoint with a
 * status, the certificate the probe regions' items carry (the soonest to expire over the regions), its
 * days left, and whether fewer than the profile's `certificateWarningDays` are left. An
 * endpoint warns once per certificate: a `CertificateExpiring` event when the certificate is
 * in the window and is not the one last warned about (CERTIFICATE items). Certificates are not
 * validated: this never changes a status. Pure: no I/O, no clock.
 */
import { EventDetailType } from '../contracts/events.js';
import { isExpiring, soonestCertificates, daysLeft } from '../monitor/certificate-summary.js';
import { DEFAULTS } from '../profile/defaults.js';
import type { Profile } from '../profile/types.js';
import type { CertificateWarningItem } from '../state/items.js';
import type { RegionChecks } from '../monitor/region-checks.js';
import type { ProfileStatusReport } from '../status/report.js';
import type { CertificateExpiringEvent } from './events.js';
import type { OutboxEntry } from './outbox.js';

const DAY_MS = 86_400_000;

export interface EndpointCertificateCheck {
  readonly profile: string;
  readonly endpoint: string;
  /** Days left, fractional (the metric). */
  readonly daysLeft: number;
  readonly expiring: boolean;
  readonly warning: CertificateExpiringEvent;
}

/** Every HTTPS endpoint of a defined profile whose certificate a probe region's items carry. */
export function certificateChecks(
  profiles: readonly Profile[],
  reports: readonly ProfileStatusReport[],
  regionChecks: readonly RegionChecks[],
  now: number,
): EndpointCertificateCheck[] {
  const soonest = soonestCertificates(regionChecks);
  const defined = new Map(profiles.map((p) => [p.name, p]));
  const checks: EndpointCertificateCheck[] = [];
  for (const report of reports) {
    const monitor = defined.get(report.profile)?.monitorConfig;
    if (monitor?.protocol !== 'HTTPS') continue;
    const warningDays = monitor.certificateWarningDays ?? DEFAULTS.certificateWarningDays;
    for (const endpoint of report.endpoints) {
      const seen = endpoint.targetKey === undefined ? undefined : soonest.get(endpoint.targetKey);
      if (seen === undefined) continue;
      checks.push({
        profile: report.profile,
        endpoint: endpoint.endpoint,
        daysLeft: Math.round(((seen.notAfter - now) / DAY_MS) * 100) / 100,
        expiring: isExpiring(seen.notAfter, now, warningDays),
        warning: {
          kind: EventDetailType.certificateExpiring,
          eventId: `${report.profile}/${endpoint.endpoint}/certificate@${seen.notAfter}`,
          profile: report.profile,
          endpoint: endpoint.endpoint,
          notAfter: seen.notAfter,
          subject: seen.subject,
          issuer: seen.issuer,
          daysLeft: daysLeft(seen.notAfter, now),
          certificateWarningDays: warningDays,
          region: seen.region,
          detectedAt: now,
        },
      });
    }
  }
  return checks;
}

/** The warnings to send: expiring certificates other than the one each endpoint last warned about. */
export function newWarnings(
  checks: readonly EndpointCertificateCheck[],
  warned: readonly CertificateWarningItem[],
): CertificateExpiringEvent[] {
  const last = new Map(warned.map((w) => [`${w.profile}\n${w.endpoint}`, w.notAfter]));
  return checks
    .filter((c) => c.expiring && last.get(`${c.profile}\n${c.endpoint}`) !== c.warning.notAfter)
    .map((c) => c.warning);
}

/** A warning's outbox entry (it waits for no Route 53 change) and the CERTIFICATE item written with it. */
export function warningWrite(event: CertificateExpiringEvent): {
  readonly entry: OutboxEntry;
  readonly warned: CertificateWarningItem;
} {
  return {
    entry: {
      profile: event.profile,
      revision: 0,
      part: 0,
      decidedAt: event.detectedAt,
      changeIds: [],
      certificate: { endpoint: event.endpoint, notAfter: event.notAfter },
      events: [event],
    },
    warned: {
      profile: event.profile,
      endpoint: event.endpoint,
      notAfter: event.notAfter,
      warnedAt: event.detectedAt,
      eventId: event.eventId,
    },
  };
}
