/**
 * IAM proven for the config writer: its calls on a create — reading the definitions asset
 * from S3 (the loopback GetObject stand-in, test/support/s3-objects.ts) and writing the CONFIG
 * items to DynamoDB Local — are recorded and evaluated against the role the CDK app
 * synthesizes. It may read that one object: another key of the assets bucket, or another
 * bucket, is denied.
 */
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfigWriterHandler } from '../../functions/config-writer/handler.js';
import { definitionsProperties, shippedDefinitions } from '../cdk/support.js';
import { definition, profilesFrom, REGIONS, SHOP_DEFINITION } from '../evaluator/harness.js';
import { freshTable } from '../support/dynamodb.js';
import { AwsCallRecorder } from '../support/iam/recorder.js';
import { requestsOf, type IamRequest } from '../support/iam/requests.js';
import { synthesizeRoles, TEST_ACCOUNT, verdicts, type SynthesizedRoles } from '../support/iam/simulate.js';
import { startLocalS3, type LocalS3 } from '../support/s3-objects.js';

const DEPLOYMENT_TABLE = 'traffic-manager';
const ASSETS_BUCKET = `cdk-hnb659fds-assets-${TEST_ACCOUNT}-us-east-1`;
const profiles = profilesFrom([
  SHOP_DEFINITION,
  definition({
    name: 'api',
    trafficRoutingMethod: 'Weighted',
    endpoints: [{ name: 'a', target: '192.0.2.40' }],
  }),
]);

describe('IAM: the config writer', () => {
  const recorder = new AwsCallRecorder();
  let s3: LocalS3;
  let roles: SynthesizedRoles;
  let requests: IamRequest[];
  let key: string;

  beforeAll(async () => {
    const table = await freshTable('tm-config-iam');
    s3 = await startLocalS3();
    roles = synthesizeRoles(profiles, { homeRegion: 'us-east-1', probeRegions: REGIONS });
    const props = definitionsProperties(roles.homeTemplate);
    key = String(props.DefinitionsKey);
    s3.put(ASSETS_BUCKET, key, JSON.stringify(shippedDefinitions(roles.assemblyDir, roles.homeTemplate)));
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_DYNAMODB: table.endpoint,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    });
    const handler = createConfigWriterHandler(recorder.clients('configWriter'));
    const event = {
      RequestType: 'Create',
      ResourceProperties: { ...props, TableName: table.tableName, DefinitionsBucket: ASSETS_BUCKET },
    } as unknown as CloudFormationCustomResourceEvent;
    expect((await handler(event)).Data).toEqual({ Written: 2, Deleted: 0 });
    requests = recorder.calls.flatMap((call) =>
      requestsOf(call, { account: TEST_ACCOUNT, tableNames: { [table.tableName]: DEPLOYMENT_TABLE } }),
    );
  }, 120_000);
  afterAll(async () => {
    await s3.close();
  });

  it('every call it made on a create is allowed by its synthesized role', async () => {
    expect(new Set(requests.map((r) => r.action))).toContain('s3:GetObject');
    expect(requests.filter((r) => r.action === 's3:GetObject').map((r) => r.resource)).toEqual([
      `arn:aws:s3:::${ASSETS_BUCKET}/${key}`,
    ]);
    expect((await verdicts(roles, requests)).filter((line) => !line.startsWith('Allowed '))).toEqual([]);
  });

  it.each([
    { name: 'another object of the assets bucket', resource: `arn:aws:s3:::${ASSETS_BUCKET}/other.zip` },
    { name: 'the object in another bucket', resource: 'arn:aws:s3:::someone-elses-bucket/definitions.json' },
  ])('may not read $name', async ({ resource }) => {
    const [read] = requests.filter((r) => r.action === 's3:GetObject');
    const other = {
      ...read!,
      resource,
      describe: `configWriter s3:GetObject ${resource}`,
    };
    expect((await verdicts(roles, [other]))[0]).toMatch(/^ImplicitlyDenied /);
  });
});
