/**
 * Azure region → the nearest AWS region, for Performance endpoints (`endpointLocation`)
 * written with Azure's region names. The rule: the AWS region in the same country when
 * there is one, else the nearest by distance. Documented in docs/definitions.md.
 */
import type { AwsRegion } from './aws-regions.js';

interface AzureRegion {
  /** Azure's display name, e.g. "East US"; its compact name is this without spaces, lower case. */
  readonly displayName: string;
  /** Where the Azure region is. */
  readonly place: string;
  readonly awsRegion: AwsRegion;
}

const AZURE_REGIONS: readonly AzureRegion[] = [
  { displayName: 'East US', place: 'Virginia', awsRegion: 'us-east-1' },
  { displayName: 'East US 2', place: 'Virginia', awsRegion: 'us-east-1' },
  { displayName: 'Central US', place: 'Iowa', awsRegion: 'us-east-2' },
  { displayName: 'North Central US', place: 'Illinois', awsRegion: 'us-east-2' },
  { displayName: 'South Central US', place: 'Texas', awsRegion: 'us-east-2' },
  { displayName: 'West Central US', place: 'Wyoming', awsRegion: 'us-west-2' },
  { displayName: 'West US', place: 'California', awsRegion: 'us-west-1' },
  { displayName: 'West US 2', place: 'Washington', awsRegion: 'us-west-2' },
  { displayName: 'West US 3', place: 'Arizona', awsRegion: 'us-west-1' },
  { displayName: 'Canada Central', place: 'Toronto', awsRegion: 'ca-central-1' },
  { displayName: 'Canada East', place: 'Quebec City', awsRegion: 'ca-central-1' },
  { displayName: 'Mexico Central', place: 'Querétaro', awsRegion: 'mx-central-1' },
  { displayName: 'Brazil South', place: 'São Paulo', awsRegion: 'sa-east-1' },
  { displayName: 'Brazil Southeast', place: 'Rio de Janeiro', awsRegion: 'sa-east-1' },
  { displayName: 'Chile Central', place: 'Santiago', awsRegion: 'sa-east-1' },
  { displayName: 'North Europe', place: 'Ireland', awsRegion: 'eu-west-1' },
  { displayName: 'West Europe', place: 'Netherlands', awsRegion: 'eu-west-2' },
  { displayName: 'UK South', place: 'London', awsRegion: 'eu-west-2' },
  { displayName: 'UK West', place: 'Cardiff', awsRegion: 'eu-west-2' },
  { displayName: 'France Central', place: 'Paris', awsRegion: 'eu-west-3' },
  { displayName: 'France South', place: 'Marseille', awsRegion: 'eu-west-3' },
  { displayName: 'Belgium Central', place: 'Brussels', awsRegion: 'eu-west-3' },
  { displayName: 'Germany West Central', place: 'Frankfurt', awsRegion: 'eu-central-1' },
  { displayName: 'Germany North', place: 'Berlin', awsRegion: 'eu-central-1' },
  { displayName: 'Switzerland North', place: 'Zurich', awsRegion: 'eu-central-2' },
  { displayName: 'Switzerland West', place: 'Geneva', awsRegion: 'eu-central-2' },
  { displayName: 'Austria East', place: 'Vienna', awsRegion: 'eu-central-2' },
  { displayName: 'Italy North', place: 'Milan', awsRegion: 'eu-south-1' },
  { displayName: 'Spain Central', place: 'Madrid', awsRegion: 'eu-south-2' },
  { displayName: 'Poland Central', place: 'Warsaw', awsRegion: 'eu-north-1' },
  { displayName: 'Norway East', place: 'Oslo', awsRegion: 'eu-north-1' },
  { displayName: 'Norway West', place: 'Stavanger', awsRegion: 'eu-north-1' },
  { displayName: 'Sweden Central', place: 'Gävle', awsRegion: 'eu-north-1' },
  { displayName: 'Sweden South', place: 'Malmö', awsRegion: 'eu-north-1' },
  { displayName: 'Israel Central', place: 'Israel', awsRegion: 'il-central-1' },
  { displayName: 'Qatar Central', place: 'Doha', awsRegion: 'me-south-1' },
  { displayName: 'UAE North', place: 'Dubai', awsRegion: 'me-central-1' },
  { displayName: 'UAE Central', place: 'Abu Dhabi', awsRegion: 'me-central-1' },
  { displayName: 'South Africa North', place: 'Johannesburg', awsRegion: 'af-south-1' },
  { displayName: 'South Africa West', place: 'Cape Town', awsRegion: 'af-south-1' },
  { displayName: 'Central India', place: 'Pune', awsRegion: 'ap-south-1' },
  { displayName: 'West India', place: 'Mumbai', awsRegion: 'ap-south-1' },
  { displayName: 'South India', place: 'Chennai', awsRegion: 'ap-south-2' },
  { displayName: 'Jio India West', place: 'Jamnagar', awsRegion: 'ap-south-1' },
  { displayName: 'Jio India Central', place: 'Nagpur', awsRegion: 'ap-south-2' },
  { displayName: 'East Asia', place: 'Hong Kong', awsRegion: 'ap-east-1' },
  { displayName: 'Taiwan North', place: 'Taipei', awsRegion: 'ap-east-2' },
  { displayName: 'Southeast Asia', place: 'Singapore', awsRegion: 'ap-southeast-1' },
  { displayName: 'Indonesia Central', place: 'Jakarta', awsRegion: 'ap-southeast-3' },
  { displayName: 'Malaysia West', place: 'Kuala Lumpur', awsRegion: 'ap-southeast-5' },
  { displayName: 'Japan East', place: 'Tokyo', awsRegion: 'ap-northeast-1' },
  { displayName: 'Japan West', place: 'Osaka', awsRegion: 'ap-northeast-3' },
  { displayName: 'Korea Central', place: 'Seoul', awsRegion: 'ap-northeast-2' },
  { displayName: 'Korea South', place: 'Busan', awsRegion: 'ap-northeast-2' },
  { displayName: 'Australia East', place: 'Sydney', awsRegion: 'ap-southeast-2' },
  { displayName: 'Australia Southeast', place: 'Melbourne', awsRegion: 'ap-southeast-4' },
  { displayName: 'Australia Central', place: 'Canberra', awsRegion: 'ap-southeast-2' },
  { displayName: 'Australia Central 2', place: 'Canberra', awsRegion: 'ap-southeast-2' },
  { displayName: 'New Zealand North', place: 'Auckland', awsRegion: 'ap-southeast-6' },
];

const compact = (name: string): string => name.replace(/\s+/g, '').toLowerCase();

const BY_NAME: ReadonlyMap<string, AzureRegion> = new Map(
  AZURE_REGIONS.map((region) => [compact(region.displayName), region]),
);

/** "East US", "eastus", "EASTUS" → the region; `undefined` for a name Azure's public cloud does not have. */
export function azureRegion(name: string): AzureRegion | undefined {
  return BY_NAME.get(compact(name));
}
