/**
 * The zod schema of the INPUT format (DESIGN §2, Azure field names): shapes, field
 * ranges and string forms. Rules that relate several fields (uniqueness, routing-method
 * requirements, addressing kinds, nesting, timeout by interval, …) live in `rules.ts`,
 * which runs on the raw input so every problem is reported in one run.
 */
import { z } from 'zod';
import { isAwsRegion } from './aws-regions.js';
import { BODY_REGEX_FLAGS, bodyPatternProblem } from './body-pattern.js';
import { LIMITS } from './defaults.js';
import { isGeoCode } from './geo-codes.js';
import { parseSubnet } from './subnet.js';
import type { ValidationIssue } from './issues.js';
import { isDnsName, isHostedZoneId, isResourceName } from './names.js';
import {
  parseHeaders,
  parseStatusCodeRanges,
  type HeadersInput,
  type StatusCodeRangesInput,
} from './string-forms.js';
import { classifyTarget } from './target.js';
import { PROBE_PROTOCOLS, REGION_QUORUM_WORDS, ROUTING_METHODS, type Header } from './types.js';

export const MESSAGES = {
  name: "must be 1–63 letters, digits or '-' (not starting or ending with '-')",
  status: 'must be "Enabled" or "Disabled"',
  routingMethod: `must be one of ${ROUTING_METHODS.join(', ')}`,
  protocol: `must be one of ${PROBE_PROTOCOLS.join(', ')}`,
  method: 'must be "GET" or "HEAD"',
  interval: 'must be 10 or 30',
  zoneName: 'must be a DNS zone name (labels of letters, digits and "-")',
  relativeName: 'must be a DNS name relative to the zone (labels of letters, digits and "-")',
  hostedZoneId: 'must be a Route 53 hosted zone id (Z followed by capital letters and digits)',
  region: 'must be a commercial AWS region name (e.g. "eu-west-1")',
  endpointLocation:
    'must be an AWS region name (e.g. "eu-west-1") or an Azure region name (e.g. "West Europe")',
  alwaysServe: 'must be true or false (or Azure\'s "Enabled" / "Disabled")',
  geoCode:
    'must be a Route 53 location code: WORLD, GEO-AF|AN|AS|EU|NA|OC|SA, a country (DE) or a US state (US-CA)',
  target: 'must be a host name or an IP address',
  path: "must be a path starting with '/' (visible ASCII, no spaces)",
  boolean: 'must be true or false',
  object: 'must be an object',
  list: 'must be a list',
  string: 'must be a string',
  endpointType:
    'must be "external" (the default) or "nested" (any case, or Azure\'s Microsoft.Network/trafficManagerProfiles/externalEndpoints and nestedEndpoints)',
  healthRuleKind: 'must be "consecutiveFailures" or "sampleWindow"',
  expectedBody: 'must be a substring, or { regex, flags? } for a regular expression',
  bodyFlags: `must be regular expression flags of ${[...BODY_REGEX_FLAGS].join(', ')} (e.g. "i" to ignore case)`,
  regionQuorum: `must be "any", "majority", "all" or a number of regions ${LIMITS.regionQuorum.min}–${LIMITS.regionQuorum.max}`,
  definitions: 'must be a list of profiles (or { profiles: [...] })',
} as const;

