/**
 * `tm fault inject|clear FAULT [--dns-port N] [--json]` and `tm fault list [--json]`: the
 * outages static failover is built for, put into the running local stack — `route53-api`,
 * `home-region`, `region:NAME` (infra/local/faults.ts says what each stops). The stack is
 * found through its state file, as `tm status` finds it; the faults go through its loopback
 * control endpoint.
 */
import { request } from 'undici';
import { LocalStackError } from '../local/errors.js';
import type { FaultChange, FaultName } from '../local/faults.js';
import { FAULT_CONTROL_HEADER } from '../local/faults.js';
import { selectRunningStack, type LocalStackPointer } from '../local/state-file.js';
import type { Io } from './io.js';

export interface FaultOptions {
  readonly dnsPort?: number;
  readonly json?: boolean;
}

/** A loopback call: bounded, so a hung stack does not hold the command. */
const CONTROL_TIMEOUT_MS = 5_000;

const change = (action: 'inject' | 'clear') => (args: [string], options: FaultOptions, io: Io) => {
  const path = `/faults/${action}/${encodeURIComponent(args[0])}`;
  return ask<FaultChange>(action, options, io, 'POST', path, (result) => `${result.message}\n`);
};
export const inject = change('inject');
export const clear = change('clear');

export const list = (_args: [], options: FaultOptions, io: Io) =>
  ask<{ faults: FaultName[] }>('list', options, io, 'GET', '/faults', ({ faults }) =>
    faults.length === 0 ? 'no fault injected\n' : `${faults.join('\n')}\n`,
  );

/** One call to the running stack's control endpoint: its answer as JSON with --json, else as `text` says. */
async function ask<T>(
  command: string,
  options: FaultOptions,
  io: Io,
  method: 'GET' | 'POST',
  path: string,
  text: (answer: T) => string,
): Promise<number> {
  const found = controlOf(options, command, io);
  if (found === undefined) return 1;
  try {
    const answer = await call<T>(found, method, path);
    io.stdout.write(options.json === true ? `${JSON.stringify(answer, null, 2)}\n` : text(answer));
    return 0;
  } catch (error) {
    io.stderr.write(`tm fault ${command}: ${(error as Error).message}\n`);
    return 1;
  }
}

function controlOf(options: FaultOptions, command: string, io: Io): LocalStackPointer | undefined {
  const selected = selectRunningStack(options.dnsPort);
  if ('problem' in selected) {
    io.stderr.write(
      `tm fault ${command}: ${selected.problem} (start one with \`npm start\` or \`tm local\`)\n`,
    );
    return undefined;
  }
  if (selected.stack.controlEndpoint === undefined) {
    io.stderr.write(
      `tm fault ${command}: the local stack on DNS port ${selected.stack.dnsPort} has no fault control (started by an older tm local); restart it\n`,
    );
    return undefined;
  }
  return selected.stack;
}

/**
 * One call to the stack's control endpoint, its JSON answer taken as `T`; its `{ error }` answer
 * becomes the thrown message. undici's request, not fetch: fetch sends `Sec-Fetch-Mode`, which the
 * guard refuses as a browser's.
 */
export async function call<T>(stack: LocalStackPointer, method: 'GET' | 'POST', path: string): Promise<T> {
  const endpoint = stack.controlEndpoint ?? '';
  const { statusCode, body } = await request(`${endpoint}${path}`, {
    method,
    headers: { [FAULT_CONTROL_HEADER]: '1' },
    headersTimeout: CONTROL_TIMEOUT_MS,
    bodyTimeout: CONTROL_TIMEOUT_MS,
  }).catch((error: Error & { code?: string }) => {
    const why =
      error.code === 'UND_ERR_HEADERS_TIMEOUT'
        ? `no answer within ${CONTROL_TIMEOUT_MS / 1000} s`
        : error.message;
    throw new LocalStackError(`the local stack's control endpoint ${endpoint} did not answer: ${why}`);
  });
  const answer = (await body.json().catch(() => undefined)) as { error?: string } | undefined;
  if (answer === undefined)
    throw new LocalStackError(`the control endpoint ${endpoint} answered HTTP ${statusCode} without JSON`);
  if (statusCode >= 400) throw new LocalStackError(answer.error ?? `HTTP ${statusCode}`);
  return answer as T;
}
