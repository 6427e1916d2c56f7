/**
 * Azure geographic codes → Route 53's, for one Geographic profile's endpoints at once (a
 * code's meaning depends on what the other endpoints map):
 * - `WORLD`, the regions that are Route 53 continents (`GEO-EU`, `GEO-AS`, `GEO-AF`,
 *   `GEO-NA`, `GEO-SA`, `GEO-AN`), countries and US states stay as they are;
 * - a region Route 53 has no continent for (`GEO-ME` Middle East, `GEO-AP` Australia /
 *   Pacific) becomes its countries;
 * - a subdivision Route 53 lacks (Canadian provinces, UK nations, Australian states) and
 *   Azure's codes for parts of a country (Jan Mayen, Sint Eustatius, Saba) become the whole
 *   country — when no other endpoint maps part of that country (else an error: Route 53
 *   cannot tell the parts apart);
 * - Route 53 has no Middle East, so its continents take in those countries: when a profile
 *   maps such a continent and leaves some Middle East country to `WORLD`, the `WORLD`
 *   endpoint maps that country explicitly, as Azure answers it.
 * A code neither Azure nor Route 53 has, or one Route 53 has no place for (`XK`), is an error.
 */
import { isGeoCode } from '../profile/geo-codes.js';
import { AZURE_GEO_REGIONS, AZURE_PARTS_OF_COUNTRIES, AZURE_SUBDIVISIONS } from './geo-hierarchy.js';

type GeoNote = { readonly endpoint: number; readonly received: unknown; readonly message: string };
type GeoProblem = { readonly endpoint: number; readonly code: string; readonly message: string };

const WORLD = 'WORLD';
const MIDDLE_EAST = 'GEO-ME';
/** Route 53 continents that may hold Middle East countries (it has no Middle East). */
const TAKE_IN_MIDDLE_EAST = ['GEO-AS', 'GEO-EU', 'GEO-AF'];

/** A code standing for a whole country here, found through a narrower Azure code. */
interface Widened {
  readonly endpoint: number;
  readonly code: string;
  readonly place: string;
}

/**
 * `lists`: each endpoint's `geoMapping` as written; `names`: the endpoints' names, for messages.
 * `mappings`: per endpoint, its codes here, or `undefined` where it has no list.
 */
