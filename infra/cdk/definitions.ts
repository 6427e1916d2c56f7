/** Turns the `definitions` a deployment is given into normalized, validated profiles. */
import { formatIssue } from '../../shared/profile/issues.js';
import { parseDefinitions } from '../../shared/profile/parse.js';
import type { ProfileInput } from '../../shared/profile/schema.js';
import type { ProfileDefaults } from '../../shared/profile/defaults.js';
import type { Profile } from '../../shared/profile/types.js';
import { loadDefinitions } from '../definitions/load.js';
import { InvalidDefinitionsError } from '../../shared/profile/errors.js';

/** A definitions file (`.ts`, `.json`, `.yaml`) or already-normalized profiles. */
export type DefinitionsSource = string | readonly Profile[];

/**
 * Loads and validates a definitions file with the same loader as `tm validate`, so a
 * broken file fails `cdk synth` with exactly the lines `tm validate` prints. Its notices
 * go to stderr as `tm validate` prints them — except the hosted zone ids a deploy needs,
 * which the construct's `hostedZones` prop may supply (and the synth fails without).
 */
export async function loadProfiles(
  source: DefinitionsSource,
  defaults: ProfileDefaults = {},
): Promise<readonly Profile[]> {
  if (typeof source !== 'string') return source;
  const loaded = await loadDefinitions(source, { defaults });
  if (!loaded.ok) throw new InvalidDefinitionsError(loaded.formatted, { source });
  for (const notice of loaded.notices)
    if (notice.rule !== 'deploy-requirement') process.stderr.write(`notice: ${notice.text}\n`);
  return loaded.profiles;
}

/**
 * The construct's `profiles` prop as normalized profiles: what `loadProfiles` returns is
 * used as it is; profiles written as objects in the app (the definitions format, typed by
 * `ProfileInput`) are validated and normalized here, exactly as a definitions file would be.
 * A normalized profile is told apart by what only normalization fills in: the computed
 * `dnsConfig.fqdn` together with our own `monitorConfig.healthRule`.
 */
export function normalizeProfiles(
  list: readonly (Profile | ProfileInput)[],
  defaults: ProfileDefaults = {},
): readonly Profile[] {
  const written = list.filter((profile) => !isNormalized(profile));
  if (written.length === 0) return list as readonly Profile[];
  const parsed = parseDefinitions(written, defaults);
  if (!parsed.ok)
    throw new InvalidDefinitionsError(
      parsed.issues.map((issue) => formatIssue(issue, written)),
      { source: 'the profiles prop', issues: parsed.issues },
    );
  const byName = new Map(parsed.profiles.map((profile) => [profile.name, profile]));
  return list.map((profile) => (isNormalized(profile) ? profile : byName.get(profile.name as string)!));
}

function isNormalized(profile: Profile | ProfileInput): profile is Profile {
  const { dnsConfig, monitorConfig } = profile as Partial<Profile>;
  return typeof dnsConfig?.fqdn === 'string' && monitorConfig?.healthRule !== undefined;
}
