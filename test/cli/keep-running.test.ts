/**
 * An unhandled rejection in tm local is logged and the process carries on; without the handler
 * Node ends the process (the control case, so the test can tell the two apart).
 */
import { execFile } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from '../support/tm-process.js';

function runChild(...args: string[]): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'test/support/unhandled-rejection-child.ts', ...args],
      { cwd: REPO, timeout: 30_000 },
      (error, stdout) => resolve({ code: error === null ? 0 : Number(error.code), stdout }),
    );
  });
}

describe('an unhandled rejection', () => {
  it('is logged with its stack, and tm local keeps running', async () => {
    const { code, stdout } = await runChild('keep-running');
    expect(stdout).toMatch(/^internal error \(tm local keeps running\): Error: nobody awaited this\n\s+at /);
    expect(stdout).toMatch(/still running\n$/);
    expect(code).toBe(0);
  });

  it('ends a process without the handler (Node’s default)', async () => {
    const { code, stdout } = await runChild();
    expect(stdout).not.toContain('still running');
    expect(code).toBe(1);
  });
});
