/** Loading the definitions file of a `tm` command, with its problems reported one way. */
import { DefinitionsLoadError } from '../definitions/errors.js';
import { loadDefinitions } from '../definitions/load.js';
import { route53QuotaWarnings } from '../../shared/zone/route53-quotas.js';
import { DEFAULT_LOCAL_REGIONS } from '../local/regions.js';
import { regionQuorumWarnings } from '../../shared/profile/region-quorum-warnings.js';
import { formatWarning, inlineSecretWarnings } from '../../shared/profile/secret-references.js';
import type { Profile } from '../../shared/profile/types.js';
import type { Output } from './io.js';

/**
 * The file's profiles, or `undefined` once stderr says why not: `tm COMMAND: <load error>`
 * when the file cannot be read, else every problem on a line of its own and then
 * `invalidLine(problemCount)`. A valid file's notices go to stderr as `notice: …` lines, and
 * its warnings (a credential written inline, a region quorum only the deployment can check,
 * a hosted zone over Route 53's default records quota) as `warning: …` lines.
 */
export async function loadProfilesFor(
  command: string,
  file: string,
  stderr: Output,
  invalidLine: (problemCount: number) => string,
): Promise<Profile[] | undefined> {
  let result;
  try {
    result = await loadDefinitions(file);
  } catch (error) {
    if (!(error instanceof DefinitionsLoadError)) throw error;
    stderr.write(`tm ${command}: ${error.message}\n`);
    return undefined;
  }
  if (result.ok) {
    const { profiles } = result;
    stderr.write(result.notices.map((notice) => `notice: ${notice.text}\n`).join(''));
    const warnings = [
      ...inlineSecretWarnings(profiles),
      ...regionQuorumWarnings(profiles),
      // The probe regions `tm plan` and `tm local` assume (a deployment passes its own at synth).
      ...route53QuotaWarnings(profiles, DEFAULT_LOCAL_REGIONS),
    ];
    for (const warning of warnings) stderr.write(`${formatWarning(warning, profiles)}\n`);
    return profiles;
  }
  stderr.write(result.formatted.map((line) => `${line}\n`).join(''));
  stderr.write(`${invalidLine(result.issues.length)}\n`);
  return undefined;
}
