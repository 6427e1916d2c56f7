/**
 * The evaluator tick judges certificate expiry each minute: CertificateDaysLeft per HTTPS
 * endpoint, CertificatesExpiring in all (alarmed), and one CertificateExpiring warning per
 * certificate within its profile's window, written with the item that remembers it. The store
 * is an in-memory stand-in of the ports; DynamoDB's side (the conditional transaction) is
 * proven by test/local/certificate-expiry.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { EvaluatorMetrics, EvaluatorStateStore, StoredStatus } from '../../functions/evaluator/ports.js';
import { runTick } from '../../functions/evaluator/tick.js';
import { MetricName } from '../../shared/contracts/metrics.js';
import type { OutboxEntry } from '../../shared/evaluation/outbox.js';
import type { Profile } from '../../shared/profile/types.js';
import type { CertificateWarningItem, CertificatesItem, HeartbeatItem } from '../../shared/state/items.js';
import { monitor, profile } from '../probe/worker.fixtures.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 11, 1);

function status(name: string, endpoints: string[]): StoredStatus {
  return {
    report: {
      profile: name,
      status: 'Online',
      since: 0,
      stale: false,
      endpoints: endpoints.map((e) => ({
        endpoint: e,
        status: 'Online' as const,
        since: 0,
        reason: '',
        stale: false,
        targetKey: `${name}/${e}`,
        votes: [],
      })),
    },
    hostedZoneId: 'Z1',
    ownedName: `${name}.example.com`,
    published: [],
    cidrCollections: [],
    revision: 1,
  };
}

function setup(profiles: Profile[], certificates: CertificatesItem['certificates']) {
  const warned = new Map<string, CertificateWarningItem>();
  const outbox: OutboxEntry[] = [];
  const heartbeat: HeartbeatItem = {
    region: 'us-east-1',
    at: NOW,
    targets: 1,
    periodMs: 60_000,
    checkpoint: {},
  };
  const state = { certificates };
  const store = {
    loadConfig: async () => ({ profiles, defaultProbeRegions: ['us-east-1'] }),
    loadHeartbeats: async () => [heartbeat],
    loadRegionChecks: async () => [{ region: heartbeat.region, certificates: state.certificates }],
    loadStatuses: async () => new Map(profiles.map((p) => [p.name, status(p.name, ['a'])])),
    loadTick: async () => undefined,
    saveTick: async () => undefined,
    loadControls: async () => ({ statuses: [], overrides: [] }),
    loadOutbox: async () => outbox,
    saveOutboxTrigger: async () => undefined,
    loadReconcileRequest: async () => ({ requestedAt: NOW }),
    loadCertificateWarnings: async () => [...warned.values()],
    saveCertificateWarning: async (item: CertificateWarningItem, entry: OutboxEntry) => {
      const key = `${item.profile}#${item.endpoint}`;
      if (warned.get(key)?.notAfter === item.notAfter) return false;
      warned.set(key, item);
      outbox.push(entry);
      return true;
    },
  } as unknown as EvaluatorStateStore;
  const emitted: { name: string; value: number; dimensions?: Record<string, string> }[] = [];
  const metrics: EvaluatorMetrics = {
    count: (name, value, dimensions) => emitted.push({ name, value, ...(dimensions ? { dimensions } : {}) }),
    duration: () => undefined,
    flush: () => undefined,
  };
  let now = NOW;
  const tick = (endpointMetrics = true) =>
    runTick({ store, metrics, now: () => (now += 60_000), endpointMetrics });
  return { tick, emitted, outbox, state };
}

const https = (name: string, warningDays?: number) =>
  profile(name, {
    monitorConfig: monitor({
      protocol: 'HTTPS',
      port: 443,
      ...(warningDays === undefined ? {} : { certificateWarningDays: warningDays }),
    }),
  });

describe('evaluator tick: certificate expiry', () => {
  it('emits days left per endpoint and the expiring count; warns once per certificate in its window', async () => {
    // Prepare: shop's certificate has 5 days left (default window 14), blog's 5 too but its window is 3
    const { tick, emitted, outbox } = setup([https('shop'), https('blog', 3)], {
      'shop/a': [NOW + 5 * DAY, 'shop.example.com', 'R11'],
      'blog/a': [NOW + 5 * DAY, 'blog.example.com', 'R11'],
    });

    // Act: three minutes
    const outcomes = [await tick(), await tick(), await tick()];

    // Assess
    expect(outcomes.map((o) => o.certificateWarnings)).toEqual([
      [`shop/a/certificate@${NOW + 5 * DAY}`],
      [],
      [],
    ]);
    expect(outbox).toHaveLength(1);
    expect(outbox[0]!.events[0]).toMatchObject({
      kind: 'CertificateExpiring',
      profile: 'shop',
      endpoint: 'a',
      subject: 'shop.example.com',
      issuer: 'R11',
      daysLeft: 4,
      certificateWarningDays: 14,
      region: 'us-east-1',
    });
    expect(emitted.filter((m) => m.name === MetricName.certificatesExpiring).map((m) => m.value)).toEqual([
      1, 1, 1,
    ]);
    const daysLeft = emitted.filter((m) => m.name === MetricName.certificateDaysLeft);
    expect(daysLeft).toHaveLength(6);
    expect(daysLeft[0]).toMatchObject({ dimensions: { Profile: 'shop', Endpoint: 'a' } });
    expect(daysLeft[0]!.value).toBeCloseTo(5 - 1 / 1440, 2);
  });

  it('a renewed certificate that comes into the window again warns again; one outside it does not', async () => {
    // Prepare
    const { tick, outbox, state } = setup([https('shop')], { 'shop/a': [NOW + 2 * DAY, 'shop', 'R11'] });
    await tick();
    // Act: renewed for 90 days, then (say, a bad deployment) replaced by one with 10 days left
    state.certificates = { 'shop/a': [NOW + 90 * DAY, 'shop', 'R11'] };
    const renewed = await tick();
    state.certificates = { 'shop/a': [NOW + 10 * DAY, 'shop', 'R11'] };
    const replaced = await tick();
    // Assess
    expect(renewed.certificateWarnings).toEqual([]);
    expect(replaced.certificateWarnings).toEqual([`shop/a/certificate@${NOW + 10 * DAY}`]);
    expect(outbox).toHaveLength(2);
  });

  it('endpointMetrics: false leaves out the per-endpoint metric, not the count', async () => {
    const { tick, emitted } = setup([https('shop')], { 'shop/a': [NOW + 90 * DAY, 'shop', 'R11'] });
    await tick(false);
    expect(emitted.filter((m) => m.name === MetricName.certificateDaysLeft)).toEqual([]);
    expect(emitted.filter((m) => m.name === MetricName.certificatesExpiring).map((m) => m.value)).toEqual([
      0,
    ]);
  });
});
