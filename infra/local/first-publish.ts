/**
 * When the local stack's zones first hold what the table says. At start the stack writes a
 * reconcile request (TICK/RECONCILE) after the definitions; the stream hands the evaluator
 * the definitions first, then the request, whose reconcile puts every zone in line with the
 * stored statuses. Once a batch holding that request has been handled without failing it,
 * DNS may answer: before, an empty zone would answer NXDOMAIN, which resolvers cache for the
 * SOA's negative TTL (docs/routing.md), so the DNS server answers SERVFAIL until then.
 */
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { Keys } from '../../shared/state/keys.js';

export function watchFirstPublish(requestedAt: number) {
  let done = false;
  let resolve: () => void = () => undefined;
  const ready = new Promise<void>((settle) => (resolve = settle));
  const { pk, sk } = Keys.reconcileRequest();
  return {
    /** The reconcile request's `requestedAt` to write after the definitions. */
    requestedAt,
    /** Resolves once the evaluator has handled the start's reconcile request. */
    ready,
    /** Called with every batch the evaluator handled and its response. */
    observe(event: DynamoDBStreamEvent, response: DynamoDBBatchResponse | void) {
      if (done) return;
      const failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
      const handled = event.Records.some(
        (record) =>
          record.dynamodb?.Keys?.pk?.S === pk &&
          record.dynamodb.Keys.sk?.S === sk &&
          record.dynamodb.NewImage?.requestedAt?.N === String(requestedAt) &&
          !failed.has(record.dynamodb.SequenceNumber ?? ''),
      );
      if (!handled) return;
      done = true;
      resolve();
    },
  };
}
