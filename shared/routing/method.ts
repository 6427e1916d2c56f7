/** What every routing method gets, and how it turns an answer into a record set. */
import type { Profile } from '../profile/types.js';
import type { RecordSet } from '../zone/record-set.js';
import type { Answer } from './addressing.js';
import type { RankedEndpoint } from './eligibility.js';
import type { Endpoint } from '../profile/types.js';

export interface MethodInput {
  readonly profile: Profile;
  /** Every endpoint of the profile with its monitor status, in priority order. */
  readonly endpoints: readonly RankedEndpoint[];
  readonly answersOf: (endpoint: Endpoint) => Answer[];
}

/** One routing method: the profile's record sets (empty = no answer, NXDOMAIN). */
export type RoutingMethodPlanner = (input: MethodInput) => RecordSet[];

/** The routing-policy fields of a record (everything but name, type, TTL and values). */
export type RoutingPolicy = Omit<RecordSet, 'name' | 'type' | 'ttl' | 'values' | 'aliasTarget'>;

/** A record at the profile's name; aliases carry no TTL (Route 53 uses the target's). */
export function recordOf(profile: Profile, answer: Answer, policy: RoutingPolicy): RecordSet {
  const base = { name: profile.dnsConfig.fqdn, type: answer.type };
  if (answer.aliasTarget !== undefined)
    return { ...base, ...policy, aliasTarget: answer.aliasTarget, values: [] };
  return { ...base, ttl: profile.dnsConfig.ttl, ...policy, values: answer.values };
}