function integer(
  { min, max }: { readonly min: number; readonly max: number },
  error = `must be an integer ${min}–${max}`,
) {
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** A string `test` accepts: a string it refuses gets the same `error` as a value of another type, under `rule`. */
function stringThat<T extends string = string>(
  test: ((value: string) => value is T) | ((value: string) => boolean),
  error: string,
  rule = 'format',
) {
  return z.string({ error }).refine(test as (value: string) => value is T, { error, params: { rule } });
}

const name = stringThat(isResourceName, MESSAGES.name);
const configuredStatus = z.enum(['Enabled', 'Disabled'], { error: MESSAGES.status });
const awsRegion = stringThat(isAwsRegion, MESSAGES.region, 'aws-region');
const alwaysServe = z.boolean({ error: MESSAGES.alwaysServe });
// An Azure region name was mapped to its AWS region before the schema runs (azure-forms.ts).
const endpointLocation = stringThat(isAwsRegion, MESSAGES.endpointLocation, 'aws-region');

/** Leaves that parse a string form; their issues are re-based onto the field's path. */
function withForm<I, O>(parse: (input: unknown) => { value: O[]; issues: ValidationIssue[] }) {
  return z
    .custom<I>(() => true)
    .transform((input, ctx) => {
      const result = parse(input);
      for (const issue of result.issues) {
        ctx.issues.push({
          code: 'custom',
          path: [...issue.path],
          input: issue.received,
          message: issue.message,
          params: { rule: issue.rule, receivedText: issue.receivedText },
        });
      }
      return result.value;
    });
}

const customHeaders = withForm<HeadersInput, Header>(parseHeaders);
const expectedStatusCodeRanges = withForm<StatusCodeRangesInput, { min: number; max: number }>(
  parseStatusCodeRanges,
);

const bodyLength = LIMITS.expectedBodyLength;
const bodyText = (what: string) => {
  const error = `must be ${what} of ${bodyLength.min}–${bodyLength.max} characters`;
  return z.string({ error }).min(bodyLength.min, { error }).max(bodyLength.max, { error });
};
const expectedBody = z.union(
  [
    bodyText('a substring'),
    z
      .strictObject(
        {
          regex: bodyText('a regular expression'),
          flags: z
            .string({ error: MESSAGES.bodyFlags })
            .regex(new RegExp(`^[${BODY_REGEX_FLAGS}]*$`), { error: MESSAGES.bodyFlags })
            .optional(),
        },
        { error: MESSAGES.expectedBody },
      )
      .superRefine((body, ctx) => {
        const problem = bodyPatternProblem(body.regex, body.flags ?? '');
        if (problem !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: ['regex'],
            message: problem,
            params: { rule: 'regex' },
            input: body.regex,
          });
      }),
  ],
  { error: MESSAGES.expectedBody },
);

const geoCode = stringThat(isGeoCode, MESSAGES.geoCode, 'geo-code');

const subnet = z
  .string({ error: "must be a CIDR block ('10.0.0.0/8') or a range ('192.0.2.0-192.0.2.255')" })
  .superRefine((source, ctx) => {
    const parsed = parseSubnet(source);
    if (!parsed.ok)
      ctx.addIssue({ code: 'custom', message: parsed.message, params: { rule: parsed.rule }, input: source });
  });

const target = stringThat((value) => classifyTarget(value) !== undefined, MESSAGES.target);

const healthRuleSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('consecutiveFailures') }),
    z.strictObject({
      kind: z.literal('sampleWindow'),
      sampleSize: integer(LIMITS.sampleSize).optional(),
      successfulSamplesRequired: integer(LIMITS.sampleSize).optional(),
    }),
  ],
  { error: MESSAGES.object },
);

export const monitorConfigSchema = z.strictObject(
  {
    protocol: z.enum(PROBE_PROTOCOLS, { error: MESSAGES.protocol }).optional(),
    port: integer(LIMITS.port).optional(),
    path: z
      .string({ error: MESSAGES.path })
      .regex(/^\/[\x21-\x7e]*$/, { error: MESSAGES.path })
      .optional(),
    method: z.enum(['GET', 'HEAD'], { error: MESSAGES.method }).optional(),
    intervalInSeconds: z.union([z.literal(10), z.literal(30)], { error: MESSAGES.interval }).optional(),
    // The upper bound depends on the interval; rules.ts narrows it to 9 for 10 s.
    timeoutInSeconds: integer(LIMITS.timeoutInSeconds[30]).optional(),
    toleratedNumberOfFailures: integer(LIMITS.toleratedNumberOfFailures).optional(),
    customHeaders: customHeaders.optional(),
    expectedStatusCodeRanges: expectedStatusCodeRanges.optional(),
    healthRule: healthRuleSchema.optional(),
    requiredSuccessesToRecover: integer(LIMITS.requiredSuccessesToRecover).optional(),
    // The upper bound is the timeout; rules/monitor.ts says so.
    maxLatencyMs: integer(LIMITS.maxLatencyMs).optional(),
    // The upper bound is the profile's probe regions; rules/monitor.ts says so.
    regionQuorum: z
      .union([z.enum(REGION_QUORUM_WORDS), integer(LIMITS.regionQuorum, MESSAGES.regionQuorum)], {
        error: MESSAGES.regionQuorum,
      })
      .optional(),
    // HTTP/HTTPS with GET only; rules/monitor.ts says so.
    expectedBody: expectedBody.optional(),
    // HTTPS only; rules/monitor.ts says so.
    certificateWarningDays: integer(LIMITS.certificateWarningDays).optional(),
  },
  { error: MESSAGES.object },
);

