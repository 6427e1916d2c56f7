/** `traffic-manager/cdk`: what a CDK app needs to deploy traffic-manager. */
export { TrafficManager, type TrafficManagerProps } from './traffic-manager.js';
export { TrafficManagerStage, type TrafficManagerStageProps } from './stage.js';
export { loadProfiles, normalizeProfiles, type DefinitionsSource } from './definitions.js';
export {
  InvalidDefinitionsError,
  InvalidDeploymentError,
  MissingHostedZoneError,
  TrafficManagerCdkError,
} from './errors.js';
export { TrafficManagerError } from '../../shared/errors.js';
export { DefinitionsLoadError } from '../definitions/errors.js';
export type { VpcFactory } from './probe-stack.js';
export { defineProfiles } from '../../shared/profile/define.js';
export type { EndpointInput, MonitorConfigInput, ProfileInput } from '../../shared/profile/define.js';
export type { Profile } from '../../shared/profile/types.js';
export { TrafficManagerHome, type TrafficManagerHomeProps } from './home.js';
export { TrafficManagerHomeStack } from './home-stack.js';
export { TrafficManagerProbeStack } from './probe-stack.js';
