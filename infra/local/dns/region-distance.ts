/**
 * A small built-in stand-in for Route 53's latency measurements: each AWS
 * region's approximate location, and the great-circle distance between two
 * regions. "Nearest region" for a latency answer is the record whose region is
 * closest to the client's region by this distance.
 */

/** Approximate [latitude, longitude] of each region's metro area. */
const REGION_COORDINATES: Readonly<Record<string, readonly [number, number]>> = {
  'us-east-1': [38.9, -77.4], // N. Virginia
  'us-east-2': [40.0, -83.0], // Ohio
  'us-west-1': [37.4, -121.9], // N. California
  'us-west-2': [45.8, -119.7], // Oregon
  'us-gov-east-1': [40.0, -83.0],
  'us-gov-west-1': [45.8, -119.7],
  'ca-central-1': [45.5, -73.6], // Montréal
  'ca-west-1': [51.0, -114.1], // Calgary
  'mx-central-1': [20.6, -100.4], // Querétaro
  'sa-east-1': [-23.5, -46.6], // São Paulo
  'eu-west-1': [53.3, -6.3], // Ireland
  'eu-west-2': [51.5, -0.1], // London
  'eu-west-3': [48.9, 2.4], // Paris
  'eu-central-1': [50.1, 8.7], // Frankfurt
  'eu-central-2': [47.4, 8.5], // Zurich
  'eu-north-1': [59.3, 18.1], // Stockholm
  'eu-south-1': [45.5, 9.2], // Milan
  'eu-south-2': [41.6, -0.9], // Aragón
  'il-central-1': [32.1, 34.8], // Tel Aviv
  'me-south-1': [26.1, 50.6], // Bahrain
  'me-central-1': [24.5, 54.4], // UAE
  'af-south-1': [-33.9, 18.4], // Cape Town
  'ap-south-1': [19.1, 72.9], // Mumbai
  'ap-south-2': [17.4, 78.5], // Hyderabad
  'ap-east-1': [22.3, 114.2], // Hong Kong
  'ap-east-2': [25.0, 121.5], // Taipei
  'ap-northeast-1': [35.7, 139.7], // Tokyo
  'ap-northeast-2': [37.6, 127.0], // Seoul
  'ap-northeast-3': [34.7, 135.5], // Osaka
  'ap-southeast-1': [1.3, 103.8], // Singapore
  'ap-southeast-2': [-33.9, 151.2], // Sydney
  'ap-southeast-3': [-6.2, 106.8], // Jakarta
  'ap-southeast-4': [-37.8, 145.0], // Melbourne
  'ap-southeast-5': [3.1, 101.7], // Kuala Lumpur
  'ap-southeast-7': [13.8, 100.5], // Bangkok
  'cn-north-1': [39.9, 116.4], // Beijing
  'cn-northwest-1': [37.2, 106.2], // Ningxia
};

const EARTH_RADIUS_KM = 6371;
const radians = (degrees: number): number => (degrees * Math.PI) / 180;

/** Great-circle distance in km between two regions; `undefined` when either is not in the table. */
export function regionDistanceKm(from: string, to: string): number | undefined {
  const a = REGION_COORDINATES[from];
  const b = REGION_COORDINATES[to];
  if (!a || !b) return undefined;
  const dLat = radians(b[0] - a[0]);
  const dLon = radians(b[1] - a[1]);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(radians(a[0])) * Math.cos(radians(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
