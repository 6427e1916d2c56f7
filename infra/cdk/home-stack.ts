/**
 * The home region as its own stack (what `TrafficManager` creates unless given `homeStack`):
 * the `TrafficManagerHome` resources. Their id `Default` keeps their logical ids as they were
 * when this stack held them directly.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { EventBus } from 'aws-cdk-lib/aws-events';
import type { Construct } from 'constructs';
import type { Evaluator } from './evaluator.js';
import { TrafficManagerHome, type TrafficManagerHomeProps } from './home.js';
import type { Monitoring } from './monitoring.js';

export interface TrafficManagerHomeStackProps extends StackProps, TrafficManagerHomeProps {}

export class TrafficManagerHomeStack extends Stack {
  readonly resources: TrafficManagerHome;
  readonly table: Table;
  readonly eventBus: EventBus;
  readonly evaluator: Evaluator;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: TrafficManagerHomeStackProps) {
    super(scope, id, props);
    this.resources = new TrafficManagerHome(this, 'Default', props);
    ({
      table: this.table,
      eventBus: this.eventBus,
      evaluator: this.evaluator,
      monitoring: this.monitoring,
    } = this.resources);
  }
}
