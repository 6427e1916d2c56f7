/**
 * Least-privilege Route 53 access for the evaluator: record changes only in the profiles'
 * hosted zones and only on the profiles' own names, listing only those zones.
 */
import { Aws } from 'aws-cdk-lib';
import { Effect, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Profile } from '../../shared/profile/types.js';
import { recordNamesByHostedZone } from './record-names.js';

function hostedZoneArn(hostedZoneId: string): string {
  return `arn:${Aws.PARTITION}:route53:::hostedzone/${hostedZoneId}`;
}

export function route53PublishingStatements(
  profiles: readonly Profile[],
  /** Static failover's probe regions: its `_fast` / `_static` names join the profiles' own. @default - none */
  staticFailoverRegions?: readonly string[],
): PolicyStatement[] {
  const namesByZone = recordNamesByHostedZone(profiles, staticFailoverRegions);
  const zoneArns = [...namesByZone.keys()].map(hostedZoneArn);
  const statements = [...namesByZone].map(
    ([zoneId, names]) =>
      new PolicyStatement({
        sid: `ChangeOwnRecords${zoneId.replace(/[^A-Za-z0-9]/g, '')}`,
        effect: Effect.ALLOW,
        actions: ['route53:ChangeResourceRecordSets'],
        resources: [hostedZoneArn(zoneId)],
        conditions: {
          'ForAllValues:StringEquals': { 'route53:ChangeResourceRecordSetsNormalizedRecordNames': names },
        },
      }),
  );
  if (zoneArns.length > 0) {
    statements.push(
      new PolicyStatement({
        sid: 'ReadOwnZones',
        // GetHostedZone gives the zone's size, so a read of many names can list the zone instead.
        actions: ['route53:GetHostedZone', 'route53:ListResourceRecordSets'],
        resources: zoneArns,
      }),
    );
  }
  statements.push(
    new PolicyStatement({
      sid: 'WaitForChanges',
      actions: ['route53:GetChange'],
      resources: [`arn:${Aws.PARTITION}:route53:::change/*`],
    }),
  );
  if (profiles.some((p) => p.trafficRoutingMethod === 'Subnet'))
    statements.push(...cidrCollectionStatements());
  return statements;
}

/**
 * Subnet profiles publish through CIDR collections the evaluator creates. A collection's id
 * is only known after it is created, so the grant cannot be narrower than every collection
 * of the account; `CreateCidrCollection` and `ListCidrCollections` have no resource type at
 * all (IAM authorizes them against "*", so a `cidrcollection/*` resource would deny them).
 */
function cidrCollectionStatements(): PolicyStatement[] {
  return [
    new PolicyStatement({
      sid: 'ManageCidrCollections',
      actions: ['route53:ChangeCidrCollection', 'route53:ListCidrBlocks', 'route53:ListCidrLocations'],
      resources: [`arn:${Aws.PARTITION}:route53:::cidrcollection/*`],
    }),
    new PolicyStatement({
      sid: 'FindOrCreateCidrCollections',
      actions: ['route53:CreateCidrCollection', 'route53:ListCidrCollections'],
      resources: ['*'],
    }),
  ];
}
