/** What an evaluation reads for a set of profiles, and which of the verdicts triggered it. */
import type { Profile } from '../profile/types.js';
import { endpointVerdictKey } from '../probe/target.js';
import type { VerdictItem } from '../state/items.js';
import type { Trigger } from './triggers.js';

/** The probe regions whose verdicts and heartbeats the profiles need, sorted. */
export function probeRegionsOf(profiles: readonly Profile[], defaults: readonly string[]): string[] {
  return [...new Set(profiles.flatMap((p) => p.probeRegions ?? defaults))].sort();
}

/** The probe targets of the profiles' external endpoints (a target shared by several is listed once). */
export function targetKeysOf(profiles: readonly Profile[]): string[] {
  const keys = new Set<string>();
  for (const profile of profiles) {
    for (const endpoint of profile.endpoints) {
      if (endpoint.type === 'external') keys.add(endpointVerdictKey(profile, endpoint));
    }
  }
  return [...keys];
}

/** The verdicts a TARGET# trigger of this evaluation names. */
export function triggeredVerdicts(
  verdicts: readonly VerdictItem[],
  triggers: readonly Trigger[],
): VerdictItem[] {
  const keys = new Set(triggers.flatMap((t) => (t.kind === 'target' ? [t.targetKey] : [])));
  return verdicts.filter((v) => keys.has(v.targetKey));
}

/** When the check that decided the newest triggering verdict ran. */
export function latestDecision(
  verdicts: readonly VerdictItem[],
  triggers: readonly Trigger[],
): number | undefined {
  const times = triggeredVerdicts(verdicts, triggers).map((v) => v.checkedAt);
  return times.length > 0 ? Math.max(...times) : undefined;
}
