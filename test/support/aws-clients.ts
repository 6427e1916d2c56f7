/**
 * The production client factory with `see` run on every client it builds: hand it to a handler
 * (`createProbeHandler(clients)`, …) and SDK middleware — a recorder, a meter — rides on the
 * handler's own clients, built with the handler's own settings.
 */
import {
  awsClients,
  type AwsClient,
  type AwsClients,
  type AwsService,
} from '../../functions/shared/aws-clients.js';

export function clientsSeenBy(
  see: (client: AwsClient, service: AwsService) => void,
  base: AwsClients = awsClients,
): AwsClients {
  const seen = (service: AwsService) => (options?: never) => {
    const client = (base[service] as (options?: never) => AwsClient)(options);
    see(client, service);
    return client;
  };
  return Object.fromEntries((Object.keys(base) as AwsService[]).map((s) => [s, seen(s)])) as AwsClients;
}
