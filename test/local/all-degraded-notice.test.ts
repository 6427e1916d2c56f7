/**
 * What `tm local` says when every endpoint of a profile is Degraded: what DNS then answers
 * depends on the routing method (docs/routing.md "Which endpoints answer").
 */
import { describe, expect, it } from 'vitest';
import { allDegradedNotices } from '../../infra/cli/local-log.js';
import type { TransitionRecord } from '../../shared/evaluation/transitions.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import type { Profile } from '../../shared/profile/types.js';

const dnsConfig = { zoneName: 'example.com', relativeName: 'p' };
const endpoints = [
  { name: 'second', target: '192.0.2.2', priority: 2 },
  { name: 'first', target: '192.0.2.1', priority: 1 },
  { name: 'third', target: '192.0.2.3', priority: 3 },
];
const located = endpoints.map((e, i) => ({
  ...e,
  endpointLocation: ['eu-west-1', 'us-east-1', 'us-east-1'][i]!,
}));
const geo = endpoints.map((e, i) => ({
  name: e.name,
  target: e.target,
  geoMapping: [['WORLD', 'DE', 'FR'][i]!],
}));
const subnet = endpoints.map((e, i) => ({ name: e.name, target: e.target, subnets: [`10.${i}.0.0/16`] }));

function profile(fields: Record<string, unknown>): Profile {
  return parseDefinitionsOrThrow([{ name: 'p', dnsConfig, endpoints, ...fields }])[0]!;
}

function record(endpoint: string, to: string): TransitionRecord {
  return { profile: 'p', endpoint, from: 'Online', to } as unknown as TransitionRecord;
}

/** The notice once all three endpoints have gone Degraded. */
function noticeOnAllDegraded(p: Profile): string | undefined {
  const notices = allDegradedNotices((name) => (name === p.name ? p : undefined));
  for (const name of ['first', 'second', 'third']) expect(notices(record(name, 'Online'))).toBeUndefined();
  expect(notices(record('first', 'Degraded'))).toBeUndefined();
  expect(notices(record('second', 'Degraded'))).toBeUndefined();
  return notices(record('third', 'Degraded'));
}

const head = 'p: every endpoint is Degraded — DNS ';
const tail = '; the profile shows Degraded';

describe('the all-degraded notice of tm local', () => {
  it.each([
    {
      name: 'Priority answers the first endpoint by priority, not all of them',
      profile: profile({ trafficRoutingMethod: 'Priority' }),
      says: 'now answers with first, the first by priority, as if all were Online (best effort: the all-degraded rule)',
    },
    {
      name: 'Weighted answers all of them by weight',
      profile: profile({ trafficRoutingMethod: 'Weighted' }),
      says: 'now answers with all of them by weight, as if all were Online (best effort: the all-degraded rule)',
    },
    {
      name: 'Performance answers the closest region of them',
      profile: profile({ trafficRoutingMethod: 'Performance', endpoints: located }),
      says: 'now answers with the closest of them by latency, as if all were Online (best effort: the all-degraded rule)',
    },
    {
      name: 'MultiValue answers up to maxReturn of them, by priority',
      profile: profile({ trafficRoutingMethod: 'MultiValue', maxReturn: 2 }),
      says: 'now answers with the first 2 of them by priority (maxReturn 2), as if all were Online (best effort: the all-degraded rule)',
    },
    {
      name: 'MultiValue with maxReturn above the endpoints answers all of them',
      profile: profile({ trafficRoutingMethod: 'MultiValue', maxReturn: 8 }),
      says: 'now answers with all of them, as if all were Online (best effort: the all-degraded rule)',
    },
    {
      name: 'Geographic has no failover: each location keeps its endpoint',
      profile: profile({ trafficRoutingMethod: 'Geographic', endpoints: geo }),
      says: 'answers as before: each location keeps its own endpoint (Geographic has no failover)',
    },
    {
      name: 'Subnet has no failover: each subnet keeps its endpoint',
      profile: profile({ trafficRoutingMethod: 'Subnet', endpoints: subnet }),
      says: 'answers as before: each subnet keeps its own endpoint (Subnet has no failover)',
    },
  ])('$name', ({ profile: p, says }) => {
    expect(noticeOnAllDegraded(p)).toBe(`${head}${says}${tail}`);
  });

  it('says when the profile is served by its available endpoints again', () => {
    const p = profile({ trafficRoutingMethod: 'Priority' });
    const notices = allDegradedNotices(() => p);
    for (const name of ['first', 'second', 'third']) notices(record(name, 'Online'));
    for (const name of ['first', 'second', 'third']) notices(record(name, 'Degraded'));
    expect(notices(record('second', 'Online'))).toBe(
      'p: second is Online — DNS answers with the available endpoints only again',
    );
  });
});
