/**
 * The whole deployment as a CDK Stage, for apps (and CDK Pipelines) that deploy stages: the
 * `TrafficManager` construct's home and probe stacks, inside the stage.
 */
import { Stage, type StageProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { TrafficManager, type TrafficManagerProps } from './traffic-manager.js';

export interface TrafficManagerStageProps extends TrafficManagerProps {
  /** @default - the stage's own defaults (`StageProps`) */
  readonly stageProps?: StageProps;
}

export class TrafficManagerStage extends Stage {
  readonly trafficManager: TrafficManager;

  constructor(scope: Construct, id: string, props: TrafficManagerStageProps) {
    const { stageProps, ...trafficManagerProps } = props;
    super(scope, id, stageProps);
    this.trafficManager = new TrafficManager(this, 'TrafficManager', trafficManagerProps);
  }
}
