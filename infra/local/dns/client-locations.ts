/**
 * The client-location table: client subnets → where the client is (country,
 * continent, subdivision, nearest AWS region). A toy stand-in for a GeoIP
 * database, so that geolocation, latency and CIDR answers can be tried on
 * loopback. Longest prefix wins; `default` covers everything else.
 */
import { z } from 'zod';
import { CONTINENT_CODES, type ContinentCode } from '../../../shared/profile/geo-codes.js';
import { ClientLocationsError } from './errors.js';
import {
  cidrContains,
  formatCidr,
  parseCidr,
  type Cidr,
  type IpAddress,
} from '../../../shared/ip/addresses.js';
import defaultTableJson from './client-locations.json' with { type: 'json' };

export interface ClientLocation {
  /** ISO 3166-1 alpha-2, upper case (Route 53 `CountryCode`). */
  readonly country: string;
  readonly continent: ContinentCode;
  /** Route 53 `SubdivisionCode` within `country`, e.g. `CA` for US-CA. */
  readonly subdivision?: string;
  /** The AWS region latency records resolve to for this client. */
  readonly awsRegion: string;
}

export interface ClientSubnet {
  readonly block: Cidr;
  readonly location: ClientLocation;
}

export interface ClientLocationTable {
  readonly default: ClientLocation;
  /** Most specific first. */
  readonly subnets: readonly ClientSubnet[];
}

const locationSchema = z.strictObject({
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an upper-case ISO 3166-1 alpha-2 country code such as "DE"'),
  continent: z.enum(CONTINENT_CODES, `must be one of ${CONTINENT_CODES.join(', ')}`),
  subdivision: z
    .string()
    .regex(
      /^[A-Z0-9]{1,3}$/,
      'must be a Route 53 subdivision code without the country, such as "CA" for US-CA',
    )
    .optional(),
  awsRegion: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/, 'must be an AWS region name such as "eu-central-1"'),
});

const tableSchema = z.strictObject({
  $comment: z.string().optional(),
  default: locationSchema,
  subnets: z.record(z.string(), locationSchema),
});

const describePath = (path: readonly PropertyKey[]): string =>
  path.length === 0
    ? '(top level)'
    : path
        .map((key) => (typeof key === 'string' && /^[\w$]+$/.test(key) ? key : JSON.stringify(String(key))))
        .join('.');

/** Validates a parsed JSON table; throws a `ClientLocationsError` naming every problem (path, rule, value). */
export function parseClientLocations(input: unknown, source: string): ClientLocationTable {
  const parsed = tableSchema.safeParse(input, { reportInput: true });
  const problems: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const got =
        issue.code === 'unrecognized_keys' ? '' : `, got ${JSON.stringify(issue.input) ?? 'nothing'}`;
      problems.push(`${describePath(issue.path)}: ${issue.message}${got}`);
    }
  }
  const subnets: ClientSubnet[] = [];
  const rawSubnets = (input as { subnets?: unknown } | null)?.subnets;
  if (typeof rawSubnets === 'object' && rawSubnets !== null) {
    for (const cidr of Object.keys(rawSubnets)) {
      const block = parseCidr(cidr, { bareAddress: true });
      if (!block.ok) problems.push(`subnets: key ${cidrProblem(cidr, block)}`);
      else if (parsed.success)
        subnets.push({ block: block.cidr, location: parsed.data.subnets[cidr] as ClientLocation });
    }
  }
  if (!parsed.success || problems.length > 0) throw new ClientLocationsError(source, problems);
  subnets.sort((a, b) => b.block.prefix - a.block.prefix);
  return { default: parsed.data.default, subnets };
}

function cidrProblem(text: string, parsed: Exclude<ReturnType<typeof parseCidr>, { ok: true }>): string {
  switch (parsed.reason) {
    case 'address':
      return `"${text}" does not start with an IPv4 or IPv6 address`;
    case 'prefix':
      return `"${text}" needs a prefix length 0–${parsed.bits}`;
    case 'host-bits':
      return `"${text}" has host bits set after /${parsed.network.prefix} (did you mean ${formatCidr(parsed.network)}?)`;
  }
}

/** Where a client is, and the subnet that matched: the longest matching one, else (no subnet) the default entry. */
export function locateClient(table: ClientLocationTable, address: IpAddress) {
  const subnet = table.subnets.find((candidate) => cidrContains(candidate.block, address));
  return subnet ? { location: subnet.location, subnet } : { location: table.default };
}

/** The built-in table (`client-locations.json`): loopback and the documentation ranges. */
export const DEFAULT_CLIENT_LOCATIONS: ClientLocationTable = parseClientLocations(
  defaultTableJson,
  'infra/local/dns/client-locations.json',
);