const dnsConfigSchema = z.strictObject(
  {
    zoneName: stringThat((v) => isDnsName(v, true), MESSAGES.zoneName),
    hostedZoneId: stringThat(isHostedZoneId, MESSAGES.hostedZoneId).optional(),
    relativeName: stringThat((v) => isDnsName(v, false), MESSAGES.relativeName),
    ttl: integer(LIMITS.ttl).optional(),
  },
  { error: 'must be an object with zoneName and relativeName' },
);

const endpointCommon = {
  name,
  endpointStatus: configuredStatus.optional(),
  priority: integer(LIMITS.priority).optional(),
  weight: integer(LIMITS.weight).optional(),
  endpointLocation: endpointLocation.optional(),
  geoMapping: z.array(geoCode, { error: 'must be a list of Route 53 location codes' }).optional(),
  subnets: z.array(subnet, { error: 'must be a list of CIDR blocks or ranges' }).optional(),
};

const externalEndpointSchema = z.strictObject(
  {
    ...endpointCommon,
    type: z.literal('external').optional(),
    target,
    alwaysServe: alwaysServe.optional(),
    customHeaders: customHeaders.optional(),
  },
  { error: MESSAGES.object },
);

const nestedEndpointSchema = z.strictObject(
  {
    ...endpointCommon,
    type: z.literal('nested'),
    targetProfile: name,
    minChildEndpoints: integer(LIMITS.minChildEndpoints).optional(),
    minChildEndpointsIPv4: integer(LIMITS.minChildEndpoints).optional(),
    minChildEndpointsIPv6: integer(LIMITS.minChildEndpoints).optional(),
    // Accepted by the shape so that rules.ts can say why `true` is wrong here.
    alwaysServe: alwaysServe.optional(),
  },
  { error: MESSAGES.object },
);

export const endpointSchema = z.discriminatedUnion('type', [externalEndpointSchema, nestedEndpointSchema], {
  error: MESSAGES.object,
});

export const profileSchema = z.strictObject(
  {
    name,
    profileStatus: configuredStatus.optional(),
    trafficRoutingMethod: z.enum(ROUTING_METHODS, { error: MESSAGES.routingMethod }),
    dnsConfig: dnsConfigSchema,
    maxReturn: integer(LIMITS.maxReturn).optional(),
    monitorConfig: monitorConfigSchema.optional(),
    probeRegions: z
      .array(awsRegion, { error: 'must be a list of AWS region names' })
      .min(1, { error: 'must name at least one region (leave it out for the deployment default)' })
      .optional(),
    staticFailover: z.boolean({ error: 'must be true or false' }).optional(),
    endpoints: z.array(endpointSchema, { error: 'must be a list of endpoints' }),
  },
  { error: MESSAGES.object },
);

export const definitionsSchema = z.array(profileSchema, { error: MESSAGES.definitions });

/** One profile as written in a definitions file (before defaults). */
export type ProfileInput = z.input<typeof profileSchema>;
export type EndpointInput = z.input<typeof endpointSchema>;
export type MonitorConfigInput = z.input<typeof monitorConfigSchema>;
export type ProfileParsed = z.output<typeof profileSchema>;

const externalFields = Object.keys(externalEndpointSchema.shape);
const nestedFields = Object.keys(nestedEndpointSchema.shape);

/** Field names of each object kind, to suggest the intended field for an unknown key; and of one endpoint type only. */
export const KNOWN_FIELDS = {
  profile: Object.keys(profileSchema.shape),
  dnsConfig: Object.keys(dnsConfigSchema.shape),
  monitorConfig: Object.keys(monitorConfigSchema.shape),
  healthRule: [...new Set(healthRuleSchema.options.flatMap((option) => Object.keys(option.shape)))],
  endpoint: [...new Set([...externalFields, ...nestedFields])],
  nestedOnly: nestedFields.filter((field) => !externalFields.includes(field)),
  externalOnly: externalFields.filter((field) => !nestedFields.includes(field)),
} as const;
