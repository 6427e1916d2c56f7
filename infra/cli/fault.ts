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

export const inject = (args: [string], options: FaultOptions, io: Io) =>
  change('inject', args[0], options, io);
export const clear = (args: [string], options: FaultOptions, io: Io) => change('clear', args[0], options, io);

export async function list(_args: [], options: FaultOptions, io: Io): Promise<number> {
  const found = controlOf(options, 'list', io);
  if (found === undefined) return 1;
  try {
    const { faults } = await call<{ faults: FaultName[] }>(found, 'GET', '/faults');
    io.stdout.write(
      options.json === true
        ? `${JSON.stringify({ faults }, null, 2)}\n`
        : faults.length === 0
          ? 'no fault injected\n'
          : `${faults.join('\n')}\n`,
    );
    return 0;
  } catch (error) {
    io.stderr.write(`tm fault list: ${(error as Error).message}\n`);
    return 1;
  }
}

async function change(
  action: 'inject' | 'clear',
  fault: string,
  options: FaultOptions,
  io: Io,
): Promise<number> {
  const found = controlOf(options, action, io);
  if (found === undefined) return 1;
  try {
    const path = `/faults/${action}/${encodeURIComponent(fault)}`;
    const result = await call<FaultChange & { faults: FaultName[] }>(found, 'POST', path);
    io.stdout.write(options.json === true ? `${JSON.stringify(result, null, 2)}\n` : `${result.message}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`tm fault ${action}: ${(error as Error).message}\n`);
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
