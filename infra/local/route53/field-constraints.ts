/**
 * The first stage of ChangeResourceRecordSets: the request's shape. Field
 * constraints of the API model (ranges, lengths, enums) and the "Invalid
 * request" checks are answered with `InvalidInput`, as Route 53 does; what
 * passes becomes typed `Change`s for the batch rules (change-batch.ts).
 * Constraints: https://docs.aws.amazon.com/Route53/latest/APIReference/API_ResourceRecordSet.html
 */
import { ResourceRecordSetRegion } from '@aws-sdk/client-route-53';
import type {
  Change,
  ChangeAction,
  FailoverRole,
  RecordSet,
  RecordType,
} from '../../../shared/zone/record-set.js';
import type { ChangeInput, RecordSetInput } from './change-input.js';
import { CONTINENT_CODES } from '../../../shared/profile/geo-codes.js';
import { invalidInput } from './errors.js';
import { present } from './present.js';
import { fromRoute53Name, toRoute53Name } from '../../../shared/zone/names.js';

const ACTIONS: readonly ChangeAction[] = ['CREATE', 'DELETE', 'UPSERT'];
const ROUTE53_TYPES = [
  'SOA', 'A', 'TXT', 'NS', 'CNAME', 'MX', 'NAPTR', 'PTR', 'SRV', 'SPF', 'AAAA', 'CAA', 'DS', 'TLSA', 'SSHFP', 'SVCB', 'HTTPS',
]; // prettier-ignore
/** The types this local Route 53 stores and serves (what the planner publishes). */
const SUPPORTED_TYPES: readonly RecordType[] = ['A', 'AAAA', 'CNAME'];
const FAILOVER_ROLES: readonly FailoverRole[] = ['PRIMARY', 'SECONDARY'];
export const LATENCY_REGIONS: readonly string[] = Object.values(ResourceRecordSetRegion);
const MAX_TTL = 2_147_483_647;
const CIDR_COLLECTION_ID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/;
const CIDR_LOCATION_NAME = /^[0-9A-Za-z_\-*]{1,16}$/;

/** Validates the shape of every change; throws one `InvalidInput` error naming every violated constraint. */
export function parseChanges(inputs: readonly ChangeInput[]): Change[] {
  if (inputs.length === 0) {
    throw invalidInput(
      "1 validation error detected: Value '[]' at 'changeBatch.changes' failed to satisfy constraint: Member must have length greater than or equal to 1",
    );
  }
  const violations = inputs.flatMap((input, index) =>
    constraintViolations(input, `changeBatch.changes.${index + 1}.member`),
  );
  if (violations.length > 0) {
    const count = violations.length;
    throw invalidInput(
      `${count} validation error${count === 1 ? '' : 's'} detected: ${violations.join('; ')}`,
    );
  }
  return inputs.map((input) => toChange(input));
}

/** A field's constraints in the API model. */
interface Rule {
  readonly required?: boolean;
  readonly oneOf?: readonly string[];
  readonly length?: readonly [min: number, max: number];
  readonly maxLength?: number;
  readonly integer?: readonly [min: number, max: number];
  readonly boolean?: boolean;
  /** A pattern and how Route 53 words its violation. */
  readonly pattern?: readonly [RegExp, string];
}

/** The constraint `value` breaks, worded as Route 53 words it; undefined when none. */
function broken(value: string | undefined, rule: Rule): string | undefined {
  if (value === undefined) {
    if (rule.required === true) return 'Member must not be null';
    return rule.pattern?.[1];
  }
  const { oneOf, length, maxLength, integer, pattern } = rule;
  if (oneOf !== undefined && !oneOf.includes(value))
    return `Member must satisfy enum value set: [${oneOf.join(', ')}]`;
  if (length !== undefined && (value.length < length[0] || value.length > length[1]))
    return `Member must have length between ${length[0]} and ${length[1]}`;
  if (maxLength !== undefined && value.length > maxLength)
    return `Member must have length less than or equal to ${maxLength}`;
  if (rule.boolean === true && value !== 'true' && value !== 'false') return 'Member must be a boolean';
  if (pattern !== undefined && !pattern[0].test(value)) return pattern[1];
  if (integer === undefined) return undefined;
  const number = Number(value);
  if (!Number.isInteger(number)) return 'Member must be an integer';
  if (number < integer[0]) return `Member must have value greater than or equal to ${integer[0]}`;
  return number > integer[1] ? `Member must have value less than or equal to ${integer[1]}` : undefined;
}

