/**
 * `tm history [--profile P] [--endpoint E] [--since 1h] [--json] [--dns-port N | --table
 * NAME --region R]` — the status transitions the evaluator recorded, newest first, with
 * reason, votes, record changes and timing; from the running local stack or from AWS.
 * JSON: `{ "transitions": [...] }`.
 */
import { readDeployedConfig } from '../../functions/shared/config-reader.js';
import { readHistory } from '../../functions/shared/history-store.js';
import { formatTransition, historyView, type HistoryTransition } from '../../shared/history/view.js';
import type { Io } from './io.js';
import { connectOrSay, type Stack, type StackOptions } from './stack.js';

export interface HistoryOptions extends StackOptions {
  readonly profile?: string;
  readonly endpoint?: string;
  /** Milliseconds back from now. */
  readonly since?: number;
  readonly json?: boolean;
}

export async function run(_args: [], options: HistoryOptions, io: Io): Promise<number> {
  const stack = connectOrSay(options, 'history', io);
  if (stack === undefined) return 1;
  let transitions: HistoryTransition[];
  try {
    transitions = await readTransitions(stack, options);
  } catch (error) {
    io.stderr.write(`tm history: could not read ${stack.description}: ${(error as Error).message}\n`);
    return 1;
  } finally {
    stack.client.destroy();
  }
  if (options.json === true) {
    io.stdout.write(`${JSON.stringify({ transitions }, null, 2)}\n`);
  } else if (transitions.length === 0) {
    io.stdout.write('no transitions recorded (for that selection)\n');
  } else {
    io.stdout.write(`${transitions.flatMap(formatTransition).join('\n')}\n`);
  }
  return 0;
}

/**
 * The transitions recorded in `stack`, newest first, for that selection (`since`: ms back
 * from now): of `options.profile`, else of `profiles` when the caller knows them, else of
 * every deployed profile.
 */
export async function readTransitions(
  stack: Stack,
  options: Pick<HistoryOptions, 'profile' | 'endpoint' | 'since'>,
  known?: readonly string[],
): Promise<HistoryTransition[]> {
  const since = options.since === undefined ? undefined : Date.now() - options.since;
  const profiles =
    options.profile !== undefined
      ? [options.profile]
      : (known ?? (await readDeployedConfig(stack.client, stack.tableName)).profiles.map((p) => p.name));
  const records = (
    await Promise.all(profiles.map((p) => readHistory(stack.client, stack.tableName, p, since)))
  ).flat();
  return historyView(records, {
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...(since === undefined ? {} : { since }),
  });
}
