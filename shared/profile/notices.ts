/**
 * Notices: what a valid definitions file should still tell its author. They never fail
 * validation; `tm validate` prints them after the summary.
 */
import type { ValidationIssue } from './issues.js';
import type { Profile } from './types.js';

/**
 * A profile without `dnsConfig.hostedZoneId` validates (the CDK construct's `hostedZones`
 * prop may supply the id), but a deploy needs the id from one of the two.
 */
export function deployNotices(profiles: readonly Profile[]): ValidationIssue[] {
  return profiles.flatMap((profile, index) =>
    profile.dnsConfig.hostedZoneId === undefined
      ? [
          {
            path: ['profiles', index, 'dnsConfig', 'hostedZoneId'],
            rule: 'deploy-requirement',
            received: undefined,
            message: `deploying needs the id of the hosted zone ${JSON.stringify(profile.dnsConfig.zoneName)}, here or in the CDK construct's hostedZones prop`,
          },
        ]
      : [],
  );
}
