/**
 * The secrets that probe header references name, served to the probes as in AWS: a local Secrets
 * Manager and Parameter Store holding the `--secrets` file's values, read by the probe's own
 * secret reader (`HeaderSecrets`) pointed at them through the standard endpoint variables.
 */
import { ENDPOINT_VARIABLE } from '../../functions/shared/aws-clients.js';
import { awsSecretSource, HeaderSecrets } from '../../functions/probe/header-secrets.js';
import { LOCAL_CREDENTIALS } from './home-table.js';
import { NO_LOCAL_SECRETS, type LocalSecretValues } from './secrets-file.js';
import { startLocalSecretsManager } from './secretsmanager/server.js';
import { startLocalParameterStore } from './ssm/server.js';

export async function startHeaderSecretStandIns(
  values: LocalSecretValues = NO_LOCAL_SECRETS,
  log: (line: string) => void,
  cleanup: (() => Promise<void>)[],
): Promise<HeaderSecrets> {
  const secretsManager = await startLocalSecretsManager(values.secrets);
  cleanup.push(() => secretsManager.stop());
  const parameterStore = await startLocalParameterStore(values.parameters);
  cleanup.push(() => parameterStore.stop());
  return new HeaderSecrets(
    awsSecretSource({
      parameterRegion: 'us-east-1',
      clientOptions: {
        credentials: LOCAL_CREDENTIALS,
        env: {
          [ENDPOINT_VARIABLE.secretsManager]: secretsManager.endpoint,
          [ENDPOINT_VARIABLE.ssm]: parameterStore.endpoint,
        },
      },
    }),
    { now: () => Date.now() },
    {
      warn: (message, fields) =>
        log(`probe: ${message}: ${String(fields.reference)} (${String(fields.error)})`),
    },
  );
}
