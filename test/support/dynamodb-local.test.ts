import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { freshTable } from './dynamodb.js';

describe('DynamoDB Local harness', () => {
  it('creates a table with a NEW_AND_OLD_IMAGES stream', async () => {
    const { dynamodb, tableName } = await freshTable();
    const table = await dynamodb.send(new DescribeTableCommand({ TableName: tableName }));
    expect(table.Table?.StreamSpecification).toEqual({
      StreamEnabled: true,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    });
  });
});
