/**
 * A local stand-in for Lambda's DynamoDB stream event source mapping: polls the real
 * stream of DynamoDB Local, applies the same filter as the cloud (only evaluator
 * triggers), invokes the handler with batches, and honours `batchItemFailures` the way
 * Lambda does — the batch is retried from the first failed record; a record that keeps
 * failing is retried a bounded number of times and then handed to `onDeadLetter`
 * (the cloud's on-failure queue) and skipped. Never a crash loop.
 *
 * Batching follows the cloud's settings (`EVALUATOR_STREAM_SETTINGS`): records are gathered
 * up to the batch size or the batching window, with one local difference — the window closes
 * early as soon as a poll finds the stream quiet, so a lone transition is not held for the
 * whole window (Lambda always waits it out), while a burst still lands in one batch.
 */
import {
  DescribeStreamCommand,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type DynamoDBStreamsClient,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { EVALUATOR_STREAM_SETTINGS } from '../../functions/evaluator/stream-settings.js';
import { EVALUATOR_TRIGGER_PREFIXES } from '../../shared/state/keys.js';
import { LocalStreamError } from './errors.js';

export interface StreamPollerOptions {
  readonly client: DynamoDBStreamsClient;
  readonly streamArn: string;
  readonly handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse | void>;
  /** Pause between polls of an idle stream. @default 50 */
  readonly pollIntervalMs?: number;
  readonly onDeadLetter?: (record: DynamoDBRecord, reason: string) => void;
  readonly onError?: (error: unknown) => void;
  /** While true, the poller neither reads the stream nor delivers (the `home-region` fault). @default - never */
  readonly paused?: () => boolean;
}

export type StreamPoller = ReturnType<typeof startStreamPoller>;

/** GetRecords' maximum page. */
const GET_RECORDS_LIMIT = 1000;

function matchesEvaluatorFilter(record: DynamoDBRecord): boolean {
  const pk = record.dynamodb?.Keys?.pk?.S;
  return pk !== undefined && EVALUATOR_TRIGGER_PREFIXES.some((prefix) => pk.startsWith(prefix));
}

export function startStreamPoller(options: StreamPollerOptions) {
  const { batchSize, maxBatchingWindowMs } = EVALUATOR_STREAM_SETTINGS;
  const pollIntervalMs = options.pollIntervalMs ?? 50;
  // While records are arriving, the next poll comes sooner: it only has to tell a burst from a lone write.
  const gatherIntervalMs = Math.min(10, pollIntervalMs);
  const pending: DynamoDBRecord[] = [];
  let stopped = false;
  let iteration = 0;
  let lastIdleIteration = -1;
  const { discoverShards, fetch } = shardReader(options, pending);
  const deliver = batchDelivery(options, pending, { pollIntervalMs, stopped: () => stopped });

  let gatheringSince: number | undefined; // when the records now pending started to arrive

  /** Keep gathering while the stream is busy, the batch is not full and the window is open. */
  const keepGathering = (fetched: number): boolean => {
    if (pending.length === 0) {
      gatheringSince = undefined;
      return false;
    }
    gatheringSince ??= Date.now();
    return fetched > 0 && pending.length < batchSize && Date.now() - gatheringSince < maxBatchingWindowMs;
  };

  const loop = (async () => {
    while (!stopped) {
      if (options.paused?.() === true) {
        await sleep(pollIntervalMs);
        continue;
      }
      const current = ++iteration;
      try {
        await discoverShards();
        const { fetched, more } = await fetch();
        if (keepGathering(fetched)) {
          if (!more) await sleep(gatherIntervalMs);
          continue;
        }
        gatheringSince = undefined;
        await deliver();
        if (fetched === 0 && pending.length === 0) lastIdleIteration = current;
      } catch (error) {
        if (!stopped) options.onError?.(error);
      }
      if (!stopped) await sleep(pollIntervalMs);
    }
  })();

  return {
    /** Resolves once every record written so far has been handled (or dead-lettered). */
    async drain(timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      // An idle pass that began after this call, so nothing written before it is missed.
      const after = iteration + 1;
      while (lastIdleIteration < after) {
        if (Date.now() > deadline) throw new LocalStreamError(`stream not drained within ${timeoutMs} ms`);
        await sleep(pollIntervalMs);
      }
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

/**
 * The stream's shards, each read on from just after the last record read from it: `fetch` adds
 * the records the evaluator's filter lets through to `pending`.
 */
function shardReader(options: StreamPollerOptions, pending: DynamoDBRecord[]) {
  const iterators = new Map<string, string | undefined>(); // shardId → iterator (undefined: closed)
  const lastSequence = new Map<string, string>(); // shardId → sequence number of the last record read
  let discoveredAt = 0;
  const discoverShards = async () => {
    // New shards appear rarely (DynamoDB rolls them over every few hours): look once a second.
    const open = [...iterators.values()].some((it) => it !== undefined);
    if (open && Date.now() - discoveredAt < 1000) return;
    discoveredAt = Date.now();
    const description = await options.client.send(
      new DescribeStreamCommand({ StreamArn: options.streamArn }),
    );
    for (const shard of description.StreamDescription?.Shards ?? []) {
      const shardId = shard.ShardId;
      if (shardId === undefined || iterators.has(shardId)) continue;
      iterators.set(shardId, await iteratorOf(shardId));
    }
  };

  /** A shard's iterator right after the last record read from it; its oldest record when none was. */
  const iteratorOf = async (shardId: string): Promise<string | undefined> => {
    const after = lastSequence.get(shardId);
    const { ShardIterator } = await options.client.send(
      new GetShardIteratorCommand({
        StreamArn: options.streamArn,
        ShardId: shardId,
        ...(after === undefined
          ? { ShardIteratorType: 'TRIM_HORIZON' }
          : { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: after }),
      }),
    );
    return ShardIterator;
  };

  /**
   * One page of a shard. DynamoDB Local sometimes refuses a valid iterator with
   * TrimmedDataAccessException (with nothing trimmed: aws/aws-sdk-java#2923), and an iterator
   * expires after 15 minutes unused: either way the shard is read on from a new iterator
   * (`iteratorOf`), so nothing is skipped or read twice.
   */
  const readPage = async (shardId: string, iterator: string) => {
    try {
      return await options.client.send(
        new GetRecordsCommand({ ShardIterator: iterator, Limit: GET_RECORDS_LIMIT }),
      );
    } catch (error) {
      const name = (error as Error).name;
      if (name !== 'TrimmedDataAccessException' && name !== 'ExpiredIteratorException') throw error;
      iterators.set(shardId, await iteratorOf(shardId));
      return undefined;
    }
  };

  /** Records fetched, and whether a shard had more than one page ready. */
  const fetch = async (): Promise<{ fetched: number; more: boolean }> => {
    let fetched = 0;
    let more = false;
    for (const [shardId, iterator] of iterators) {
      if (iterator === undefined) continue;
      const page = await readPage(shardId, iterator);
      if (page === undefined) continue;
      iterators.set(shardId, page.NextShardIterator);
      const last = page.Records?.at(-1)?.dynamodb?.SequenceNumber;
      if (last !== undefined) lastSequence.set(shardId, last);
      const records = (page.Records ?? []).map(toLambdaRecord).filter(matchesEvaluatorFilter);
      pending.push(...records);
      fetched += page.Records?.length ?? 0;
      if ((page.Records?.length ?? 0) >= GET_RECORDS_LIMIT) more = true;
    }
    return { fetched, more };
  };

  return { discoverShards, fetch };
}

/**
 * Hands `pending` to the handler in batches: a batch is retried from its first failed record, and
 * a record that fails more than `retryAttempts` times (the cloud's setting) is dead-lettered.
 */
function batchDelivery(
  options: StreamPollerOptions,
  pending: DynamoDBRecord[],
  settings: { readonly pollIntervalMs: number; readonly stopped: () => boolean },
) {
  const { pollIntervalMs, stopped } = settings;
  const { batchSize, retryAttempts } = EVALUATOR_STREAM_SETTINGS;
  const attempts = new Map<string, number>();

  return async () => {
    while (pending.length > 0 && !stopped()) {
      const batch = pending.slice(0, batchSize);
      let failedFrom: number | undefined;
      let reason = 'reported as a batch item failure';
      try {
        const response = await options.handler({ Records: batch });
        const failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        const index = batch.findIndex((r) => failed.has(r.dynamodb?.SequenceNumber ?? ''));
        failedFrom = index === -1 ? undefined : index;
      } catch (error) {
        options.onError?.(error);
        reason = `handler threw: ${(error as Error).message}`;
        failedFrom = 0;
      }
      if (failedFrom === undefined) {
        pending.splice(0, batch.length);
        continue;
      }
      pending.splice(0, failedFrom); // everything before the first failure is checkpointed
      const head = pending[0];
      if (head === undefined) continue;
      const id = head.dynamodb?.SequenceNumber ?? '';
      const tries = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, tries);
      if (tries > retryAttempts) {
        pending.shift();
        attempts.delete(id);
        options.onDeadLetter?.(head, reason);
      } else {
        await sleep(Math.min(1000, pollIntervalMs * 2 ** tries));
      }
    }
  };
}

/** The SDK's record as Lambda delivers it: the same fields, the creation time in epoch seconds. */
function toLambdaRecord({ dynamodb: data, ...record }: StreamRecord): DynamoDBRecord {
  const created = data?.ApproximateCreationDateTime;
  const dynamodb = { ...data, ApproximateCreationDateTime: created && Math.floor(created.getTime() / 1000) };
  return { ...record, dynamodb: dynamodb as DynamoDBRecord['dynamodb'] };
}
