/**
 * The routing planner (SPEC §5, §6): profiles + endpoint monitor statuses → the Route 53
 * record sets and CIDR collections to publish. Pure; the same inputs always give the same
 * output, in the same order (profiles as given, records in priority order).
 */
import type { Profile, RoutingMethod } from '../profile/types.js';
import type { EndpointMonitorStatus } from '../status/vocabulary.js';
import type { CidrCollection, RecordSet } from '../zone/record-set.js';
import { createAddressing } from './addressing.js';
import { cidrCollectionOf } from './cidr-collections.js';
import { byPriority } from './eligibility.js';
import type { RoutingMethodPlanner } from './method.js';
import { planGeographic } from './methods/geographic.js';
import { planMultiValue } from './methods/multivalue.js';
import { planPerformance } from './methods/performance.js';
import { planPriority } from './methods/priority.js';
import { planSubnet } from './methods/subnet.js';
import { planWeighted } from './methods/weighted.js';

export interface RecordPlan {
  readonly records: RecordSet[];
  /** One per Subnet profile with ranges; `id` holds the collection name (see cidr-collections.ts). */
  readonly cidrCollections: CidrCollection[];
}

export type EndpointStatusOf = (profile: string, endpoint: string) => EndpointMonitorStatus;

const METHODS: Readonly<Record<RoutingMethod, RoutingMethodPlanner>> = {
  Priority: planPriority,
  Weighted: planWeighted,
  Performance: planPerformance,
  Geographic: planGeographic,
  MultiValue: planMultiValue,
  Subnet: planSubnet,
};

export function planRecords(profiles: readonly Profile[], statusOf: EndpointStatusOf): RecordPlan {
  const addressing = createAddressing(profiles);
  const records: RecordSet[] = [];
  const cidrCollections: CidrCollection[] = [];
  for (const profile of profiles) {
    const collection = cidrCollectionOf(profile);
    if (collection !== undefined) cidrCollections.push(collection);
    // A disabled profile publishes nothing: its name answers NXDOMAIN.
    if (profile.profileStatus === 'Disabled') continue;
    const endpoints = byPriority(profile.endpoints).map((endpoint) => ({
      endpoint,
      status: statusOf(profile.name, endpoint.name),
    }));
    const plan = METHODS[profile.trafficRoutingMethod];
    records.push(
      ...plan({ profile, endpoints, answersOf: (endpoint) => addressing.answersOf(profile, endpoint) }),
    );
  }
  return { records, cidrCollections };
}