/** One row per field, in Route 53's order: path under the change, value, rule, how a missing value shows. */
type Field = readonly [path: string, value: string | undefined, rule: Rule, missing?: string];

const CIDR_COLLECTION_RULE: Rule = {
  pattern: [
    CIDR_COLLECTION_ID,
    `Member must satisfy regular expression pattern: ${CIDR_COLLECTION_ID.source}`,
  ],
};
const CIDR_LOCATION_RULE: Rule = {
  pattern: [
    CIDR_LOCATION_NAME,
    'Member must have length between 1 and 16 and satisfy regular expression pattern: [0-9A-Za-z_\\-\\*]+',
  ],
};
/** Route 53 says "must not be null" of any EvaluateTargetHealth that is not a boolean. */
const EVALUATE_TARGET_HEALTH_RULE: Rule = { pattern: [/^(true|false)$/, 'Member must not be null'] };

function fieldsOf({ action, recordSet: set }: ChangeInput): Field[] {
  const rrs = 'resourceRecordSet';
  const { cidrRoutingConfig: cidr, aliasTarget: alias } = set;
  return [
    ['action', action, { required: true, oneOf: ACTIONS }],
    [`${rrs}.name`, set.name, { required: true, maxLength: 1024 }],
    [`${rrs}.type`, set.type, { required: true, oneOf: ROUTE53_TYPES }],
    [`${rrs}.setIdentifier`, set.setIdentifier, { length: [1, 128] }],
    [`${rrs}.weight`, set.weight, { integer: [0, 255] }],
    [`${rrs}.tTL`, set.ttl, { integer: [0, MAX_TTL] }],
    [`${rrs}.region`, set.region, { oneOf: LATENCY_REGIONS }],
    [`${rrs}.failover`, set.failover, { oneOf: FAILOVER_ROLES }],
    [`${rrs}.multiValueAnswer`, set.multiValueAnswer, { boolean: true }],
    ...(set.values ?? []).map((value, index): Field => [
      `${rrs}.resourceRecords.${index + 1}.member.value`,
      value,
      { maxLength: 4000 },
    ]),
    [`${rrs}.healthCheckId`, set.healthCheckId, { length: [1, 64] }],
    ...(cidr === undefined
      ? []
      : ([
          [`${rrs}.cidrRoutingConfig.collectionId`, cidr.collectionId, CIDR_COLLECTION_RULE, 'undefined'],
          [`${rrs}.cidrRoutingConfig.locationName`, cidr.locationName, CIDR_LOCATION_RULE, 'undefined'],
        ] satisfies Field[])),
    ...(alias === undefined
      ? []
      : ([
          [`${rrs}.aliasTarget.hostedZoneId`, alias.hostedZoneId, { required: true }],
          [`${rrs}.aliasTarget.dNSName`, alias.dnsName, { required: true }],
          [
            `${rrs}.aliasTarget.evaluateTargetHealth`,
            alias.evaluateTargetHealth,
            EVALUATE_TARGET_HEALTH_RULE,
          ],
        ] satisfies Field[])),
  ];
}

function constraintViolations(input: ChangeInput, path: string): string[] {
  const violations = fieldsOf(input).flatMap(([field, value, rule, missing = 'null']) => {
    const constraint = broken(value, rule);
    return constraint === undefined
      ? []
      : [`Value '${value ?? missing}' at '${path}.${field}' failed to satisfy constraint: ${constraint}`];
  });
  if (violations.length > 0) return violations;
  const invalid = invalidRequest(input);
  return invalid === undefined ? [] : [invalid];
}

