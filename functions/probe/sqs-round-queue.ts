/** RoundQueue on SQS: rounds as SendMessageBatch requests of delayed messages (≤ 10 entries each). */
import { SendMessageBatchCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { RoundMessageEntry } from '../../shared/probe/round-message.js';
import { RoundEnqueueError } from './errors.js';
import type { RoundQueue } from './round-queue.js';

export function sqsRoundQueue(queueUrl: string, client: SQSClient): RoundQueue {
  return {
    async sendRounds(entries: readonly RoundMessageEntry[]) {
      const output = await client.send(
        new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: [...entries] }),
      );
      const failed = output.Failed ?? [];
      if (failed.length > 0)
        throw new RoundEnqueueError(failed.map((f) => `${f.Id ?? '?'} (${f.Code ?? 'unknown'})`));
    },
  };
}
