/**
 * A custom resource (Provider framework + functions/config-writer) that writes the
 * definitions to the table's CONFIG items whenever they change, and deletes profiles
 * that are no longer defined.
 *
 * The definitions travel as an S3 asset, the way large CDK apps ship data: the template
 * holds only the object's bucket, key and content hash (so new definitions still change a
 * property and trigger an update), and the config writer reads the object. In the template
 * itself they were bounded by its 1 MB (and by the 1 MB Lambda event of an update, which
 * holds the old and the new properties): some 2,000 endpoints.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AssetHashType, CustomResource, Duration, Stage } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Asset } from 'aws-cdk-lib/aws-s3-assets';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Provider } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import type { Profile } from '../../shared/profile/types.js';
import { TABLE_ACCESS } from '../../shared/state/keys.js';
import type { ConfigWriterProperties } from '../../functions/config-writer/handler.js';
import { InvalidDeploymentError } from './errors.js';
import { trafficManagerFunction } from './lambda.js';
import { grantTableAccess } from './table-access.js';
import { BASIC_EXECUTION_ROLE, RUNTIME_PINNED, suppress } from './nag.js';

export interface ProfileConfigProps {
  readonly table: ITable;
  readonly profiles: readonly Profile[];
  readonly defaultProbeRegions: readonly string[];
  /** Powertools log level of the config writer. @default 'INFO' */
  readonly logLevel?: string;
}

export class ProfileConfig extends Construct {
  constructor(scope: Construct, id: string, props: ProfileConfigProps) {
    super(scope, id);
    const writer = trafficManagerFunction(this, 'Writer', {
      entry: 'functions/config-writer/handler.ts',
      description: 'traffic-manager: writes the deployed profile definitions to the state table',
      // It reads the whole definitions object (up to LIMITS.definitionsBytes, 32 MB) and parses
      // it: room for that, at a cost that does not matter (it runs once per deploy).
      memorySize: 1024,
      timeout: Duration.minutes(2),
      logLevel: props.logLevel,
    });
    grantTableAccess(writer, props.table.tableArn, TABLE_ACCESS.configWriter);
    const definitions = definitionsAsset(this, props.profiles);
    // That one object and nothing else of the assets bucket.
    writer.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject'],
        resources: [definitions.bucket.arnForObjects(definitions.s3ObjectKey)],
      }),
    );
    const provider = new Provider(this, 'Provider', {
      onEventHandler: writer,
      logGroup: new LogGroup(this, 'ProviderLogs', { retention: RetentionDays.ONE_MONTH }),
    });
    const properties: ConfigWriterProperties = {
      TableName: props.table.tableName,
      DefinitionsBucket: definitions.s3BucketName,
      DefinitionsKey: definitions.s3ObjectKey,
      DefinitionsHash: definitions.assetHash,
      DefaultProbeRegions: props.defaultProbeRegions.join(','),
    };
    new CustomResource(this, 'Resource', {
      serviceToken: provider.serviceToken,
      resourceType: 'Custom::TrafficManagerProfiles',
      properties: { ...properties },
    });

    suppress(writer, [BASIC_EXECUTION_ROLE, RUNTIME_PINNED]);
    suppress(provider, [
      BASIC_EXECUTION_ROLE,
      {
        id: 'AwsSolutions-IAM5',
        reason:
          'The Provider framework may invoke any version of the config writer function (`<arn>:*`); it is the only function it can invoke.',
      },
      {
        id: 'AwsSolutions-L1',
        reason: 'The Provider framework function’s runtime is chosen by aws-cdk-lib and moves with it.',
      },
    ]);
  }
}

/**
 * The normalized profiles as a JSON file asset. Its hash is the content's SHA-256, so the
 * same definitions give the same object key and no update. The source file is written into
 * the cloud assembly directory (removed with it, like the staged copy), not a temporary one.
 */
function definitionsAsset(scope: Construct, profiles: readonly Profile[]): Asset {
  const json = JSON.stringify(profiles);
  const hash = createHash('sha256').update(json).digest('hex');
  const outdir = Stage.of(scope)?.outdir;
  if (outdir === undefined)
    throw new InvalidDeploymentError('the definitions asset needs a Stage (an App) above it');
  mkdirSync(outdir, { recursive: true });
  const file = join(outdir, `traffic-manager-definitions.${hash}.json`);
  writeFileSync(file, json);
  return new Asset(scope, 'Definitions', {
    path: file,
    assetHashType: AssetHashType.CUSTOM,
    assetHash: hash,
  });
}
