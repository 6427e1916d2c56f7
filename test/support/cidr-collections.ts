/**
 * A CIDR collection with its locations, created through the Route 53 API with the given SDK
 * client (as the evaluator's gateway creates one): CreateCidrCollection, then one
 * ChangeCidrCollection that puts every location's blocks.
 */
import {
  ChangeCidrCollectionCommand,
  CreateCidrCollectionCommand,
  type Route53Client,
} from '@aws-sdk/client-route-53';
import { randomUUID } from 'node:crypto';

/** Returns the collection's id. */
export async function createCidrCollection(
  client: Route53Client,
  name: string,
  locations: Readonly<Record<string, readonly string[]>> = {},
): Promise<string> {
  const created = await client.send(
    new CreateCidrCollectionCommand({ Name: name, CallerReference: randomUUID() }),
  );
  const id = created.Collection?.Id ?? '';
  const changes = Object.entries(locations).map(([LocationName, cidrs]) => ({
    LocationName,
    Action: 'PUT' as const,
    CidrList: [...cidrs],
  }));
  if (changes.length > 0) await client.send(new ChangeCidrCollectionCommand({ Id: id, Changes: changes }));
  return id;
}
