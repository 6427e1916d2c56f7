/**
 * Runtime control, recorded and reversible, without a deploy: `tm endpoint
 * disable|enable|override|clear PROFILE/ENDPOINT`, `tm profile disable|enable PROFILE`.
 * Each writes a CONTROL item beside the deployed definitions (a later deploy does not undo
 * it) with who set it and why; the evaluator publishes it through the table's stream.
 * What each one changes is decided by shared/control/operations.ts; each is committed on the
 * endpoint's control version (functions/shared/control-command.ts), so of racing commands
 * the one that commits last decides, and each prints the version it holds at.
 */
import { readDeployedConfig } from '../../functions/shared/config-reader.js';
import { runControl } from '../../functions/shared/control-command.js';
import { ControlError } from '../../shared/control/errors.js';
import type { ControlAction } from '../../shared/control/operations.js';
import type { MonitorOverrideItem } from '../../shared/state/items.js';
import { UsageError } from './errors.js';
import type { Io } from './io.js';
import { StackNotFoundError } from './errors.js';
import { connectStack, type StackOptions } from './stack.js';

export interface ControlOptions extends StackOptions {
  readonly reason?: string;
}

export interface OverrideOptions extends ControlOptions {
  readonly status: MonitorOverrideItem['status'];
  /** Milliseconds. */
  readonly for: number;
}

export const disableEndpoint = (args: [string], options: ControlOptions, io: Io) =>
  control('endpoint disable', { kind: 'disable', ...endpointOf(args[0]) }, options, io);

export const enableEndpoint = (args: [string], options: ControlOptions, io: Io) =>
  control('endpoint enable', { kind: 'enable', ...endpointOf(args[0]) }, options, io);

export const overrideEndpoint = (args: [string], options: OverrideOptions, io: Io) =>
  control(
    'endpoint override',
    { kind: 'override', ...endpointOf(args[0]), status: options.status, forMs: options.for },
    options,
    io,
  );

export const clearEndpoint = (args: [string], options: ControlOptions, io: Io) =>
  control('endpoint clear', { kind: 'clear', ...endpointOf(args[0]) }, options, io);

export const disableProfile = (args: [string], options: ControlOptions, io: Io) =>
  control('profile disable', { kind: 'disable', profile: args[0] }, options, io);

export const enableProfile = (args: [string], options: ControlOptions, io: Io) =>
  control('profile enable', { kind: 'enable', profile: args[0] }, options, io);

function endpointOf(text: string): { profile: string; endpoint: string } {
  const match = /^([^/\s]+)\/([^/\s]+)$/.exec(text);
  if (match === null)
    throw new UsageError(`name the endpoint as PROFILE/ENDPOINT (e.g. shop/east), got "${text}"`);
  return { profile: match[1] ?? '', endpoint: match[2] ?? '' };
}

async function control(
  command: string,
  action: ControlAction,
  options: ControlOptions,
  io: Io,
): Promise<number> {
  let stack;
  try {
    stack = connectStack(options, command);
  } catch (error) {
    if (!(error instanceof StackNotFoundError)) throw error;
    io.stderr.write(`tm ${command}: ${error.message}\n`);
    return 1;
  }
  try {
    const [config, by] = await Promise.all([
      readDeployedConfig(stack.client, stack.tableName),
      stack.callerIdentity(),
    ]);
    const caller = { by, ...(options.reason === undefined ? {} : { reason: options.reason }) };
    const { plan, version } = await runControl(
      stack.client,
      stack.tableName,
      config.profiles,
      action,
      caller,
    );
    if (plan.status !== undefined || plan.override !== undefined) {
      io.stdout.write(`${plan.summary}\n`);
      io.stdout.write(
        `  recorded in ${stack.description} by ${by} as control version ${version}; the evaluator publishes it within seconds (tm status shows it)\n`,
      );
    } else {
      io.stdout.write(`${plan.summary} (control version ${version})\n`);
    }
    return 0;
  } catch (error) {
    io.stderr.write(
      error instanceof ControlError
        ? `tm ${command}: ${error.message}\n`
        : `tm ${command}: could not change ${stack.description}: ${(error as Error).message}\n`,
    );
    return 1;
  } finally {
    stack.client.destroy();
  }
}
