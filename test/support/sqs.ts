/**
 * SQS's SendMessageBatch for the probe tick's tests (the local stack has no queue: its round
 * timer runs in process). The real SDK client talks to it over SQS's JSON protocol; it refuses
 * what SQS refuses for a batch (an unknown queue, no entries, more than 10, repeated ids, a
 * delay outside 0–900 s) and can answer chosen entries as failed, as SQS does per entry.
 */
import { createHash } from 'node:crypto';
import { AwsJsonError, startAwsJsonServer } from '../../infra/local/aws-json.js';

export interface SentMessage {
  readonly queueUrl: string;
  readonly id: string;
  readonly body: string;
  readonly delaySeconds: number;
}

export interface SqsStandIn {
  readonly endpoint: string;
  readonly queueUrl: string;
  /** Every SendMessageBatch call, its entries in order. */
  readonly batches: SentMessage[][];
  /** Entry ids answered as failed (`Failed` with this code) instead of sent. */
  failEntries(ids: readonly string[], code: string): void;
  stop(): Promise<void>;
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
const refuse = (code: string, message: string) => new AwsJsonError(`AWS.SimpleQueueService.${code}`, message);

export async function startSqsStandIn(queueName = 'rounds'): Promise<SqsStandIn> {
  const batches: SentMessage[][] = [];
  let failing = { ids: new Set<string>(), code: '' };
  let queueUrl = '';
  const server = await startAwsJsonServer({
    signingName: 'sqs',
    targetPrefix: 'AmazonSQS',
    operations: {
      SendMessageBatch: (input) => {
        if (input.QueueUrl !== queueUrl)
          throw new AwsJsonError(
            'AWS.SimpleQueueService.NonExistentQueue',
            'The specified queue does not exist.',
          );
        const entries = Array.isArray(input.Entries) ? (input.Entries as Record<string, unknown>[]) : [];
        if (entries.length === 0)
          throw refuse('EmptyBatchRequest', 'There should be at least one entry in the request.');
        if (entries.length > 10)
          throw refuse(
            'TooManyEntriesInBatchRequest',
            `Maximum number of entries per request are 10. You have sent ${entries.length}.`,
          );
        const ids = entries.map((e) => String(e.Id));
        if (new Set(ids).size !== ids.length)
          throw refuse('BatchEntryIdsNotDistinct', 'Id must be distinct.');
        for (const entry of entries) {
          const delay = entry.DelaySeconds ?? 0;
          if (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > 900)
            throw new AwsJsonError(
              'InvalidParameterValue',
              `Value ${String(delay)} for parameter DelaySeconds is invalid. Reason: Must be >= 0 and <= 900.`,
            );
        }
        const sent = entries.filter((e) => !failing.ids.has(String(e.Id)));
        batches.push(
          sent.map((e) => ({
            queueUrl: String(input.QueueUrl),
            id: String(e.Id),
            body: String(e.MessageBody),
            delaySeconds: Number(e.DelaySeconds ?? 0),
          })),
        );
        return {
          Successful: sent.map((e) => ({
            Id: e.Id,
            MessageId: `m-${String(e.Id)}`,
            MD5OfMessageBody: md5(String(e.MessageBody)),
          })),
          Failed: entries
            .filter((e) => failing.ids.has(String(e.Id)))
            .map((e) => ({ Id: e.Id, Code: failing.code, SenderFault: false, Message: 'failed' })),
        };
      },
    },
  });
  queueUrl = `${server.endpoint}/123456789012/${queueName}`;
  return {
    endpoint: server.endpoint,
    queueUrl,
    batches,
    failEntries: (ids, code) => {
      failing = { ids: new Set(ids), code };
    },
    stop: () => server.stop(),
  };
}
