/**
 * The certificate each HTTPS endpoint presents, for `tm status` and the status page: from the
 * certificate items of every region (shared/monitor/region-checks.ts), the one that expires
 * soonest, with its whole days left.
 */
import { daysLeft, soonestCertificates } from '../monitor/certificate-summary.js';
import type { RegionChecks } from '../monitor/region-checks.js';
import type { EndpointStatusReport, ProfileStatusReport } from './report.js';

export interface EndpointCertificate {
  /** Epoch ms. */
  readonly notAfter: number;
  readonly subject: string;
  readonly issuer: string;
  /** Whole days until notAfter (rounded down; negative once expired). */
  readonly daysLeft: number;
}

/** An endpoint with the certificate it presents, when an HTTPS check saw one. */
export type EndpointWithCertificate = EndpointStatusReport & { readonly certificate?: EndpointCertificate };

export function withCertificates<R extends ProfileStatusReport>(
  reports: readonly R[],
  regionChecks: readonly RegionChecks[],
  now: number,
): R[] {
  const soonest = soonestCertificates(regionChecks);
  return reports.map((report) => ({
    ...report,
    endpoints: report.endpoints.map((endpoint): EndpointWithCertificate => {
      const seen = endpoint.targetKey === undefined ? undefined : soonest.get(endpoint.targetKey);
      if (seen === undefined) return endpoint;
      const { notAfter, subject, issuer } = seen;
      return { ...endpoint, certificate: { notAfter, subject, issuer, daysLeft: daysLeft(notAfter, now) } };
    }),
  }));
}