/** The "Invalid request" checks Route 53 applies to a well-typed change (answered as `InvalidInput`). */
function invalidRequest(input: ChangeInput): string | undefined {
  const set = input.recordSet;
  const where = `in Change with [Action=${input.action}, Name=${toRoute53Name(fromRoute53Name(set.name ?? ''))}, Type=${set.type}, SetIdentifier=${set.setIdentifier ?? 'null'}]`;
  if (!(SUPPORTED_TYPES as readonly string[]).includes(set.type ?? '')) {
    return `Invalid request: the local Route 53 accepts changes to ${SUPPORTED_TYPES.join(', ')} record sets only, got type ${set.type} ${where}`;
  }
  if (set.trafficPolicyInstanceId !== undefined || set.geoProximityLocation === true) {
    return `Invalid request: the local Route 53 does not implement TrafficPolicyInstanceId or GeoProximityLocation ${where}`;
  }
  const hasRecords = set.ttl !== undefined && set.values !== undefined && set.values.length > 0;
  const hasPartialRecords = !hasRecords && (set.ttl !== undefined || (set.values?.length ?? 0) > 0);
  const targets = (set.aliasTarget === undefined ? 0 : 1) + (hasRecords || hasPartialRecords ? 1 : 0);
  if (targets !== 1 || hasPartialRecords) {
    const found = targets > 1 ? 'more than one' : 'none';
    return `Invalid request: Expected exactly one of [AliasTarget, all of [TTL, and ResourceRecords], or TrafficPolicyInstanceId], but found ${found} ${where}`;
  }
  const routingFields = [
    set.weight,
    set.region,
    set.failover,
    set.geoLocation,
    set.multiValueAnswer,
    set.cidrRoutingConfig,
  ].filter((field) => field !== undefined);
  if (routingFields.length > 1) {
    return `Invalid request: Expected exactly one of [Weight, Region, Failover, GeoLocation, MultiValueAnswer, GeoProximityLocation, or CidrRoutingConfig], but found more than one ${where}`;
  }
  if (routingFields.length === 1 && set.setIdentifier === undefined)
    return `Invalid request: Missing field 'SetIdentifier' ${where}`;
  if (routingFields.length === 0 && set.setIdentifier !== undefined) {
    return `Invalid request: Expected exactly one of [Weight, Region, Failover, GeoLocation, MultiValueAnswer, GeoProximityLocation, or CidrRoutingConfig], but found none ${where}`;
  }
  return set.geoLocation === undefined ? undefined : invalidGeoLocation(set.geoLocation, where);
}

function invalidGeoLocation(
  geo: NonNullable<RecordSetInput['geoLocation']>,
  where: string,
): string | undefined {
  const { continentCode, countryCode, subdivisionCode } = geo;
  if (continentCode === undefined && countryCode === undefined)
    return `Invalid request: GeoLocation needs a ContinentCode or a CountryCode ${where}`;
  if (continentCode !== undefined && (countryCode !== undefined || subdivisionCode !== undefined)) {
    return `Invalid request: GeoLocation takes either a ContinentCode or a CountryCode (with an optional SubdivisionCode), not both ${where}`;
  }
  if (continentCode !== undefined && !(CONTINENT_CODES as readonly string[]).includes(continentCode)) {
    return `Invalid request: GeoLocation ContinentCode must be one of ${CONTINENT_CODES.join(', ')}, got '${continentCode}' ${where}`;
  }
  if (countryCode !== undefined && countryCode !== '*' && !/^[A-Z]{2}$/.test(countryCode)) {
    return `Invalid request: GeoLocation CountryCode must be an ISO 3166-1 alpha-2 code or '*', got '${countryCode}' ${where}`;
  }
  if (
    subdivisionCode !== undefined &&
    (countryCode === undefined || countryCode === '*' || !/^[A-Z0-9]{1,3}$/.test(subdivisionCode))
  ) {
    return `Invalid request: GeoLocation SubdivisionCode '${subdivisionCode}' needs a CountryCode and must be 1–3 letters or digits ${where}`;
  }
  return undefined;
}

function toChange(input: ChangeInput): Change {
  const { geoLocation: geo, aliasTarget: alias, cidrRoutingConfig: cidr, ...set } = input.recordSet;
  const recordSet: RecordSet = {
    name: fromRoute53Name(set.name ?? ''),
    type: set.type as RecordType,
    ...present({
      ttl: set.ttl === undefined ? undefined : Number(set.ttl),
      setIdentifier: set.setIdentifier,
      weight: set.weight === undefined ? undefined : Number(set.weight),
      region: set.region,
      geoLocation: geo && present(geo),
      multiValueAnswer: set.multiValueAnswer === undefined ? undefined : set.multiValueAnswer === 'true',
      cidrRoutingConfig: cidr && {
        collectionId: cidr.collectionId ?? '',
        locationName: cidr.locationName ?? '',
      },
      failover: set.failover as FailoverRole | undefined,
      aliasTarget: alias && {
        hostedZoneId: (alias.hostedZoneId ?? '').replace(/^\/hostedzone\//, ''),
        dnsName: fromRoute53Name(alias.dnsName ?? ''),
        evaluateTargetHealth: alias.evaluateTargetHealth === 'true',
      },
      healthCheckId: set.healthCheckId,
    }),
    values: set.values ?? [],
  };
  return { action: input.action as ChangeAction, recordSet };
}
