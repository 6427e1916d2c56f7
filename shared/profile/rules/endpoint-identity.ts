/** Endpoint names and priorities are unique in their profile (a missing priority is the list position). */
import { LIMITS } from '../defaults.js';
import { isRecord } from '../issues.js';
import { seenBefore, validInteger, validName, type EndpointRules, type EndpointScope } from './report.js';

export function endpointIdentityRules(scope: EndpointScope): EndpointRules {
  const { endpoints, ref, at, report } = scope;
  const names = new Map<string, number>();
  const priorities = new Map<number, number>();
  return {
    endpoint(raw, index) {
      const name = validName(raw.name);
      if (name !== undefined) {
        const first = seenBefore(names, name.toLowerCase(), index);
        if (first !== undefined)
          report(
            at(index, 'name'),
            'unique-name',
            raw.name,
            `must be unique in the profile: ${ref(first)} has the same name`,
          );
      }

      const priority =
        raw.priority === undefined
          ? index + 1
          : validInteger(raw.priority, LIMITS.priority.min, LIMITS.priority.max);
      if (priority === undefined) return;
      const first = seenBefore(priorities, priority, index);
      if (first === undefined) return;
      const theirs =
        isRecord(endpoints[first]) && (endpoints[first] as Record<string, unknown>).priority === undefined
          ? ' (its list position)'
          : '';
      const ours =
        raw.priority === undefined
          ? `; without a priority this endpoint gets its list position, ${priority}`
          : '';
      report(
        at(index, 'priority'),
        'unique-priority',
        raw.priority,
        `must be unique in the profile: ${ref(first)} has priority ${priority}${theirs}${ours}`,
      );
    },
  };
}
