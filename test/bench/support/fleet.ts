/**
 * The benchmark fleet: `targets` loopback HTTP endpoints spread over many addresses of
 * 127.0.0.0/8 and several ports, 10 % of them on addresses that accept and never answer.
 * Profile i (20 endpoints, one per address) monitors port `ports[i % ports.length]` at path
 * `/p/<i>`, so every endpoint is its own probe request. The same spec builds the same
 * profiles in every process (the tick's and each shard's).
 */
import type { Profile } from '../../../shared/profile/types.js';
import { externalEndpoint, monitorConfig, profile } from '../../support/profiles.js';

/** Addresses per profile; the last two of every twenty never answer (10 %). */
export const FLEET_ADDRESSES = Array.from({ length: 20 }, (_, i) => `127.0.1.${i + 1}`);
export const BLACK_HOLED_ADDRESSES = FLEET_ADDRESSES.slice(18);
export const LIVE_ADDRESSES = FLEET_ADDRESSES.slice(0, 18);
export const FLEET_REGION = 'bench';

export interface FleetSpec {
  readonly targets: number;
  readonly intervalInSeconds: 10 | 30;
  /** Ports every address listens on. */
  readonly ports: readonly number[];
}

export function fleetProfiles(spec: FleetSpec): Profile[] {
  const perProfile = FLEET_ADDRESSES.length;
  return Array.from({ length: Math.ceil(spec.targets / perProfile) }, (_, i) =>
    profile({
      name: `fleet-${i}`,
      monitorConfig: monitorConfig({
        protocol: 'HTTP',
        port: spec.ports[i % spec.ports.length]!,
        path: `/p/${i}`,
        intervalInSeconds: spec.intervalInSeconds,
      }),
      endpoints: FLEET_ADDRESSES.slice(0, Math.min(perProfile, spec.targets - i * perProfile)).map(
        (address, j) => externalEndpoint({ name: `e${j}`, target: address }),
      ),
    }),
  );
}
