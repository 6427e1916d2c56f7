/**
 * Runtime control, recorded and reversible, without a deploy: `tm endpoint
 * disable|enable|override|clear PROFILE/ENDPOINT`, `tm profile disable|enable PROFILE`.
 * Each writes a CONTROL item beside the deployed definitions (a later deploy does not undo
 * it) with who set it and why; the evaluator publishes it through the table's stream.
 * What each one changes is decided by shared/control/operations.ts; each is committed on the
 * endpoint's control version (functions/shared/control-command.ts), so of racing commands
 * the one that commits last decides, and each prints the version it holds at. When the table
 * is unreachable or the evaluator cannot publish, an endpoint command also steers through the
 * probe regions' CloudWatch (data-plane-steering.ts), which static failover's health checks follow.
 */
import { DynamoDbStaticFailoverStore } from '../../functions/evaluator/static-failover-store.js';
import { readDeployedConfig, type DeployedConfig } from '../../functions/shared/config-reader.js';
import { EnvironmentVariable } from '../../shared/contracts/environment.js';
import { dataPlaneOf, steer } from './data-plane-steering.js';
import { runControl } from '../../functions/shared/control-command.js';
import { ControlError } from '../../shared/control/errors.js';
import type { ControlAction } from '../../shared/control/operations.js';
import type { MonitorOverrideItem } from '../../shared/state/items.js';
import { UsageError } from './errors.js';
import type { Io } from './io.js';
import { connectOrSay, type StackOptions } from './stack.js';

export interface ControlOptions extends StackOptions {
  readonly reason?: string;
  /** Write through the probe regions' CloudWatch now (done by itself when the home region or Route 53's API is down). */
  readonly dataPlane?: boolean;
  /** The deployment's definitions, to steer by when its table is unreachable. */
  readonly definitions?: string;
  /** The deployment's probe regions, with `definitions`. */
  readonly probeRegions?: readonly string[];
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
  const stack = connectOrSay(options, command, io);
  if (stack === undefined) return 1;
  const now = Date.now();
  try {
    const by = await stack.callerIdentity();
    const caller = { by, ...(options.reason === undefined ? {} : { reason: options.reason }) };
    let config: DeployedConfig | undefined;
    let recorded = false;
    let controlPlaneDown = options.dataPlane === true;
    try {
      config = await readDeployedConfig(stack.client, stack.tableName);
      const { plan, version } = await runControl(
        stack.client,
        stack.tableName,
        config.profiles,
        action,
        caller,
      );
      recorded = true;
      if (plan.status !== undefined || plan.override !== undefined) {
        io.stdout.write(`${plan.summary}\n`);
        io.stdout.write(
          `  recorded in ${stack.description} by ${by} as control version ${version}; the evaluator publishes it within seconds (tm status shows it)\n`,
        );
      } else {
        io.stdout.write(`${plan.summary} (control version ${version})\n`);
      }
      // The evaluator's Route 53 calls fail: what it publishes does not reach DNS.
      const publishing = await new DynamoDbStaticFailoverStore(stack.client, stack.tableName)
        .loadPublishing()
        .catch(() => undefined);
      if (publishing?.publishing === false) {
        controlPlaneDown = true;
        io.stdout.write(
          `  the evaluator cannot publish (${publishing.reason ?? 'its last Route 53 call failed'})\n`,
        );
      }
    } catch (error) {
      if (error instanceof ControlError) {
        io.stderr.write(`tm ${command}: ${error.message}\n`);
        return 1;
      }
      controlPlaneDown = true;
      io.stderr.write(`tm ${command}: could not change ${stack.description}: ${(error as Error).message}\n`);
    }
    const plane = await dataPlaneOf(stack, options, config, io.stderr);
    if (plane === undefined) {
      if (controlPlaneDown)
        io.stderr.write(
          `tm ${command}: ${recorded ? 'DNS may not follow until the evaluator publishes again' : 'nothing changed'}; to steer through the probe regions' CloudWatch, name the deployment: ${EnvironmentVariable.staticFailoverDeployment}=NAME and, while its table is unreachable, --definitions FILE --probe-regions a,b,c\n`,
        );
      return recorded ? 0 : 1;
    }
    try {
      const steering = await steer(plane, action, caller, now, { override: controlPlaneDown });
      for (const line of steering.lines) io.stdout.write(`${line}\n`);
      return recorded || (steering.ok && steering.lines.length > 0) ? 0 : 1;
    } finally {
      plane.alarms.destroy();
    }
  } finally {
    stack.client.destroy();
  }
}
