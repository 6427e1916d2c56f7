/**
 * Rules of one nested endpoint (the graph rules across profiles are in nesting.ts): health
 * checks stay on, a MultiValue profile has none; collects the edges for the graph rules.
 */
import { isResourceName } from '../names.js';
import type { NestingNode } from './nesting.js';
import type { EndpointRules, EndpointScope } from './report.js';

export function nestedEndpointRules(scope: EndpointScope): EndpointRules & { edges: NestingNode['edges'] } {
  const { at, report } = scope;
  const edges: { endpointIndex: number; targetProfile: string }[] = [];
  return {
    edges,
    endpoint(raw, index) {
      if (raw.type !== 'nested') return;
      if (raw.alwaysServe === true) {
        report(
          at(index, 'alwaysServe'),
          'nested-always-serve',
          raw.alwaysServe,
          'must not be true: health checks cannot be turned off for nested endpoints',
        );
      }
      if (typeof raw.targetProfile === 'string' && isResourceName(raw.targetProfile)) {
        edges.push({ endpointIndex: index, targetProfile: raw.targetProfile });
      }
      if (scope.method === 'MultiValue') {
        report(
          at(index, 'type'),
          'nested-parent-multivalue',
          raw.type,
          'must not be "nested": a MultiValue profile cannot have nested endpoints',
        );
      }
    },
  };
}
