/** Reads a client-location table from a JSON file (`tm local --client-locations FILE`). */
import { readFile } from 'node:fs/promises';
import { ClientLocationsError } from './errors.js';
import { parseClientLocations, type ClientLocationTable } from './client-locations.js';

export async function loadClientLocations(file: string): Promise<ClientLocationTable> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (cause) {
    throw new ClientLocationsError(file, [`cannot read the file: ${(cause as Error).message}`], { cause });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new ClientLocationsError(file, [`not valid JSON: ${(cause as Error).message}`], { cause });
  }
  return parseClientLocations(json, file);
}
