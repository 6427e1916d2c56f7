/**
 * Commercial AWS regions (the `aws` partition): valid values for `endpointLocation`
 * (Route 53 latency records) and `probeRegions`. GovCloud and China are separate
 * partitions with their own Route 53 and are deliberately absent.
 */
export const AWS_COMMERCIAL_REGIONS = [
  'us-east-1',
  'us-east-2',
  'us-west-1',
  'us-west-2',
  'af-south-1',
  'ap-east-1',
  'ap-east-2',
  'ap-south-1',
  'ap-south-2',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-northeast-3',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-southeast-3',
  'ap-southeast-4',
  'ap-southeast-5',
  'ap-southeast-6',
  'ap-southeast-7',
  'ca-central-1',
  'ca-west-1',
  'eu-central-1',
  'eu-central-2',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-south-1',
  'eu-south-2',
  'eu-north-1',
  'il-central-1',
  'me-south-1',
  'me-central-1',
  'mx-central-1',
  'sa-east-1',
] as const;

export type AwsRegion = (typeof AWS_COMMERCIAL_REGIONS)[number];

const REGIONS: ReadonlySet<string> = new Set(AWS_COMMERCIAL_REGIONS);

export function isAwsRegion(name: string): name is AwsRegion {
  return REGIONS.has(name);
}
