/** The opt-in health settings of monitorConfig: what validates, and the house-style error when not. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../shared/profile/defaults.js';
import { healthSettingsOf } from '../../shared/profile/health-settings.js';
import { formatIssue, parseDefinitions } from '../support/profile-api.js';

type Json = Record<string, unknown>;

function shop(monitorConfig: Json, probeRegions?: string[]): Json[] {
  return [
    {
      name: 'shop',
      trafficRoutingMethod: 'Priority',
      dnsConfig: { zoneName: 'example.com', relativeName: 'shop' },
      monitorConfig: { path: '/health', ...monitorConfig },
      ...(probeRegions === undefined ? {} : { probeRegions }),
      endpoints: [{ name: 'east', target: 'east.shop.example.net' }],
    },
  ];
}

function errors(input: Json[]): string[] {
  const result = parseDefinitions(input);
  return result.ok ? [] : result.issues.map((issue) => formatIssue(issue, input));
}

describe('monitorConfig.requiredSuccessesToRecover', () => {
  it.each([1, 3, 10])('accepts %d', (value) => {
    // Act
    const result = parseDefinitions(shop({ requiredSuccessesToRecover: value }));
    // Assess
    expect(result.ok && result.profiles[0]!.monitorConfig.requiredSuccessesToRecover).toBe(value);
  });

  it.each([
    [0, 'got 0'],
    [11, 'got 11'],
    [2.5, 'got 2.5'],
    ['3', 'got "3"'],
  ])('rejects %j', (value, got) => {
    // Act / Assess
    expect(errors(shop({ requiredSuccessesToRecover: value }))).toEqual([
      `profiles[0] "shop".monitorConfig.requiredSuccessesToRecover: must be an integer 1–10, ${got}`,
    ]);
  });

  it('is absent from the normalized profile when not written', () => {
    // Act
    const result = parseDefinitions(shop({}));
    // Assess
    expect(result.ok && result.profiles[0]!.monitorConfig).not.toHaveProperty('requiredSuccessesToRecover');
  });
});

describe('monitorConfig.maxLatencyMs', () => {
  it('accepts a limit below the timeout', () => {
    // Act
    const result = parseDefinitions(shop({ timeoutInSeconds: 5, maxLatencyMs: 4_999 }));
    // Assess
    expect(result.ok && result.profiles[0]!.monitorConfig.maxLatencyMs).toBe(4_999);
  });

  it.each([
    [{ timeoutInSeconds: 5, maxLatencyMs: 5_000 }, 'must be less than the timeout (5000 ms), got 5000'],
    [
      { intervalInSeconds: 10, maxLatencyMs: 9_000 },
      'must be less than the timeout (9000 ms, its default with intervalInSeconds 10), got 9000',
    ],
    [{ maxLatencyMs: 0 }, 'must be an integer 1–9999, got 0'],
    [{ maxLatencyMs: 10_000 }, 'must be an integer 1–9999, got 10000'],
  ])('rejects %j', (monitor, message) => {
    // Act / Assess
    expect(errors(shop(monitor))).toEqual([`profiles[0] "shop".monitorConfig.maxLatencyMs: ${message}`]);
  });
});

describe('monitorConfig.regionQuorum', () => {
  const regions = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];

  it.each(['any', 'majority', 'all', 1, 3])('accepts %j', (value) => {
    // Act
    const result = parseDefinitions(shop({ regionQuorum: value }, regions));
    // Assess
    expect(result.ok && result.profiles[0]!.monitorConfig.regionQuorum).toBe(value);
  });

  it('accepts a count without probeRegions (the deployment checks it against its regions)', () => {
    // Act
    const result = parseDefinitions(shop({ regionQuorum: 5 }));
    // Assess
    expect(result.ok && result.profiles[0]!.monitorConfig.regionQuorum).toBe(5);
  });

  it("rejects a count the profile's probe regions can never meet", () => {
    // Act / Assess
    expect(errors(shop({ regionQuorum: 4 }, regions))).toEqual([
      'profiles[0] "shop".monitorConfig.regionQuorum: must be at most 3, the number of probeRegions (a count above it can never be met), got 4',
    ]);
  });

  it.each([
    [0, 'got 0'],
    [2.5, 'got 2.5'],
    [LIMITS.regionQuorum.max + 1, `got ${LIMITS.regionQuorum.max + 1}`],
    ['most', 'got "most"'],
    ['All', 'got "All"'],
    ['2', 'got "2"'],
  ])('rejects %j', (value, got) => {
    // Act / Assess
    expect(errors(shop({ regionQuorum: value }, regions))).toEqual([
      `profiles[0] "shop".monitorConfig.regionQuorum: must be "any", "majority", "all" or a number of regions 1–${LIMITS.regionQuorum.max}, ${got}`,
    ]);
  });

  it('is absent from the normalized profile when not written', () => {
    // Act
    const result = parseDefinitions(shop({}));
    // Assess
    expect(result.ok && result.profiles[0]!.monitorConfig).not.toHaveProperty('regionQuorum');
  });
});

describe('monitorConfig.expectedBody', () => {
  it.each([
    ['a substring', 'OK', { kind: 'substring', text: 'OK' }],
    [
      'a regular expression',
      { regex: '^status: ok$', flags: 'im' },
      { kind: 'regex', pattern: '^status: ok$', flags: 'im' },
    ],
    [
      'a regular expression without flags',
      { regex: 'healthy|ok' },
      { kind: 'regex', pattern: 'healthy|ok', flags: '' },
    ],
  ])('accepts %s', (_name, value, normalized) => {
    // Act
    const result = parseDefinitions(shop({ expectedBody: value }));
    // Assess
    expect(result.ok && result.profiles[0]!.monitorConfig.expectedBody).toEqual(normalized);
  });

  it.each([
    [{ regex: '(a+)+$' }, 'expectedBody.regex', 'must be a safe regular expression'],
    [{ regex: '^(\\w+\\s?)*$' }, 'expectedBody.regex', 'must be a safe regular expression'],
    [
      { regex: '(' },
      'expectedBody.regex',
      'must be a valid regular expression (Invalid regular expression: /(/: Unterminated group)',
    ],
    [{ regex: 'ok', flags: 'g' }, 'expectedBody.flags', 'must be regular expression flags of i, m, s, u'],
    ['', 'expectedBody', 'must be a substring of 1–256 characters, got ""'],
    ['x'.repeat(257), 'expectedBody', 'must be a substring of 1–256 characters'],
    [{ regex: 'x'.repeat(257) }, 'expectedBody.regex', 'must be a regular expression of 1–256 characters'],
    [{ pattern: 'ok' }, 'expectedBody', 'must be a substring, or { regex, flags? } for a regular expression'],
    [200, 'expectedBody', 'must be a substring, or { regex, flags? } for a regular expression, got 200'],
  ])('rejects %j', (value, field, message) => {
    // Act
    const [only, ...more] = errors(shop({ expectedBody: value }));
    // Assess
    expect(more).toEqual([]);
    expect(only).toContain(`profiles[0] "shop".monitorConfig.${field}: ${message}`);
  });

  it('is an error with method HEAD (a HEAD answer has no body)', () => {
    // Act / Assess
    expect(errors(shop({ method: 'HEAD', expectedBody: 'OK' }))).toEqual([
      'profiles[0] "shop".monitorConfig.expectedBody: must not be set when method is HEAD (a HEAD answer has no body; use GET), got "OK"',
    ]);
  });

  it('is an error with protocol TCP', () => {
    // Act
    const input = shop({ protocol: 'TCP', port: 5432, expectedBody: 'OK' });
    delete (input[0]!.monitorConfig as Json).path;
    // Assess
    expect(errors(input)).toEqual([
      'profiles[0] "shop".monitorConfig.expectedBody: must not be set when protocol is TCP (HTTP/HTTPS only), got "OK"',
    ]);
  });
});

describe('monitorConfig.certificateWarningDays', () => {
  it.each([1, 30, 365])('accepts %d with HTTPS', (value) => {
    // Act
    const result = parseDefinitions(shop({ protocol: 'HTTPS', certificateWarningDays: value }));
    // Assess
    expect(result.ok && result.profiles[0]!.monitorConfig.certificateWarningDays).toBe(value);
  });

  it('is absent when not written (the default applies)', () => {
    // Act
    const result = parseDefinitions(shop({ protocol: 'HTTPS' }));
    // Assess
    expect(result.ok && result.profiles[0]!.monitorConfig).not.toHaveProperty('certificateWarningDays');
  });

  it.each([
    [{ protocol: 'HTTPS', certificateWarningDays: 0 }, 'must be an integer 1–365, got 0'],
    [{ protocol: 'HTTPS', certificateWarningDays: 366 }, 'must be an integer 1–365, got 366'],
    [{ protocol: 'HTTPS', certificateWarningDays: 1.5 }, 'must be an integer 1–365, got 1.5'],
    [
      { certificateWarningDays: 14 },
      'must not be set when protocol is HTTP (HTTPS only: only HTTPS checks see a certificate), got 14',
    ],
  ])('rejects %j', (monitor, message) => {
    // Act / Assess
    expect(errors(shop(monitor))).toEqual([
      `profiles[0] "shop".monitorConfig.certificateWarningDays: ${message}`,
    ]);
  });

  it('is an error with TCP', () => {
    // Act / Assess
    expect(errors(shop({ protocol: 'TCP', port: 5432, path: undefined, certificateWarningDays: 7 }))).toEqual(
      [
        'profiles[0] "shop".monitorConfig.certificateWarningDays: must not be set when protocol is TCP (HTTPS only: only HTTPS checks see a certificate), got 7',
      ],
    );
  });
});

describe('the health settings in effect, in the words tm validate and tm plan show', () => {
  const settingsOf = (monitorConfig: Json): string[] => {
    const result = parseDefinitions(shop(monitorConfig));
    if (!result.ok) throw new Error(result.issues.map((issue) => issue.message).join('\n'));
    return healthSettingsOf(result.profiles[0]!.monitorConfig);
  };

  it.each([
    { name: 'none: judged exactly like Azure', monitorConfig: {}, settings: [] },
    {
      name: 'one success to recover is the default, not a setting',
      monitorConfig: { requiredSuccessesToRecover: 1 },
      settings: [],
    },
    {
      name: 'every setting, in a fixed order',
      monitorConfig: {
        expectedBody: { regex: '^ok$', flags: 'i' },
        regionQuorum: 'all',
        maxLatencyMs: 500,
        requiredSuccessesToRecover: 3,
      },
      settings: [
        'up again after 3 successes',
        'slow above 500 ms',
        'region quorum all',
        'body matches /^ok$/i',
      ],
    },
    { name: 'a body substring', monitorConfig: { expectedBody: 'ok' }, settings: ['body contains "ok"'] },
  ])('$name', ({ monitorConfig, settings }) => {
    expect(settingsOf(monitorConfig)).toEqual(settings);
  });
});
