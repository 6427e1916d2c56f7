/** The single state table (layout: shared/state/items.ts, docs/adr/0002-table-layout.md). */
import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

export interface StateTableProps {
  /** Physical table name; fixed so probe stacks in other regions can address it by name. */
  readonly tableName: string;
}

export class StateTable extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string, props: StateTableProps) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      tableName: props.tableName,
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      // The evaluator needs the old image to tell a verdict change from a rewrite.
      stream: StreamViewType.NEW_AND_OLD_IMAGES,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // History items carry an epoch-seconds `expiresAt`.
      timeToLiveAttribute: 'expiresAt',
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }
}
