/**
 * The JSON shape a command's `--help` names for `--json` (`print { a, b } as JSON`) is the one it
 * prints: the top-level keys of `tm status --json` and `tm history --json`, read through the AWS
 * path (--table --region) from an empty table on DynamoDB Local.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshTable } from '../support/dynamodb.js';
import { tmAgainstTable, tmInProcess } from '../support/tm.js';

let table: { dynamodbEndpoint: string; tableName: string };

/** The keys `--help` lists in its `--json` line, in order. */
async function helpKeys(command: string): Promise<string[]> {
  const { code, stdout } = await tmInProcess(command, '--help');
  expect(code).toBe(0);
  const line = /--json\s+print \{ ([^}]*) \} as JSON/.exec(stdout);
  const shape = line?.[1];
  if (shape === undefined) throw new Error(`tm ${command} --help names no JSON shape:\n${stdout}`);
  return shape.split(',').map((key) => key.trim());
}

describe('tm --help names the JSON shape --json prints', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const fresh = await freshTable('tm-json-help');
    table = { dynamodbEndpoint: fresh.endpoint, tableName: fresh.tableName };
  });

  it.each([{ command: 'status' }, { command: 'history' }])(
    'tm $command --help lists the top-level keys of tm $command --json',
    async ({ command }) => {
      // Act
      const printed = await tmAgainstTable(table, command, '--json');
      // Assess
      expect(printed.code, printed.stderr).toBe(0);
      const keys = Object.keys(JSON.parse(printed.stdout) as object);
      expect(await helpKeys(command)).toEqual(keys);
    },
  );
});
