/**
 * Write-cost accounting for the benchmarks, on the benchmark's own DynamoDB client: a
 * middleware asks for the consumed capacity of every request and adds it up. Production
 * stores never request it (it costs response bytes on every call and only the figures need it).
 */
import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';

export interface CapacityUsage {
  writeRequests: number;
  writeUnits: number;
  readRequests: number;
  readUnits: number;
}

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand']);
const READS = new Set(['GetItemCommand', 'BatchGetItemCommand', 'QueryCommand', 'ScanCommand']);

interface Consumed {
  readonly CapacityUnits?: number;
}

/** Adds the meter to `client` and returns the running totals. */
export function meterCapacity(client: DynamoDBClient): CapacityUsage {
  const usage: CapacityUsage = { writeRequests: 0, writeUnits: 0, readRequests: 0, readUnits: 0 };
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? '';
      const isWrite = WRITES.has(command);
      if (!isWrite && !READS.has(command)) return next(args);
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
      try {
        const result = await next(args);
        const consumed = (result.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity;
        const units = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
        if (isWrite) {
          usage.writeRequests++;
          usage.writeUnits += units || 1;
        } else {
          usage.readRequests++;
          usage.readUnits += units;
        }
        return result;
      } catch (error) {
        // A failed condition is still billed as a write (the error carries no capacity).
        if (isWrite && error instanceof ConditionalCheckFailedException) {
          usage.writeRequests++;
          usage.writeUnits += 1;
        }
        throw error;
      }
    },
    { step: 'initialize', name: 'benchCapacityMeter' },
  );
  return usage;
}
