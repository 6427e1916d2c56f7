/**
 * The first stage of ChangeResourceRecordSets: the request's shape. Field
 * constraints of the API model (ranges, lengths, enums) and the "Invalid
 * request" checks are answered with `InvalidInput`, as Route 53 does; what
 * passes becomes typed `Change`s for the batch rules (change-batch.ts).
 * Constraints: https://docs.aws.amazon.com/Route53/latest/APIReference/API_ResourceRecordSet.html
 */
import type {
  Change,
  ChangeAction,
  FailoverRole,
  GeoLocation,
  RecordSet,
  RecordType,
} from '../../../shared/zone/record-set.js';
import type { ChangeInput, RecordSetInput } from './change-input.js';
import { CONTINENT_CODES } from '../../../shared/profile/geo-codes.js';
import { InvalidInputError } from './errors.js';
import { fromRoute53Name, toRoute53Name } from '../../../shared/zone/names.js';

const ACTIONS: readonly ChangeAction[] = ['CREATE', 'DELETE', 'UPSERT'];
const ROUTE53_TYPES = [
  'SOA',
  'A',
  'TXT',
  'NS',
  'CNAME',
  'MX',
  'NAPTR',
  'PTR',
  'SRV',
  'SPF',
  'AAAA',
  'CAA',
  'DS',
  'TLSA',
  'SSHFP',
  'SVCB',
  'HTTPS',
];
/** The types this local Route 53 stores and serves (what the planner publishes). */
export const SUPPORTED_TYPES: readonly RecordType[] = ['A', 'AAAA', 'CNAME'];
const FAILOVER_ROLES: readonly FailoverRole[] = ['PRIMARY', 'SECONDARY'];
/** `ResourceRecordSetRegion` of the Route 53 API model (@aws-sdk/client-route-53). */
export const LATENCY_REGIONS: readonly string[] = [
  'af-south-1', 'ap-east-1', 'ap-east-2', 'ap-northeast-1', 'ap-northeast-2', 'ap-northeast-3', 'ap-south-1', 'ap-south-2',
  'ap-southeast-1', 'ap-southeast-2', 'ap-southeast-3', 'ap-southeast-4', 'ap-southeast-5', 'ap-southeast-6', 'ap-southeast-7',
  'ca-central-1', 'ca-west-1', 'cn-north-1', 'cn-northwest-1', 'eu-central-1', 'eu-central-2', 'eu-north-1', 'eu-south-1',
  'eu-south-2', 'eu-west-1', 'eu-west-2', 'eu-west-3', 'eusc-de-east-1', 'il-central-1', 'me-central-1', 'me-south-1',
  'mx-central-1', 'sa-east-1', 'us-east-1', 'us-east-2', 'us-gov-east-1', 'us-gov-west-1', 'us-west-1', 'us-west-2',
]; // prettier-ignore
const MAX_TTL = 2_147_483_647;
const CIDR_COLLECTION_ID = /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/;
const CIDR_LOCATION_NAME = /^[0-9A-Za-z_\-*]{1,16}$/;

/** Validates the shape of every change; throws one `InvalidInputError` naming every violated constraint. */
export function parseChanges(inputs: readonly ChangeInput[]): Change[] {
  if (inputs.length === 0) {
    throw new InvalidInputError(
      "1 validation error detected: Value '[]' at 'changeBatch.changes' failed to satisfy constraint: Member must have length greater than or equal to 1",
    );
  }
  const violations = inputs.flatMap((input, index) =>
    constraintViolations(input, `changeBatch.changes.${index + 1}.member`),
  );
  if (violations.length > 0) {
    const count = violations.length;
    throw new InvalidInputError(
      `${count} validation error${count === 1 ? '' : 's'} detected: ${violations.join('; ')}`,
    );
  }
  return inputs.map((input) => toChange(input));
}

