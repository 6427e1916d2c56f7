/**
 * Values Azure reads otherwise than they are written, made what Azure makes of them before
 * the mapping: integers written as text (`"weight": "3"`, through a string parameter or
 * variable), which ARM converts for an integer property; and the fields Azure ignores for
 * the profile's routing method and writes anyway (`maxReturn: 0` in every portal export,
 * `endpointLocation` on every Azure endpoint `az … profile show` prints). A report line each.
 */
import { valueNamed } from '../profile/azure-forms.js';
import { isRecord } from '../profile/issues.js';
import { ROUTING_METHODS } from '../profile/types.js';
import type { ImportProblem } from './problems.js';
import type { AzureProfile } from './shapes.js';

const PROFILE_INTEGERS = ['maxReturn'];
const DNS_INTEGERS = ['ttl'];
const MONITOR_INTEGERS = ['port', 'intervalInSeconds', 'timeoutInSeconds', 'toleratedNumberOfFailures'];
const ENDPOINT_INTEGERS = [
  'weight',
  'priority',
  'minChildEndpoints',
  'minChildEndpointsIPv4',
  'minChildEndpointsIPv6',
];

/** Adjusts `profile` in place; returns a report line per value changed or dropped. */
export function adjustProfile(profile: AzureProfile): ImportProblem[] {
  const notes: ImportProblem[] = [];
  const { fields } = profile;
  integers(fields, PROFILE_INTEGERS, profile.where, notes);
  if (isRecord(fields.dnsConfig))
    integers(fields.dnsConfig, DNS_INTEGERS, `${profile.where}.dnsConfig`, notes);
  const monitor = fields.monitorConfig;
  if (isRecord(monitor)) {
    integers(monitor, MONITOR_INTEGERS, `${profile.where}.monitorConfig`, notes);
    if (Array.isArray(monitor.expectedStatusCodeRanges))
      monitor.expectedStatusCodeRanges.forEach((range: unknown, index) => {
        if (isRecord(range))
          integers(
            range,
            ['min', 'max'],
            `${profile.where}.monitorConfig.expectedStatusCodeRanges[${index}]`,
            notes,
          );
      });
  }
  const method = typeof fields.trafficRoutingMethod === 'string' ? fields.trafficRoutingMethod : undefined;
  const ours = method === undefined ? undefined : valueNamed(method, ROUTING_METHODS);
  if (method !== undefined && ours !== 'MultiValue' && fields.maxReturn !== undefined) {
    notes.push({
      where: `${profile.where}.maxReturn`,
      message: `is ${JSON.stringify(fields.maxReturn)}, which Azure ignores for a ${method} profile (it is MultiValue's): dropped`,
    });
    delete fields.maxReturn;
  }
  for (const endpoint of profile.endpoints) {
    integers(endpoint.fields, ENDPOINT_INTEGERS, endpoint.where, notes);
    if (Array.isArray(endpoint.fields.subnets))
      endpoint.fields.subnets.forEach((subnet: unknown, index) => {
        if (isRecord(subnet)) integers(subnet, ['scope'], `${endpoint.where}.subnets[${index}]`, notes);
      });
    const location = endpoint.fields.endpointLocation;
    if (method !== undefined && ours !== 'Performance' && location !== undefined) {
      notes.push({
        where: `${endpoint.where}.endpointLocation`,
        message: `is ${JSON.stringify(location)}, which Azure ignores for a ${method} profile (it is Performance's): dropped`,
      });
      delete endpoint.fields.endpointLocation;
    }
  }
  return notes;
}

/** The `keys` of `object` written as integer text become the integer, as ARM converts them. */
function integers(
  object: Record<string, unknown>,
  keys: readonly string[],
  where: string,
  notes: ImportProblem[],
): void {
  for (const key of keys) {
    const value = object[key];
    if (typeof value !== 'string' || !/^\s*-?\d{1,9}\s*$/.test(value)) continue;
    object[key] = Number(value);
    notes.push({
      where: `${where}.${key}`,
      message: `is the text ${JSON.stringify(value)}: the integer ${Number(value)}, as ARM reads it for this integer property`,
    });
  }
}
