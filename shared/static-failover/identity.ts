/**
 * Names and ids of the structure, all derived from content: the same target planned for two
 * profiles (or twice) gets the same metric, alarm and health-check ids, so they are shared
 * and publishing is idempotent. Hashes are two salted FNV-1a 32-bit hashes (64 bits).
 */
import { fnv1a32 } from '../hash/fnv1a.js';

function hash64(text: string): string {
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return hex(fnv1a32(text)) + hex(fnv1a32(text, 0x5f3759df));
}

/** The `Target` dimension of a verdict key: `t-` and 16 hex digits. */
export function targetIdOf(verdictKey: string): string {
  return `t-${hash64(verdictKey)}`;
}

/** A logical health-check id: `tm-<role letter>-<hash of the deployment and the content>`. */
export function checkIdOf(deployment: string, role: string, content: string): string {
  return `tm-${role}-${hash64(`${deployment}|${role}|${content}`)}`;
}

/** The vote alarm of a target (one per probe region, same name in each). */
export function voteAlarmNameOf(deployment: string, targetId: string): string {
  return `${deployment}-vote-${targetId}`;
}

export function guardAlarmNameOf(deployment: string): string {
  return `${deployment}-evaluator-publishing`;
}

/**
 * The CreateHealthCheck caller reference: the logical id and a generation (e.g. the config
 * revision that created it). Route 53 refuses a caller reference of a deleted check whatever
 * the settings, so a check created again after a delete needs a new generation.
 */
export function callerReferenceOf(id: string, generation: number): string {
  return `${id}#${generation}`;
}

/** The logical id back from a caller reference; undefined when it is not one of ours. */
export function idOfCallerReference(callerReference: string): string | undefined {
  const match = /^(tm-[a-z]+-[0-9a-f]{16})#\d+$/.exec(callerReference);
  return match?.[1];
}

/** Where today's records move: `_fast.<fqdn>`. */
export function fastNameOf(fqdn: string): string {
  return `_fast.${fqdn}`;
}

/** The root of the data-plane structure: `_static.<fqdn>`. */
export function staticNameOf(fqdn: string): string {
  return `_static.${fqdn}`;
}

/** The i-th link (i ≥ 2) of a failover chain under `base`: `_<i>.<base>`. */
export function linkNameOf(base: string, position: number): string {
  return `_${position}.${base}`;
}

/** A Performance region's chain under the static root: `_<region>.<root>`. */
export function regionNameOf(root: string, region: string): string {
  return `_${region}.${root}`;
}
