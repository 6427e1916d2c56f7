/**
 * The operator figures of `tm validate` and `tm plan`, for a deployment to AWS: the evaluator's
 * real stream batching window, and the profile's probe regions or, without them, those of
 * `tm local` and the example deployment.
 */
import { EVALUATOR_STREAM_SETTINGS } from '../../functions/evaluator/stream-settings.js';
import {
  describeProbeLoad,
  operatorFigures,
  ROUTE53_PROPAGATION_SECONDS,
  type OperatorFigures,
} from '../../shared/monitor/failover-time.js';
import type { Profile } from '../../shared/profile/types.js';
import { DEFAULT_LOCAL_REGIONS } from '../local/regions.js';

const BATCHING_WINDOW_SECONDS = EVALUATOR_STREAM_SETTINGS.maxBatchingWindowMs / 1000;

export const FIGURES_HEADING =
  `Worst cases in AWS (publish: the evaluator's ${BATCHING_WINDOW_SECONDS} s stream batching window + ` +
  `${ROUTE53_PROPAGATION_SECONDS} s Route 53 propagation):`;

export function figuresOf(profile: Profile): OperatorFigures {
  return operatorFigures(profile, DEFAULT_LOCAL_REGIONS, { batchingWindowSeconds: BATCHING_WINDOW_SECONDS });
}

/**
 * Three lines, `indent` before each: moving away, coming back, the checks per endpoint — or,
 * for a method without failover (Geographic, Subnet), that and the checks.
 */
export function describeFigures(figures: OperatorFigures, indent: string): string[] {
  if (!figures.failsOver) {
    return [
      `${indent}no failover (${figures.trafficRoutingMethod}): a Degraded endpoint keeps its answers`,
      `${indent}${describeProbeLoad(figures)}`,
    ];
  }
  return [
    `${indent}users move away within ${figures.moveAway.formula}`,
    `${indent}they come back within ${figures.comeBack.formula}`,
    `${indent}${describeProbeLoad(figures)}`,
  ];
}
