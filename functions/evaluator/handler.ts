/**
 * The stream-triggered evaluator. Every record of the batch is parsed first (a malformed
 * one is reported as a batch item failure, so the event source retries it a bounded
 * number of times and then sends it to the on-failure queue); the valid ones are then
 * evaluated together, so a batch of many verdict changes costs one evaluation and one
 * Route 53 change per hosted zone. If the evaluation itself fails, every valid record is
 * reported failed: the batch is retried (and bisected) — evaluation is idempotent.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import type { Trigger } from '../../shared/evaluation/triggers.js';
import { evaluate, type EvaluatorDeps } from './evaluation.js';
import { containerDeps } from './environment.js';
import { logger } from '../shared/logger.js';
import { triggerOf } from './stream-records.js';

export interface StreamHandlerOptions {
  readonly onError?: (error: unknown) => void;
}

export function createStreamHandler(deps: () => EvaluatorDeps, options: StreamHandlerOptions = {}) {
  return async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
    const processor = new BatchProcessor(EventType.DynamoDBStreams);
    const parsed: { record: DynamoDBRecord; trigger: Trigger }[] = [];
    const response = await processPartialResponse(
      event,
      (record: DynamoDBRecord) => {
        parsed.push({ record, trigger: triggerOf(record) });
      },
      processor,
      { throwOnFullBatchFailure: false },
    );
    if (parsed.length === 0) return response;
    const resolved = deps();
    try {
      await evaluate(
        resolved,
        parsed.map((p) => p.trigger),
      );
    } catch (error) {
      options.onError?.(error);
      const failed = new Set(response.batchItemFailures.map((f) => f.itemIdentifier));
      for (const { record } of parsed) {
        const id = record.dynamodb?.SequenceNumber;
        if (id !== undefined) failed.add(id);
      }
      return { batchItemFailures: [...failed].map((itemIdentifier) => ({ itemIdentifier })) };
    } finally {
      resolved.metrics.flush();
    }
    return response;
  };
}

/** The Lambda entry point (DynamoDB stream event source with ReportBatchItemFailures). */
export const handler = createStreamHandler(containerDeps, {
  onError: (error) => logger.error('evaluation failed; the batch will be retried', error as Error),
});