function constraintViolations(input: ChangeInput, path: string): string[] {
  const violations: string[] = [];
  const violation = (field: string, value: unknown, constraint: string) =>
    violations.push(
      `Value '${String(value)}' at '${path}.${field}' failed to satisfy constraint: ${constraint}`,
    );
  const set = input.recordSet;
  const rrs = 'resourceRecordSet';

  if (input.action === undefined) violation('action', null, 'Member must not be null');
  else if (!(ACTIONS as readonly string[]).includes(input.action))
    violation('action', input.action, `Member must satisfy enum value set: [${ACTIONS.join(', ')}]`);
  if (set.name === undefined) violation(`${rrs}.name`, null, 'Member must not be null');
  else if (set.name.length > 1024)
    violation(`${rrs}.name`, set.name, 'Member must have length less than or equal to 1024');
  if (set.type === undefined) violation(`${rrs}.type`, null, 'Member must not be null');
  else if (!ROUTE53_TYPES.includes(set.type))
    violation(`${rrs}.type`, set.type, `Member must satisfy enum value set: [${ROUTE53_TYPES.join(', ')}]`);
  if (set.setIdentifier !== undefined && (set.setIdentifier.length < 1 || set.setIdentifier.length > 128)) {
    violation(`${rrs}.setIdentifier`, set.setIdentifier, 'Member must have length between 1 and 128');
  }
  checkInteger(set.weight, 0, 255, (constraint) => violation(`${rrs}.weight`, set.weight, constraint));
  checkInteger(set.ttl, 0, MAX_TTL, (constraint) => violation(`${rrs}.tTL`, set.ttl, constraint));
  if (set.region !== undefined && !LATENCY_REGIONS.includes(set.region)) {
    violation(
      `${rrs}.region`,
      set.region,
      `Member must satisfy enum value set: [${LATENCY_REGIONS.join(', ')}]`,
    );
  }
  if (set.failover !== undefined && !(FAILOVER_ROLES as readonly string[]).includes(set.failover)) {
    violation(
      `${rrs}.failover`,
      set.failover,
      `Member must satisfy enum value set: [${FAILOVER_ROLES.join(', ')}]`,
    );
  }
  if (
    set.multiValueAnswer !== undefined &&
    set.multiValueAnswer !== 'true' &&
    set.multiValueAnswer !== 'false'
  ) {
    violation(`${rrs}.multiValueAnswer`, set.multiValueAnswer, 'Member must be a boolean');
  }
  set.values?.forEach((value, index) => {
    if (value.length > 4000)
      violation(
        `${rrs}.resourceRecords.${index + 1}.member.value`,
        value,
        'Member must have length less than or equal to 4000',
      );
  });
  if (set.healthCheckId !== undefined && (set.healthCheckId.length < 1 || set.healthCheckId.length > 64))
    violation(`${rrs}.healthCheckId`, set.healthCheckId, 'Member must have length between 1 and 64');
  const cidr = set.cidrRoutingConfig;
  if (cidr !== undefined) {
    if (cidr.collectionId === undefined || !CIDR_COLLECTION_ID.test(cidr.collectionId)) {
      violation(
        `${rrs}.cidrRoutingConfig.collectionId`,
        cidr.collectionId,
        `Member must satisfy regular expression pattern: ${CIDR_COLLECTION_ID.source}`,
      );
    }
    if (cidr.locationName === undefined || !CIDR_LOCATION_NAME.test(cidr.locationName)) {
      violation(
        `${rrs}.cidrRoutingConfig.locationName`,
        cidr.locationName,
        'Member must have length between 1 and 16 and satisfy regular expression pattern: [0-9A-Za-z_\\-\\*]+',
      );
    }
  }
  const alias = set.aliasTarget;
  if (alias !== undefined) {
    if (alias.hostedZoneId === undefined)
      violation(`${rrs}.aliasTarget.hostedZoneId`, null, 'Member must not be null');
    if (alias.dnsName === undefined) violation(`${rrs}.aliasTarget.dNSName`, null, 'Member must not be null');
    if (alias.evaluateTargetHealth !== 'true' && alias.evaluateTargetHealth !== 'false') {
      violation(
        `${rrs}.aliasTarget.evaluateTargetHealth`,
        alias.evaluateTargetHealth ?? null,
        'Member must not be null',
      );
    }
  }
  if (violations.length > 0) return violations;
  const invalid = invalidRequest(input);
  return invalid === undefined ? [] : [invalid];
}

function checkInteger(
  text: string | undefined,
  min: number,
  max: number,
  report: (constraint: string) => void,
): void {
  if (text === undefined) return;
  const value = Number(text);
  if (!Number.isInteger(value)) report('Member must be an integer');
  else if (value < min) report(`Member must have value greater than or equal to ${min}`);
  else if (value > max) report(`Member must have value less than or equal to ${max}`);
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
  const set = input.recordSet;
  const geo = set.geoLocation;
  const geoLocation: GeoLocation | undefined =
    geo === undefined
      ? undefined
      : {
          ...(geo.continentCode === undefined ? {} : { continentCode: geo.continentCode }),
          ...(geo.countryCode === undefined ? {} : { countryCode: geo.countryCode }),
          ...(geo.subdivisionCode === undefined ? {} : { subdivisionCode: geo.subdivisionCode }),
        };
  const alias = set.aliasTarget;
  const cidr = set.cidrRoutingConfig;
  const recordSet: RecordSet = {
    name: fromRoute53Name(set.name ?? ''),
    type: set.type as RecordType,
    ...(set.ttl === undefined ? {} : { ttl: Number(set.ttl) }),
    ...(set.setIdentifier === undefined ? {} : { setIdentifier: set.setIdentifier }),
    ...(set.weight === undefined ? {} : { weight: Number(set.weight) }),
    ...(set.region === undefined ? {} : { region: set.region }),
    ...(geoLocation === undefined ? {} : { geoLocation }),
    ...(set.multiValueAnswer === undefined ? {} : { multiValueAnswer: set.multiValueAnswer === 'true' }),
    ...(cidr === undefined
      ? {}
      : {
          cidrRoutingConfig: { collectionId: cidr.collectionId ?? '', locationName: cidr.locationName ?? '' },
        }),
    ...(set.failover === undefined ? {} : { failover: set.failover as FailoverRole }),
    ...(alias === undefined
      ? {}
      : {
          aliasTarget: {
            hostedZoneId: (alias.hostedZoneId ?? '').replace(/^\/hostedzone\//, ''),
            dnsName: fromRoute53Name(alias.dnsName ?? ''),
            evaluateTargetHealth: alias.evaluateTargetHealth === 'true',
          },
        }),
    ...(set.healthCheckId === undefined ? {} : { healthCheckId: set.healthCheckId }),
    values: set.values ?? [],
  };
  return { action: input.action as ChangeAction, recordSet };
}
