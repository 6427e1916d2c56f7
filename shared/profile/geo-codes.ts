/**
 * Route 53 geolocation codes as written in definitions: `WORLD` (the default location),
 * `GEO-XX` continents, ISO 3166-1 alpha-2 countries, and `US-XX` subdivisions (Route 53
 * supports subdivisions of the United States only: the 50 states and DC) — and the Route 53
 * `GeoLocation` each stands for.
 */
import { AZURE_GEO_REGIONS, AZURE_PARTS_OF_COUNTRIES } from '../azure/geo-hierarchy.js';
import type { GeoLocation } from '../zone/record-set.js';

/** Route 53's continent codes (`GeoLocation.ContinentCode`). */
export const CONTINENT_CODES = ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA'] as const;
export type ContinentCode = (typeof CONTINENT_CODES)[number];

/**
 * Route 53's countries (ISO 3166-1 alpha-2): those of Azure's regions without Azure's own
 * codes (parts of countries, Kosovo `XK`), and Western Sahara, which Azure's hierarchy omits.
 */
const COUNTRIES: ReadonlySet<string> = new Set([
  ...Object.values(AZURE_GEO_REGIONS)
    .flatMap((region) => region.countries)
    .filter((code) => !(code in AZURE_PARTS_OF_COUNTRIES) && code !== 'XK'),
  'EH',
]);

/** The 50 states and the District of Columbia (USPS abbreviations, as Route 53 uses them). */
export const US_SUBDIVISION_CODES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
] as const;

const WORLD = 'WORLD';
const CONTINENT_PREFIX = 'GEO-';

const CONTINENTS: ReadonlySet<string> = new Set(CONTINENT_CODES);
const US_SUBDIVISIONS: ReadonlySet<string> = new Set(US_SUBDIVISION_CODES);

/**
 * The Route 53 `GeoLocation` a definition code stands for: `WORLD` → the default location
 * (country `*`), `GEO-EU` → continent EU, `DE` → country DE, `US-CA` → country US,
 * subdivision CA. `undefined` when the code is not one Route 53 supports. Codes are
 * case-insensitive.
 */
export function geoLocationOf(code: string): GeoLocation | undefined {
  const upper = code.toUpperCase();
  if (upper === WORLD) return { countryCode: '*' };
  const [head, tail, ...rest] = upper.split('-');
  if (rest.length > 0 || head === undefined) return undefined;
  if (tail === undefined) return COUNTRIES.has(head) ? { countryCode: head } : undefined;
  if (head === 'GEO') return CONTINENTS.has(tail) ? { continentCode: tail } : undefined;
  if (head === 'US' && US_SUBDIVISIONS.has(tail)) return { countryCode: 'US', subdivisionCode: tail };
  return undefined;
}

export function isGeoCode(code: string): boolean {
  return geoLocationOf(code) !== undefined;
}

/** The code a geolocation stands for (for display): the inverse of `geoLocationOf`. */
export function geoCodeOf(location: GeoLocation): string {
  if (location.continentCode !== undefined) return `${CONTINENT_PREFIX}${location.continentCode}`;
  if (location.countryCode === '*') return WORLD;
  if (location.subdivisionCode !== undefined)
    return `${location.countryCode ?? ''}-${location.subdivisionCode}`;
  return location.countryCode ?? '';
}
