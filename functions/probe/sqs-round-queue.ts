/** RoundQueue on SQS: rounds as SendMessageBatch requests of delayed messages (≤ 10 entries each). */
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { RoundMessageEntry } from '../../shared/probe/round-message.js';
import { RoundEnqueueError } from './errors.js';

/** Where the tick puts the minute's rounds: the region's round queue. */
export type RoundQueue = ReturnType<typeof sqsRoundQueue>;

export function sqsRoundQueue(queueUrl: string, client: SQSClient) {
  return {
    /** Sends up to 10 entries as one request; throws when any entry was not accepted. */
    async sendRounds(entries: readonly RoundMessageEntry[]): Promise<void> {
      const output = await client.send(
        new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: [...entries] }),
      );
      const failed = output.Failed ?? [];
      if (failed.length > 0)
        throw new RoundEnqueueError(failed.map((f) => `${f.Id ?? '?'} (${f.Code ?? 'unknown'})`));
    },
  };
}
