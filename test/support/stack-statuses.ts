/** The evaluator's status items of a running local stack, read from its table as `tm status` reads them. */
import { DynamoDbEvaluatorStore } from '../../functions/evaluator/dynamodb-state-store.js';
import type { StoredStatus } from '../../functions/evaluator/ports.js';
import { dynamoDbClient } from '../../functions/shared/aws-clients.js';

export async function stackStatuses(stack: {
  readonly dynamodbEndpoint: string;
  readonly tableName: string;
}): Promise<Map<string, StoredStatus>> {
  const client = dynamoDbClient({
    endpoint: stack.dynamodbEndpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    return await new DynamoDbEvaluatorStore(client, stack.tableName).loadStatuses();
  } finally {
    client.destroy();
  }
}
