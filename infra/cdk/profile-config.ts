/**
 * A custom resource (Provider framework + functions/config-writer) that writes the
 * definitions to the table's CONFIG items whenever they change, and deletes profiles
 * that are no longer defined.
 */
import { CustomResource, Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Provider } from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';
import type { Profile } from '../../shared/profile/types.js';
import { TABLE_ACCESS } from '../../shared/state/items.js';
import type { ConfigWriterProperties } from '../../functions/config-writer/handler.js';
import { trafficManagerFunction } from './lambda.js';
import { tableAccessStatements } from './table-access.js';
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
      memorySize: 256,
      timeout: Duration.minutes(2),
      logLevel: props.logLevel,
    });
    for (const statement of tableAccessStatements(props.table.tableArn, TABLE_ACCESS.configWriter))
      writer.addToRolePolicy(statement);
    const provider = new Provider(this, 'Provider', {
      onEventHandler: writer,
      logGroup: new LogGroup(this, 'ProviderLogs', { retention: RetentionDays.ONE_MONTH }),
    });
    const properties: ConfigWriterProperties = {
      TableName: props.table.tableName,
      Profiles: JSON.stringify(props.profiles),
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
