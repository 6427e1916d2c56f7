/**
 * The certificate each HTTPS judge last saw, kept by the worker and stored in its shard's
 * certificates item, written only at the end of a round in which a certificate changed (first
 * seen, renewed, replaced, dropped): keeping it adds no write per check or per period. Stored
 * by verdict key as a short tuple: about 60 bytes beside the two names (each at most 64
 * characters), compressed in the item.
 */
import type { PeerCertificate } from '../probe/certificate.js';

/** [notAfter (epoch ms), subject, issuer] */
export type StoredCertificate = readonly [number, string, string];

const DAY_MS = 86_400_000;

export function toStoredCertificate(certificate: PeerCertificate): StoredCertificate {
  return [certificate.notAfter, certificate.subject, certificate.issuer];
}

export function sameCertificate(a: StoredCertificate | undefined, b: StoredCertificate): boolean {
  return a !== undefined && a[0] === b[0] && a[1] === b[1] && a[2] === b[2];
}

/** Whole days left until `notAfter` (rounded down; negative once expired). */
export function daysLeft(notAfter: number, now: number): number {
  return Math.floor((notAfter - now) / DAY_MS);
}

/** Whether fewer than `warningDays` days are left (the warning window). */
export function isExpiring(notAfter: number, now: number, warningDays: number): boolean {
  return notAfter - now < warningDays * DAY_MS;
}

/**
 * The certificates that fit in `budgetBytes` of JSON as one object, the soonest to expire first
 * (the rest are left out): how a shard keeps its certificates item under DynamoDB's 400 KB limit.
 */
export function fitCertificates(
  certificates: ReadonlyMap<string, StoredCertificate>,
  budgetBytes: number,
): Record<string, StoredCertificate> {
  const fitted: Record<string, StoredCertificate> = {};
  let used = 2;
  for (const [key, certificate] of [...certificates].sort(([, a], [, b]) => a[0] - b[0])) {
    const size = JSON.stringify(key).length + JSON.stringify(certificate).length + 2;
    if (used + size > budgetBytes) break;
    fitted[key] = certificate;
    used += size;
  }
  return fitted;
}

/**
 * Per verdict key, the certificate the items carry that expires soonest (regions or shards
 * may see different ones: the soonest is the one to warn about), with the region that saw it.
 */
export function soonestCertificates(
  items: readonly {
    readonly region: string;
    readonly certificates?: Readonly<Record<string, StoredCertificate>>;
  }[],
): Map<string, PeerCertificate & { readonly region: string }> {
  const soonest = new Map<string, PeerCertificate & { readonly region: string }>();
  for (const item of items) {
    for (const [key, [notAfter, subject, issuer]] of Object.entries(item.certificates ?? {})) {
      const seen = soonest.get(key);
      if (seen === undefined || notAfter < seen.notAfter)
        soonest.set(key, { notAfter, subject, issuer, region: item.region });
    }
  }
  return soonest;
}
