/** Running `tm`: as a child process as the installed package runs it, or in this process through `main`. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { main } from '../../infra/cli/main.js';
import { compiledTm } from './compiled-tm.js';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface TmResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `tm …` the way an operator runs the installed package (`bin/tm.js` over the compiled `dist/`). */
export async function tm(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<TmResult> {
  const bin = await compiledTm();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd: ROOT, timeout: 45_000, env: { ...process.env, ...env } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** `tm …` in this process, its output captured: the same parser and commands, without the start-up cost. */
export async function tmInProcess(...args: string[]): Promise<TmResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
  });
  return { code, stdout, stderr };
}

/**
 * `tm …` in this process with `env` set for the call and restored after: for loops that poll
 * `tm`, where a process costs about 0.5 s of CPU to start (a loop then confirms with `tm`).
 */
export async function tmInProcessWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<TmResult> {
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  try {
    return await tmInProcess(...args);
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/**
 * `tm …` in this process through the AWS path (`--table NAME --region us-east-1`, appended)
 * against a local stack's DynamoDB Local, standing in for the AWS table.
 */
export function tmAgainstTable(
  stack: { readonly dynamodbEndpoint: string; readonly tableName: string },
  ...args: string[]
): Promise<TmResult> {
  const env = {
    AWS_ENDPOINT_URL_DYNAMODB: stack.dynamodbEndpoint,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
  return tmInProcessWith(env, ...args, '--table', stack.tableName, '--region', 'us-east-1');
}
