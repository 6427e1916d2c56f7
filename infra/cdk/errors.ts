/** Errors that fail `cdk synth` before anything is deployed. */
export class TrafficManagerCdkError extends Error {
  override name = 'TrafficManagerCdkError';
}

/** The definitions did not validate; `lines` are exactly what `tm validate` prints. */
export class InvalidDefinitionsError extends TrafficManagerCdkError {
  override name = 'InvalidDefinitionsError';
  constructor(
    readonly source: string,
    readonly lines: readonly string[],
  ) {
    super(`invalid profile definitions in ${source}:\n${lines.join('\n')}`);
  }
}

/** A profile whose zone has no hosted zone id (neither in `dnsConfig.hostedZoneId` nor in the `hostedZones` prop). */
export class MissingHostedZoneError extends TrafficManagerCdkError {
  override name = 'MissingHostedZoneError';
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
  override name = 'InvalidDeploymentError';
}
