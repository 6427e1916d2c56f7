/**
 * When the static path is frozen (docs/adr/0011-static-failover.md, "fail static"): a silent
 * probe region's check keeps its last vote, so the data plane cannot fail an endpoint over once
 * the silent regions alone reach the up votes needed, nor fail it back once they reach the down
 * votes that make it down — whatever the fresh regions see.
 */
import { describe, expect, it } from 'vitest';
import type { Profile, RegionQuorum } from '../../shared/profile/types.js';
import { frozenStaticProfiles } from '../../shared/static-failover/frozen.js';
import { externalEndpoint, monitorConfig, nestedEndpoint, profile } from '../support/profiles.js';

const [EAST, WEST, ASIA, SOUTH] = ['us-east-1', 'eu-west-1', 'ap-southeast-1', 'sa-east-1'];
const THREE = [EAST, WEST, ASIA];

const shop = (overrides: Partial<Profile> = {}): Profile =>
  profile({
    name: 'shop',
    staticFailover: true,
    endpoints: [externalEndpoint({ name: 'east', target: '192.0.2.10' })],
    ...overrides,
  });

const frozen = (profiles: Profile[], stale: string[], regions = THREE) =>
  frozenStaticProfiles(profiles, regions, new Set(stale));

describe('frozenStaticProfiles', () => {
  it.each<{ quorum: RegionQuorum | undefined; stale: string[]; frozen: boolean; why: string }>([
    { quorum: undefined, stale: [], frozen: false, why: 'all fresh' },
    {
      quorum: undefined,
      stale: [ASIA],
      frozen: false,
      why: "Azure's rule, 3 regions: a silent minority blocks neither way",
    },
    {
      quorum: undefined,
      stale: [WEST, ASIA],
      frozen: true,
      why: 'a silent majority holds 2 of 2 up votes needed',
    },
    {
      quorum: 'majority',
      stale: [ASIA],
      frozen: false,
      why: 'majority of 3 needs 2: one silent region cannot hold it',
    },
    {
      quorum: 'any',
      stale: [ASIA],
      frozen: true,
      why: 'any: one silent region that last voted up keeps it up',
    },
    {
      quorum: 'all',
      stale: [ASIA],
      frozen: true,
      why: 'all: one silent region that last voted down keeps it down',
    },
    { quorum: 2, stale: [ASIA], frozen: false, why: 'a count of 2 of 3 is a majority' },
  ])('$why', ({ quorum, stale, frozen: expected }) => {
    // Act
    const names = frozen(
      [shop({ monitorConfig: monitorConfig(quorum === undefined ? {} : { regionQuorum: quorum }) })],
      stale,
    );

    // Assess
    expect(names).toEqual(expected ? ['shop'] : []);
  });

  it('counts only the profile’s own probe regions: four regions, two silent, holds the 2 up votes needed', () => {
    const four = shop({ probeRegions: [EAST, WEST, ASIA, SOUTH] });
    expect(frozen([four], [ASIA, SOUTH])).toEqual(['shop']);
    expect(frozen([shop({ probeRegions: [EAST, WEST] })], [ASIA, SOUTH])).toEqual([]);
  });

  it('one probe region: silent is frozen', () => {
    expect(frozen([shop({ probeRegions: [EAST] })], [EAST])).toEqual(['shop']);
  });

  it('only profiles with a static path that votes move: staticFailover on, a failover method, a monitored enabled endpoint without an override (its forced check ignores votes)', () => {
    // Arrange
    const silent = [WEST, ASIA];
    const off = shop({ name: 'off', staticFailover: false });
    const geo = shop({ name: 'geo', trafficRoutingMethod: 'Geographic' });
    const pinned = shop({
      name: 'pinned',
      endpoints: [externalEndpoint({ name: 'east', target: '192.0.2.10', alwaysServe: true })],
    });
    const disabled = shop({
      name: 'disabled',
      endpoints: [externalEndpoint({ name: 'east', target: '192.0.2.10', endpointStatus: 'Disabled' })],
    });
    const parent = shop({
      name: 'parent',
      endpoints: [nestedEndpoint({ name: 'kid', targetProfile: 'shop' })],
    });
    const stopped = shop({ name: 'stopped', profileStatus: 'Disabled' });
    const overridden = shop({
      name: 'overridden',
      endpoints: [
        externalEndpoint({
          name: 'east',
          target: '192.0.2.10',
          runtime: {
            override: {
              profile: 'overridden',
              endpoint: 'east',
              status: 'Online',
              until: 9e15,
              set: { by: 'alice', at: 0, reason: 'test' },
            },
          },
        }),
      ],
    });

    // Act / Assess
    expect(frozen([shop(), off, geo, pinned, disabled, parent, stopped, overridden], silent)).toEqual([
      'shop',
    ]);
  });
});
