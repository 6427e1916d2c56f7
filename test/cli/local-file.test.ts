/** `tm local FILE` where FILE cannot be read: exit 1 and one line naming the file, as `tm validate` says it; nothing starts. */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmInProcess } from '../support/tm.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tm-local-file-'));
  await mkdir(join(dir, 'folder.yaml'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tm local FILE that cannot be read', () => {
  it.each([
    ['a file that does not exist', () => join(dir, 'missing.yaml'), 'no such file'],
    ['a directory', () => join(dir, 'folder.yaml'), 'is not a file'],
  ])('%s: exit 1, "tm local: FILE: why", the same reason tm validate gives', async (_, fileOf, why) => {
    // Arrange
    const file = fileOf();

    // Act
    const local = await tmInProcess('local', file, '--dns-port', '0');
    const validate = await tmInProcess('validate', file);

    // Assess
    expect(local).toEqual({ code: 1, stdout: '', stderr: `tm local: ${file}: ${why}\n` });
    expect(validate.stderr).toBe(`tm validate: ${file}: ${why}\n`);
  });
});
