/** Certificates in the heartbeat: what fits, the soonest per endpoint, days left. */
import { describe, expect, it } from 'vitest';
import {
  daysLeft,
  fitCertificates,
  isExpiring,
  soonestCertificates,
  type StoredCertificate,
} from '../../shared/monitor/certificate-summary.js';
import { withCertificates } from '../../shared/status/certificates.js';
import type { HeartbeatItem } from '../../shared/state/items.js';
import type { ProfileStatusReport } from '../../shared/status/report.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 1);

function heartbeat(region: string, certificates: Record<string, StoredCertificate>): HeartbeatItem {
  return { region, at: NOW, targets: 1, periodMs: 60_000, checkpoint: {}, certificates };
}

describe('certificate summaries', () => {
  it('days left are whole days, rounded down; negative once expired', () => {
    expect(daysLeft(NOW + 5 * DAY - 1, NOW)).toBe(4);
    expect(daysLeft(NOW + 5 * DAY, NOW)).toBe(5);
    expect(daysLeft(NOW - 1, NOW)).toBe(-1);
  });

  it('a certificate is expiring when fewer than the warning days are left', () => {
    expect(isExpiring(NOW + 14 * DAY - 1, NOW, 14)).toBe(true);
    expect(isExpiring(NOW + 14 * DAY, NOW, 14)).toBe(false);
  });

  it('fits the soonest to expire first within the budget', () => {
    const all = new Map<string, StoredCertificate>([
      ['late', [NOW + 90 * DAY, 'a', 'b']],
      ['soon', [NOW + DAY, 'a', 'b']],
    ]);
    const budget = JSON.stringify({ soon: all.get('soon') }).length + 5;
    const fitted = fitCertificates(all, budget);
    expect(Object.keys(fitted)).toEqual(['soon']);
    expect(JSON.stringify(fitted).length).toBeLessThanOrEqual(budget);
    expect(Object.keys(fitCertificates(all, 10_000)).sort()).toEqual(['late', 'soon']);
  });

  it('takes per endpoint the soonest certificate over every region, and tm status shows its days left', () => {
    const heartbeats = [
      heartbeat('us-east-1', { k: [NOW + 30 * DAY, 'shop.example.com', 'R10'] }),
      heartbeat('eu-west-1', { k: [NOW + 3 * DAY, 'shop.example.com', 'R11'] }),
    ];
    expect(soonestCertificates(heartbeats).get('k')).toMatchObject({ region: 'eu-west-1', issuer: 'R11' });
    const report: ProfileStatusReport = {
      profile: 'shop',
      status: 'Online',
      since: 0,
      stale: false,
      endpoints: [
        { endpoint: 'east', status: 'Online', since: 0, reason: '', stale: false, targetKey: 'k', votes: [] },
        { endpoint: 'tcp', status: 'Online', since: 0, reason: '', stale: false, targetKey: 'x', votes: [] },
      ],
    };
    const [shown] = withCertificates([report], heartbeats, NOW);
    expect(shown?.endpoints[0]).toMatchObject({
      certificate: { notAfter: NOW + 3 * DAY, subject: 'shop.example.com', issuer: 'R11', daysLeft: 3 },
    });
    expect(shown?.endpoints[1]).not.toHaveProperty('certificate');
  });
});
