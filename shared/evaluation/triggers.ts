/**
 * What woke the evaluator, and which profiles that makes it evaluate. A stream batch
 * carries probe verdict changes (VERDICT#), definition changes (CONFIG), runtime controls
 * (CONTROL: `tm endpoint|profile …`, an override expiring), ticks (TICK, written when the
 * set of fresh probe regions changes), waiting outbox entries (TICK/OUTBOX) and reconcile
 * requests (TICK/RECONCILE); the last two evaluate no profile (they publish events, or
 * compare the zones with what was published). The others map to profiles, and
 * every affected profile drags in its ancestors (a nested endpoint's status follows its
 * child).
 */
import type { Profile } from '../profile/types.js';
import { endpointVerdictKey } from '../probe/target.js';

export type Trigger =
  | { readonly kind: 'target'; readonly targetKey: string }
  | { readonly kind: 'config'; readonly profile: string }
  | { readonly kind: 'control'; readonly profile: string }
  | { readonly kind: 'tick' }
  /** Outbox entries wait to be published (TICK/OUTBOX): no profile to evaluate. */
  | { readonly kind: 'outbox' }
  /** Compare every zone with what was published and repair it (TICK/RECONCILE, once per reconcile interval). */
  | { readonly kind: 'reconcile' };

/** Profile names to evaluate; names no longer defined (removed profiles) are included so their records go. */
export function affectedProfiles(profiles: readonly Profile[], triggers: readonly Trigger[]): Set<string> {
  if (triggers.some((t) => t.kind === 'tick')) return new Set(profiles.map((p) => p.name));
  const affected = new Set<string>();
  const targetKeys = new Set(triggers.flatMap((t) => (t.kind === 'target' ? [t.targetKey] : [])));
  for (const trigger of triggers) {
    if (trigger.kind === 'config' || trigger.kind === 'control') affected.add(trigger.profile);
  }
  if (targetKeys.size > 0) {
    const triggered = profiles.filter((p) =>
      p.endpoints.some((e) => e.type === 'external' && targetKeys.has(endpointVerdictKey(p, e))),
    );
    for (const profile of triggered) affected.add(profile.name);
  }
  return withAncestors(profiles, affected);
}

/** Adds every profile that nests (directly or transitively) one of `names`. */
export function withAncestors(profiles: readonly Profile[], names: ReadonlySet<string>): Set<string> {
  const result = new Set(names);
  let grew = true;
  while (grew) {
    grew = false;
    for (const profile of profiles) {
      if (result.has(profile.name)) continue;
      if (profile.endpoints.some((e) => e.type === 'nested' && result.has(e.targetProfile))) {
        result.add(profile.name);
        grew = true;
      }
    }
  }
  return result;
}

/** Adds the descendants: evaluating a parent needs its children's statuses. */
export function withDescendants(profiles: readonly Profile[], names: ReadonlySet<string>): Set<string> {
  const byName = new Map(profiles.map((p) => [p.name, p]));
  const result = new Set<string>();
  const visit = (name: string): void => {
    if (result.has(name)) return;
    result.add(name);
    for (const endpoint of byName.get(name)?.endpoints ?? []) {
      if (endpoint.type === 'nested') visit(endpoint.targetProfile);
    }
  };
  for (const name of names) visit(name);
  return result;
}
