/** Turns the `definitions` a deployment is given into normalized, validated profiles. */
import type { Profile } from '../../shared/profile/types.js';
import { loadDefinitions } from '../definitions/load.js';
import { InvalidDefinitionsError } from './errors.js';

/** A definitions file (`.ts`, `.json`, `.yaml`) or already-normalized profiles. */
export type DefinitionsSource = string | readonly Profile[];

/**
 * Loads and validates a definitions file with the same loader as `tm validate`, so a
 * broken file fails `cdk synth` with exactly the lines `tm validate` prints.
 */
export async function loadProfiles(source: DefinitionsSource): Promise<readonly Profile[]> {
  if (typeof source !== 'string') return source;
  const loaded = await loadDefinitions(source);
  if (!loaded.ok) throw new InvalidDefinitionsError(source, loaded.formatted);
  return loaded.profiles;
}