export function mapGeoCodes(lists: readonly unknown[], names: readonly string[]) {
  const notes: GeoNote[] = [];
  const problems: GeoProblem[] = [];
  const widened = new Map<string, Widened[]>();
  const mappings = lists.map((list, endpoint) => {
    if (!Array.isArray(list)) return undefined;
    const out: string[] = [];
    for (const written of list as unknown[]) {
      if (typeof written !== 'string') {
        out.push(written as string); // validation names it
        continue;
      }
      const code = written.toUpperCase();
      const region = AZURE_GEO_REGIONS[code];
      if (isGeoCode(code)) {
        out.push(written);
      } else if (region !== undefined) {
        for (const country of region.countries) {
          const part = AZURE_PARTS_OF_COUNTRIES[country];
          if (part === undefined) out.push(country);
          else widen(part.country, { endpoint, code: country, place: part.name });
        }
        notes.push({
          endpoint,
          received: written,
          message: `${code} (${region.name}) is not a Route 53 continent: it is its ${region.countries.length} countries here`,
        });
      } else {
        const place = partOfCountry(code);
        if (place === undefined)
          problems.push({
            endpoint,
            code: written,
            message:
              code === 'XK'
                ? 'is Kosovo, which Route 53 has no location code for: leave it out (its users then get the WORLD endpoint, if any)'
                : "is not a code of Azure's geographic hierarchy (WORLD, GEO-XX regions, countries, their subdivisions) that Route 53 can route by",
          });
        else widen(place.country, { endpoint, code: written, place: place.name });
      }
    }
    return out;
  });

  for (const [country, parts] of widened) {
    const endpoints = new Set(parts.map((part) => part.endpoint));
    mappings.forEach((codes, index) => {
      if (codes?.some((code) => isCode(code, country))) endpoints.add(index);
    });
    const [only, ...others] = [...endpoints];
    if (only === undefined) continue;
    if (others.length > 0) {
      for (const part of parts)
        problems.push({
          endpoint: part.endpoint,
          code: part.code,
          message: `(${part.place}): Route 53 has no location for part of ${country}, and the endpoints ${[...endpoints].map((e) => JSON.stringify(names[e])).join(', ')} map parts of ${country}: route all of ${country} to one endpoint`,
        });
      continue;
    }
    const codes = mappings[only];
    if (codes === undefined) continue;
    if (!codes.some((code) => isCode(code, country))) codes.push(country);
    const subdivisions = AZURE_SUBDIVISIONS[country] ?? [];
    const whole =
      subdivisions.length > 0 &&
      subdivisions.every((sub) => parts.some((part) => part.code.toUpperCase() === `${country}-${sub}`));
    notes.push({
      endpoint: only,
      received: parts.map((part) => part.code),
      message: whole
        ? `are every subdivision of ${country}, which Route 53 routes as one: ${country} here (the same places)`
        : `Route 53 has no location for part of ${country}: all of ${country} here (no other endpoint maps any of it), so users in the rest of ${country}, whom Azure answers from the endpoint of a wider region or WORLD (or not at all), get this endpoint`,
    });
  }

  fillMiddleEast(mappings, notes);
  return { mappings, notes, problems };

  function widen(country: string, part: Widened): void {
    widened.set(country, [...(widened.get(country) ?? []), part]);
  }
}

/** Whether a mapped entry is `code`, in any case; an entry that is no string (validation names it) is none. */
function isCode(entry: unknown, code: string): boolean {
  return typeof entry === 'string' && entry.toUpperCase() === code;
}

/** `CA-ON`, `GB-SCT`, `AU-NSW`, `XJ`… → the country Route 53 routes them as; `undefined` for a code Azure does not have. */
function partOfCountry(code: string): { country: string; name: string } | undefined {
  const part = AZURE_PARTS_OF_COUNTRIES[code];
  if (part !== undefined) return part;
  const [country = '', subdivision = '', ...rest] = code.split('-');
  if (rest.length > 0 || !(AZURE_SUBDIVISIONS[country] ?? []).includes(subdivision)) return undefined;
  return { country, name: `a subdivision of ${country}` };
}

function fillMiddleEast(mappings: (string[] | undefined)[], notes: GeoNote[]): void {
  const has = (codes: string[] | undefined, code: string) => codes?.some((c) => isCode(c, code)) === true;
  const continent = mappings.findIndex((codes) => TAKE_IN_MIDDLE_EAST.some((code) => has(codes, code)));
  if (continent < 0) return;
  const middleEast = AZURE_GEO_REGIONS[MIDDLE_EAST]?.countries ?? [];
  const unmapped = middleEast.filter((country) => !mappings.some((codes) => has(codes, country)));
  if (unmapped.length === 0) return;
  const world = mappings.findIndex((codes) => has(codes, WORLD));
  const list = unmapped.join(', ');
  if (world >= 0) {
    mappings[world]?.push(...unmapped);
    notes.push({
      endpoint: world,
      received: WORLD,
      message: `also maps ${list} explicitly here: Route 53 has no Middle East and its continents take these countries in, while in Azure (whose GEO-AS, GEO-EU and GEO-AF leave them out) they get this WORLD endpoint`,
    });
  } else {
    notes.push({
      endpoint: continent,
      received: mappings[continent],
      message: `takes in Middle East countries no endpoint maps (of ${list}, those Route 53 counts in its continents): Azure does not answer users there, Route 53 answers them with this endpoint; map GEO-ME to an endpoint to decide`,
    });
  }
}
