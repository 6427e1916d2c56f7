/**
 * Azure-style geographic codes ↔ Route 53 geolocations: `WORLD` → the default location
 * (country '*'), `GEO-EU` → continent EU, `DE` → country DE, `US-CA` → country US,
 * subdivision CA.
 */
import type { GeoLocation } from '../zone/record-set.js';

export const WORLD = 'WORLD';
const CONTINENT_PREFIX = 'GEO-';

export function geoLocationOf(code: string): GeoLocation {
  if (code === WORLD) return { countryCode: '*' };
  if (code.startsWith(CONTINENT_PREFIX)) return { continentCode: code.slice(CONTINENT_PREFIX.length) };
  const dash = code.indexOf('-');
  if (dash < 0) return { countryCode: code };
  return { countryCode: code.slice(0, dash), subdivisionCode: code.slice(dash + 1) };
}

/** The code a geolocation was made from (for display). */
export function geoCodeOf(location: GeoLocation): string {
  if (location.continentCode !== undefined) return `${CONTINENT_PREFIX}${location.continentCode}`;
  if (location.countryCode === '*') return WORLD;
  if (location.subdivisionCode !== undefined)
    return `${location.countryCode ?? ''}-${location.subdivisionCode}`;
  return location.countryCode ?? '';
}
