/**
 * Records every AWS call a handler makes, as IAM would authorize it: SDK middleware (the
 * `initialize` step, once per command whatever the retries) on clients from the one factory.
 * Attach it to a client you hand a handler (`attach`), or hand a handler that builds its own
 * clients from the environment a factory that attaches it to each (`clients`). `requestsOf` turns the
 * calls into IAM requests (action, resource ARN, condition keys) for `test/support/iam/simulate.ts`.
 */
import type { AwsClient, AwsClients, AwsService } from '../../../functions/shared/aws-clients.js';
import { clientsSeenBy } from '../aws-clients.js';

export interface RecordedCall {
  /** Whose role the call runs under (a key of the synthesized roles, e.g. `evaluator`). */
  readonly principal: string;
  readonly service: AwsService;
  /** The SDK command name without `Command`, e.g. `BatchGetItem`. */
  readonly operation: string;
  readonly input: Record<string, unknown>;
  readonly region: string;
}

type Middleware = (
  next: (args: { input: Record<string, unknown> }) => Promise<unknown>,
  context: { commandName?: string },
) => (args: { input: Record<string, unknown> }) => Promise<unknown>;

export class AwsCallRecorder {
  readonly calls: RecordedCall[] = [];

  attach(client: AwsClient, service: AwsService, principal: string): void {
    const record: Middleware = (next, context) => async (args) => {
      this.calls.push({
        principal,
        service,
        operation: (context.commandName ?? '').replace(/Command$/, ''),
        input: args.input,
        region: await client.config.region(),
      });
      return next(args);
    };
    (client.middlewareStack as { add: (m: unknown, o: unknown) => void }).add(record, {
      step: 'initialize',
      name: 'iamCallRecorder',
      override: true,
    });
  }

  /** The production client factory, recording the calls of every client it builds as `principal`'s. */
  clients(principal: string): AwsClients {
    return clientsSeenBy((client, service) => this.attach(client, service, principal));
  }
}
