/** Errors that fail `cdk synth` before anything is deployed. */
import { TrafficManagerError } from '../../shared/errors.js';

/** Definitions that do not validate (the profile module's error, exported with the construct). */
export { InvalidDefinitionsError } from '../../shared/profile/errors.js';

export class TrafficManagerCdkError extends TrafficManagerError {
  override readonly name: string = 'TrafficManagerCdkError';
  readonly code: string = 'CDK';
}

/** A profile whose zone has no hosted zone id (neither in `dnsConfig.hostedZoneId` nor in the `hostedZones` prop). */
export class MissingHostedZoneError extends TrafficManagerCdkError {
  override readonly name = 'MissingHostedZoneError';
  override readonly code = 'MISSING_HOSTED_ZONE';
  constructor(readonly profiles: readonly { readonly name: string; readonly zoneName: string }[]) {
    super(
      profiles
        .map(
          (p) =>
            `profile "${p.name}" dnsConfig.hostedZoneId: needs the id of the hosted zone "${p.zoneName}" (set it in the definition or in the hostedZones prop), got nothing`,
        )
        .join('\n'),
    );
  }
}

/** Deployment settings that cannot work (no probe regions, a VPC for a region that is not probed, …). */
export class InvalidDeploymentError extends TrafficManagerCdkError {
  override readonly name = 'InvalidDeploymentError';
  override readonly code = 'INVALID_DEPLOYMENT';
}
