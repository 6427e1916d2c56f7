/** Builders of normalized profiles, verdicts and heartbeats for the status-core tests. */
import { endpointVerdictKey } from '../../shared/probe/target.js';
import type { ExternalEndpoint, MonitorConfig, NestedEndpoint, Profile } from '../../shared/profile/types.js';
import type { HeartbeatItem, VerdictItem } from '../../shared/state/items.js';
import type { RegionVerdict } from '../../shared/status/vocabulary.js';
import {
  externalEndpoint,
  monitorConfig,
  nestedEndpoint,
  profile as buildProfile,
} from '../support/profiles.js';

export const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'] as const;
export const PERIOD_MS = 60_000;

export const monitor: MonitorConfig = monitorConfig();

export function external(name: string, fields: Partial<ExternalEndpoint> = {}): ExternalEndpoint {
  return externalEndpoint({ name, target: `${name}.example.net`, ...fields });
}

export function nested(
  name: string,
  targetProfile: string,
  fields: Partial<NestedEndpoint> = {},
): NestedEndpoint {
  return nestedEndpoint({ name, targetProfile, ...fields });
}

export function profile(
  name: string,
  endpoints: Profile['endpoints'],
  fields: Partial<Profile> = {},
): Profile {
  return buildProfile({ name, monitorConfig: monitor, probeRegions: [...REGIONS], endpoints, ...fields });
}

export function targetKey(p: Profile, endpointName: string): string {
  const endpoint = p.endpoints.find((e) => e.name === endpointName);
  if (endpoint?.type !== 'external') throw new Error(`no external endpoint ${endpointName}`);
  return endpointVerdictKey(p, endpoint);
}

export function verdict(
  p: Profile,
  endpointName: string,
  region: string,
  value: RegionVerdict,
  since: number,
  detail = value === 'up' ? 'check succeeded' : '4 consecutive failures (tolerated 3)',
): VerdictItem {
  return { targetKey: targetKey(p, endpointName), region, verdict: value, since, checkedAt: since, detail };
}

export function heartbeat(region: string, at: number, periodMs = PERIOD_MS): HeartbeatItem {
  return { region, at, targets: 1, periodMs, checkpoint: {} };
}

/** Fresh heartbeats of every region at `at`. */
export function heartbeats(at: number, regions: readonly string[] = REGIONS): HeartbeatItem[] {
  return regions.map((r) => heartbeat(r, at));
}
