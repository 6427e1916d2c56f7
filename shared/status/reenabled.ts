/**
 * Re-enabled means CheckingEndpoint (SPEC §4): an endpoint or profile that becomes Enabled
 * again is CheckingEndpoint until checks made after that moment decide; verdicts from before
 * the disable never count, however old or fresh-looking. Whoever flips the configured status
 * — the config writer for the definitions, a runtime override — stamps the moment with
 * `stampReenabled`; the evaluation ignores older verdicts (`countsAfterEnable`) and the probe
 * plan asks each region for a verdict of its own after it (`enabledAtOf` → `freshAfter`).
 */
import type { Endpoint, Profile } from '../profile/types.js';

/**
 * `next` with `enabledAt` stamped at `now` where `previous` had the profile or an endpoint
 * Disabled and `next` has it Enabled; an earlier stamp is kept while the thing stays
 * Enabled, and dropped once it is Disabled (it will be stamped again when re-enabled).
 * A profile or endpoint seen for the first time gets no stamp: nothing has judged it yet.
 */
export function stampReenabled(previous: Profile | undefined, next: Profile, now: number): Profile {
  const before = new Map((previous?.endpoints ?? []).map((e) => [e.name, e] as const));
  const endpoints = next.endpoints.map((endpoint): Endpoint => {
    const { enabledAt: _ignored, ...rest } = endpoint;
    const stamp = stampOf(before.get(endpoint.name), endpoint, (e) => e.endpointStatus, now);
    return (stamp === undefined ? rest : { ...rest, enabledAt: stamp }) as Endpoint;
  });
  const { enabledAt: _ignored, ...profile } = next;
  const stamp = stampOf(previous, next, (p) => p.profileStatus, now);
  return { ...profile, endpoints, ...(stamp === undefined ? {} : { enabledAt: stamp }) };
}

function stampOf<T extends { readonly enabledAt?: number }>(
  before: T | undefined,
  after: T,
  status: (x: T) => 'Enabled' | 'Disabled',
  now: number,
): number | undefined {
  if (status(after) === 'Disabled' || before === undefined) return undefined;
  return status(before) === 'Disabled' ? now : before.enabledAt;
}

/** When `endpoint` of `profile` was last (re-)enabled: the later of the two stamps. */
export function enabledAtOf(profile: Profile, endpoint: Endpoint): number | undefined {
  return laterStamp(profile.enabledAt, endpoint.enabledAt);
}

/** The later of two stamps, either of which may be absent. */
export function laterStamp(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.max(a, b);
}

/** A verdict counts only when the check that wrote it ran at or after the (re-)enable. */
export function countsAfterEnable(
  verdict: { readonly checkedAt: number },
  enabledAt: number | undefined,
): boolean {
  return enabledAt === undefined || verdict.checkedAt >= enabledAt;
}
