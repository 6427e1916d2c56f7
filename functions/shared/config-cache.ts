/**
 * The effective config (deployed definitions with the runtime controls applied) for a warm
 * container that reads it every minute — the probe tick and each probe shard. Each read
 * checks the two revision counters (one BatchGetItem of two small items, revisions.ts) and
 * re-reads the CONFIG or CONTROL partition only when its counter moved, so a minute without
 * a change costs the same at 10 endpoints as at 100,000. A cold start reads everything; an
 * absent counter (no write has moved it yet) counts as 0; and a partition is re-read at
 * least once an hour (CONFIG_CACHE_MAX_AGE_MS) whatever its counter says, so a write whose counter move was
 * lost (a writer that failed between the two, an older `tm`) is picked up within that time.
 *
 * The same object is returned for as long as nothing changed (a re-read that finds the same
 * content keeps it) and the same monitor overrides are in effect, so callers may skip
 * re-planning on identity.
 */
import { isDeepStrictEqual } from 'node:util';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { applyControls, isInEffect } from '../../shared/control/apply.js';
import type { RuntimeControls } from '../../shared/state/items.js';
import { readDeployedConfig, type DeployedConfig } from './config-reader.js';
import { readControls } from './control-store.js';
import { readRevisions } from './revisions.js';

/** A partition is re-read at least this often, whatever its counter says. */
export const CONFIG_CACHE_MAX_AGE_MS = 60 * 60_000;

export type EffectiveConfigReader = (now: number) => Promise<DeployedConfig>;

interface Cached<T> {
  readonly value: T;
  readonly revision: number;
  readonly readAt: number;
}

export function cachedEffectiveConfig(client: DynamoDBClient, tableName: string): EffectiveConfigReader {
  let deployed: Cached<DeployedConfig> | undefined;
  let controls: Cached<RuntimeControls> | undefined;
  let effective:
    | {
        deployed: DeployedConfig;
        controls: RuntimeControls;
        overridesInEffect: number;
        value: DeployedConfig;
      }
    | undefined;

  async function current<T>(
    cached: Cached<T> | undefined,
    revision: number,
    now: number,
    read: () => Promise<T>,
  ): Promise<Cached<T>> {
    const fresh =
      cached !== undefined && cached.revision === revision && now - cached.readAt < CONFIG_CACHE_MAX_AGE_MS;
    if (fresh) return cached;
    // The revision read before the partition: a write landing in between is read again next time.
    const value = await read();
    // A re-read that found what we hold (the hourly one, mostly) keeps the object, so callers do
    // not re-plan: at 100,000 endpoints a plan is seconds of CPU.
    const same = cached !== undefined && isDeepStrictEqual(cached.value, value);
    return { value: same ? cached.value : value, revision, readAt: now };
  }

  return async (now) => {
    const revisions = await readRevisions(client, tableName);
    [deployed, controls] = await Promise.all([
      current(deployed, revisions.config ?? 0, now, () => readDeployedConfig(client, tableName)),
      current(controls, revisions.control ?? 0, now, () => readControls(client, tableName)),
    ]);
    // Overrides only ever leave effect (at their `until`), so their count names the set.
    const overridesInEffect = controls.value.overrides.filter((o) => isInEffect(o, now)).length;
    if (
      effective?.deployed !== deployed.value ||
      effective.controls !== controls.value ||
      effective.overridesInEffect !== overridesInEffect
    ) {
      effective = {
        deployed: deployed.value,
        controls: controls.value,
        overridesInEffect,
        value: { ...deployed.value, profiles: applyControls(deployed.value.profiles, controls.value, now) },
      };
    }
    return effective.value;
  };
}
