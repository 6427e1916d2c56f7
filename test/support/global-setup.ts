/** Starts one DynamoDB Local for the integration project (vitest.config.ts); each test file creates its own table. */
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local.js';

let ddb: DynamoDbLocal | undefined;

export async function setup(project: TestProject): Promise<void> {
  ddb = await startDynamoDbLocal();
  project.provide('dynamodbEndpoint', ddb.endpoint);
}

export async function teardown(): Promise<void> {
  await ddb?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoint: string;
  }
}
