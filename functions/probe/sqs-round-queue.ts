/**
 * RoundQueue on SQS: one SendMessageBatch per minute.
 *
 * `@aws-sdk/client-sqs` is not a dependency of the package yet (package.json is frozen
 * while the project is built in parallel); the Lambda Node.js runtime ships it, so it is
 * loaded at run time by name. Once the package is added, replace this by a static import.
 */
import type { RoundMessageEntry } from '../../shared/probe/round-message.js';
import { RoundEnqueueError } from './errors.js';
import type { RoundQueue } from './round-queue.js';

interface SendMessageBatchOutput {
  readonly Failed?: readonly { readonly Id?: string; readonly Code?: string }[];
}
interface SqsModule {
  SQSClient: new (config: object) => { send(command: unknown): Promise<SendMessageBatchOutput> };
  SendMessageBatchCommand: new (input: { QueueUrl: string; Entries: RoundMessageEntry[] }) => unknown;
}

const SQS_MODULE = '@aws-sdk/client-sqs';

export function sqsRoundQueue(queueUrl: string): RoundQueue {
  let loaded: Promise<{ sqs: SqsModule; client: InstanceType<SqsModule['SQSClient']> }> | undefined;
  return {
    async sendRounds(entries) {
      loaded ??= (import(SQS_MODULE) as Promise<SqsModule>).then((sqs) => ({
        sqs,
        client: new sqs.SQSClient({}),
      }));
      const { sqs, client } = await loaded;
      const output = await client.send(
        new sqs.SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: [...entries] }),
      );
      const failed = output.Failed ?? [];
      if (failed.length > 0)
        throw new RoundEnqueueError(failed.map((f) => `${f.Id ?? '?'} (${f.Code ?? 'unknown'})`));
    },
  };
}
