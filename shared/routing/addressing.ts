/**
 * What an endpoint answers with. External endpoints answer with their target (host name →
 * CNAME, IPv4 → A, IPv6 → AAAA). A nested endpoint answers with the child profile's name:
 * an alias per address type the child publishes when the parent publishes addresses, a
 * CNAME to the child's name when the parent (or the child) publishes host names.
 */
import type { Endpoint, ExternalEndpoint, Profile } from '../profile/types.js';
import type { AliasTarget, RecordType } from '../zone/record-set.js';
import { UnknownChildProfileError } from './errors.js';

export interface Answer {
  readonly type: RecordType;
  /** Empty for aliases. */
  readonly values: readonly string[];
  readonly aliasTarget?: AliasTarget;
}

export interface Addressing {
  /** The record types a profile publishes, from its configuration (not from statuses), so they stay stable. */
  typesOf(profile: Profile): ReadonlySet<RecordType>;
  answersOf(profile: Profile, endpoint: Endpoint): Answer[];
}

const TYPE_OF_KIND: Readonly<Record<ExternalEndpoint['targetKind'], RecordType>> = {
  hostname: 'CNAME',
  ipv4: 'A',
  ipv6: 'AAAA',
};

const ADDRESS_TYPES: readonly RecordType[] = ['A', 'AAAA'];

export function createAddressing(profiles: readonly Profile[]): Addressing {
  const byName = new Map(profiles.map((p) => [p.name, p]));
  const memo = new Map<string, ReadonlySet<RecordType>>();

  const childOf = (profile: Profile, endpoint: Endpoint & { type: 'nested' }): Profile => {
    const child = byName.get(endpoint.targetProfile);
    if (child === undefined)
      throw new UnknownChildProfileError(profile.name, endpoint.name, endpoint.targetProfile);
    return child;
  };

  // `visiting` guards against a cycle that validation should have rejected.
  const typesOf = (profile: Profile, visiting: ReadonlySet<string>): ReadonlySet<RecordType> => {
    const known = memo.get(profile.name);
    if (known !== undefined) return known;
    const types = new Set<RecordType>();
    for (const endpoint of profile.endpoints) {
      if (endpoint.type === 'external') {
        types.add(TYPE_OF_KIND[endpoint.targetKind]);
        continue;
      }
      const child = childOf(profile, endpoint);
      if (visiting.has(child.name)) continue;
      for (const type of typesOf(child, new Set([...visiting, child.name]))) types.add(type);
    }
    const result: ReadonlySet<RecordType> = types.has('CNAME') ? new Set(['CNAME']) : types;
    memo.set(profile.name, result);
    return result;
  };

  return {
    typesOf: (profile) => typesOf(profile, new Set([profile.name])),
    answersOf(profile, endpoint) {
      if (endpoint.type === 'external') {
        return [{ type: TYPE_OF_KIND[endpoint.targetKind], values: [endpoint.target] }];
      }
      const child = childOf(profile, endpoint);
      const childName = child.dnsConfig.fqdn;
      if (this.typesOf(profile).has('CNAME')) return [{ type: 'CNAME', values: [childName] }];
      const childTypes = this.typesOf(child);
      return ADDRESS_TYPES.filter((type) => childTypes.has(type)).map((type) => ({
        type,
        values: [],
        aliasTarget: {
          // Without a hosted zone id in the definitions the zone name stands in; the publisher resolves it.
          hostedZoneId: child.dnsConfig.hostedZoneId ?? child.dnsConfig.zoneName,
          dnsName: childName,
          evaluateTargetHealth: false,
        },
      }));
    },
  };
}
