/**
 * One addressing kind per profile (all host names, all IPv4 or all IPv6 addresses), because
 * Route 53 publishes one record type per name; MultiValue profiles take IP addresses only
 * (IPv4 and IPv6 may mix there: A and AAAA records side by side).
 */
import { classifyTarget, type ClassifiedTarget } from '../target.js';
import type { EndpointRules, EndpointScope } from './report.js';

const KIND_LABEL: Readonly<Record<ClassifiedTarget['kind'], string>> = {
  hostname: 'a host name',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
};

export function addressingRules(scope: EndpointScope): EndpointRules {
  const { method, ref, at, report } = scope;
  let addressing: { endpoint: number; target: ClassifiedTarget } | undefined;
  return {
    endpoint(raw, index) {
      if (raw.type === 'nested' || method === undefined) return;
      const target = typeof raw.target === 'string' ? classifyTarget(raw.target) : undefined;
      if (target === undefined) return;
      if (method === 'MultiValue') {
        if (target.kind === 'hostname') {
          report(
            at(index, 'target'),
            'addressing-kind',
            raw.target,
            'must be an IP address: MultiValue profiles accept IP addresses only',
          );
        }
      } else if (addressing === undefined) {
        addressing = { endpoint: index, target };
      } else if (addressing.target.kind !== target.kind) {
        report(
          at(index, 'target'),
          'addressing-kind',
          raw.target,
          `must be ${KIND_LABEL[addressing.target.kind]} like ${ref(addressing.endpoint)}: one addressing kind per profile`,
        );
      }
    },
  };
}
