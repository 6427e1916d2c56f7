import { describe, expect, it } from 'vitest';
import {
  describeProbeLoad,
  failoverTime,
  operatorFigures,
  ROUTE53_PROPAGATION_SECONDS,
} from '../../shared/monitor/failover-time.js';
import { externalEndpoint, monitorConfig, nestedEndpoint, profile } from '../support/profiles.js';

const settings = { batchingWindowSeconds: 2 };
const defaults = monitorConfig({ intervalInSeconds: 30, timeoutInSeconds: 10, toleratedNumberOfFailures: 3 });

describe('failover time: the worst case, part by part', () => {
  it('moving away: (tolerated+1) checks, the timeout, the publish allowance, the TTL', () => {
    // Act
    const time = failoverTime(defaults, 30, 'failing', settings);

    // Assess
    expect(ROUTE53_PROPAGATION_SECONDS).toBe(60);
    expect(time).toEqual({
      checks: 4,
      intervalSeconds: 30,
      timeoutSeconds: 10,
      publishSeconds: 62,
      ttlSeconds: 30,
      totalSeconds: 4 * 30 + 10 + 62 + 30,
      detectToPublishSeconds: 3 * 30 + 10 + 62,
      formula: '(3+1) × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 222 s',
    });
  });

  it('coming back: one successful check by default', () => {
    // Act
    const time = failoverTime(defaults, 30, 'recovering', settings);

    // Assess
    expect(time.checks).toBe(1);
    expect(time.formula).toBe('1 × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 132 s');
  });

  it('coming back takes requiredSuccessesToRecover checks when a profile asks for more', () => {
    // Act
    const time = failoverTime(defaults, 30, 'recovering', { ...settings, requiredSuccessesToRecover: 3 });

    // Assess
    expect(time.totalSeconds).toBe(3 * 30 + 10 + 62 + 30);
    expect(time.formula).toBe('3 × 30 s interval + 10 s timeout + 62 s publish + 30 s TTL = 192 s');
  });

  it('a sample window of 4 needing 2 fails after 3 checks and recovers after 2 (or requiredSuccessesToRecover)', () => {
    // Prepare
    const monitor = monitorConfig({
      intervalInSeconds: 10,
      timeoutInSeconds: 5,
      healthRule: { kind: 'sampleWindow', sampleSize: 4, successfulSamplesRequired: 2 },
    });

    // Act
    const away = failoverTime(monitor, 10, 'failing', settings);
    const back = failoverTime(monitor, 10, 'recovering', settings);
    const strict = failoverTime(monitor, 10, 'recovering', { ...settings, requiredSuccessesToRecover: 5 });

    // Assess
    expect(away.formula).toBe('3 × 10 s interval + 5 s timeout + 62 s publish + 10 s TTL = 107 s');
    expect(back.checks).toBe(2);
    // Coming back, the window must pass and the last 5 checks must have succeeded.
    expect(strict.checks).toBe(5);
  });
});

describe('operator figures of a profile', () => {
  const endpoints = [
    externalEndpoint({ name: 'a', target: '192.0.2.1' }),
    externalEndpoint({ name: 'b', target: '192.0.2.2', endpointStatus: 'Disabled' }),
    externalEndpoint({ name: 'c', target: '192.0.2.3', alwaysServe: true }),
    nestedEndpoint({ name: 'n', targetProfile: 'child' }),
  ];

  it('counts the checks each endpoint receives from all its regions', () => {
    // Prepare
    const shop = profile({
      name: 'shop',
      endpoints,
      monitorConfig: monitorConfig({ intervalInSeconds: 10, timeoutInSeconds: 9 }),
    });

    // Act
    const figures = operatorFigures(shop, ['r1', 'r2', 'r3'], settings);

    // Assess
    expect(figures).toMatchObject({
      profile: 'shop',
      probeRegions: 3,
      checksPerMinute: 18,
      probedEndpoints: 1,
    });
    expect(describeProbeLoad(figures)).toBe('18 checks/min per endpoint (3 regions × 6/min)');
  });

  it("uses the profile's own probe regions over the deployment's", () => {
    // Act
    const figures = operatorFigures(
      profile({ name: 'one', endpoints, probeRegions: ['eu-west-1'] }),
      ['r1', 'r2', 'r3'],
      settings,
    );

    // Assess
    expect(describeProbeLoad(figures)).toBe('2 checks/min per endpoint (1 region × 2/min)');
  });

  it('says so when no endpoint of its own is probed (disabled profile)', () => {
    // Act
    const figures = operatorFigures(
      profile({ name: 'off', endpoints, profileStatus: 'Disabled' }),
      ['r1'],
      settings,
    );

    // Assess
    expect(figures.probedEndpoints).toBe(0);
    expect(describeProbeLoad(figures)).toBe('no endpoint of its own is probed');
  });
});
