/**
 * What the config writer must change so the table's CONFIG items equal the deployed
 * definitions: put new and changed profiles, delete profiles no longer defined, leave
 * unchanged ones alone (so a redeploy with the same definitions writes nothing). A profile
 * or endpoint that the stored definition has Disabled and the new one Enabled is stamped
 * `enabledAt` = now (shared/status/reenabled.ts); stamps already stored are kept.
 */
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { storedDefinitionOf } from '../../shared/profile/limits.js';
import type { Profile } from '../../shared/profile/types.js';
import type { ConfigItem } from '../../shared/state/items.js';
import { stampReenabled } from '../../shared/status/reenabled.js';

export function configItemOf(profile: Profile, defaultProbeRegions: readonly string[]): ConfigItem {
  const definition = storedDefinitionOf(profile);
  return {
    name: profile.name,
    definition,
    version: createHash('sha256').update(definition).digest('hex').slice(0, 16),
    defaultProbeRegions: [...defaultProbeRegions],
  };
}

export function planConfigSync(
  existing: readonly ConfigItem[],
  profiles: readonly Profile[],
  defaultProbeRegions: readonly string[],
  now: number,
) {
  const current = new Map(existing.map((item) => [item.name, item]));
  const wanted = profiles.map((p) => {
    const stored = current.get(p.name);
    const previous = stored === undefined ? undefined : (JSON.parse(stored.definition) as Profile);
    return configItemOf(stampReenabled(previous, p, now), defaultProbeRegions);
  });
  const wantedNames = new Set(wanted.map((item) => item.name));
  return {
    puts: wanted.filter((item) => !sameItem(current.get(item.name), item)),
    deletes: existing.map((item) => item.name).filter((name) => !wantedNames.has(name)),
  };
}

function sameItem(a: ConfigItem | undefined, b: ConfigItem): boolean {
  return a?.version === b.version && isDeepStrictEqual(a.defaultProbeRegions, b.defaultProbeRegions);
}
