/**
 * `tm local FILE` follows its definitions file: when the file changes, the new version is
 * loaded and validated like at start; valid, it is applied to the running stack (the same
 * sync a start does: what changed applies, what did not keeps its state) and one line says
 * which profiles changed; invalid, the stack keeps running the previous definitions and the
 * problems are printed. The file is polled (its size and modification time every 500 ms):
 * editors that save by renaming a new file over the old one are seen as well.
 */
import { unwatchFile, watchFile, type Stats } from 'node:fs';
import { deploymentRegionProblems } from '../../shared/profile/deployment-regions.js';
import type { Profile } from '../../shared/profile/types.js';
import { loadDefinitions } from '../definitions/load.js';

const POLL_MS = 500;

export interface ReloadTarget {
  readonly regions: readonly string[];
  /** The profiles running now. */
  profiles(): readonly Profile[];
  apply(profiles: readonly Profile[]): Promise<void>;
  log(line: string): void;
}

/** Starts following `file`; returns the function that stops it. */
export function followDefinitions(file: string, target: ReloadTarget): () => void {
  let queue = Promise.resolve();
  const changed = (current: Stats, previous: Stats) => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
    // One reload at a time, in the order of the changes.
    queue = queue
      .then(() => reload(file, target))
      .catch((error: unknown) => {
        target.log(
          `definitions: ${file} not applied: ${(error as Error).message}; still running the previous definitions`,
        );
      });
  };
  watchFile(file, { interval: POLL_MS }, changed);
  return () => unwatchFile(file, changed);
}

async function reload(file: string, target: ReloadTarget): Promise<void> {
  const result = await loadDefinitions(file);
  const problems = result.ok
    ? deploymentRegionProblems(result.profiles, target.regions, 'the probe regions of --regions')
    : result.formatted;
  if (!result.ok || problems.length > 0) {
    for (const line of problems) target.log(`definitions: ${line}`);
    const count = result.ok ? problems.length : result.issues.length;
    target.log(
      `definitions: ${file}: ${count} ${count === 1 ? 'problem' : 'problems'}; still running the previous definitions`,
    );
    return;
  }
  const before = new Map(target.profiles().map((p) => [p.name, JSON.stringify(withoutZoneId(p))]));
  await target.apply(result.profiles);
  target.log(`definitions: ${file} reloaded: ${describeChanges(before, result.profiles)}`);
}

/** `changed shop; added api; removed old` or `nothing changed`. */
function describeChanges(before: ReadonlyMap<string, string>, after: readonly Profile[]): string {
  const names = new Set(after.map((p) => p.name));
  const added = after.filter((p) => !before.has(p.name)).map((p) => p.name);
  const changed = after
    .filter((p) => before.has(p.name) && before.get(p.name) !== JSON.stringify(withoutZoneId(p)))
    .map((p) => p.name);
  const removed = [...before.keys()].filter((name) => !names.has(name));
  const parts = [
    ...(changed.length === 0 ? [] : [`changed ${changed.join(', ')}`]),
    ...(added.length === 0 ? [] : [`added ${added.join(', ')}`]),
    ...(removed.length === 0 ? [] : [`removed ${removed.join(', ')}`]),
  ];
  return parts.length === 0 ? 'nothing changed' : parts.join('; ');
}

/** The running profiles carry the local hosted zone's id; the file's may not. */
function withoutZoneId(profile: Profile): Profile {
  return { ...profile, dnsConfig: { ...profile.dnsConfig, hostedZoneId: '' } };
}
