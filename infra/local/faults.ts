/**
 * The faults `tm fault inject|clear` puts into the running local stack, and the small loopback
 * control surface the CLI reaches them through (its endpoint is in the state file):
 *
 * - `route53-api`: every call to the local Route 53 API answers ServiceUnavailable (503); the DNS
 *   server and the health checks (the data plane) go on;
 * - `home-region`: the evaluator's stream polling and its tick stop, and the home table refuses
 *   the probe regions' reads and writes (503), as calls into a dead region would fail;
 * - `region:NAME`: that probe region stops — it probes, writes and publishes nothing.
 *
 * Faults combine; clearing one restores what it stopped. The stack supplies the switches
 * (FaultSwitches); this module only keeps the set and says what each change did.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HomeRegionDownError, UnknownFaultError } from './errors.js';
import { startGuardedHttpServer, type GuardedHttpServer, type HttpReply } from './http-guard.js';

export const FAULT = { route53Api: 'route53-api', homeRegion: 'home-region' } as const;
const REGION_FAULT_PREFIX = 'region:';
export type FaultName = (typeof FAULT)[keyof typeof FAULT] | `region:${string}`;

/** What the stack turns on and off. */
export interface FaultSwitches {
  /** The probe region names the stack runs. */
  readonly regions: readonly string[];
  setRoute53ApiDown(down: boolean): void;
  setHomeRegionDown(down: boolean): void;
  setRegionStopped(region: string, stopped: boolean): void;
}

export interface FaultChange {
  readonly fault: FaultName;
  /** false when it was already so (injected twice, cleared when not on). */
  readonly changed: boolean;
  /** What it did, one line. */
  readonly message: string;
}

export type LocalFaults = ReturnType<typeof createLocalFaults>;

/** A fault's name as `tm fault` takes it; UnknownFaultError names the ones there are. */
function parseFault(text: string, regions: readonly string[]): FaultName {
  if (text === FAULT.route53Api || text === FAULT.homeRegion) return text;
  if (text.startsWith(REGION_FAULT_PREFIX)) {
    const region = text.slice(REGION_FAULT_PREFIX.length);
    if (regions.includes(region)) return `region:${region}`;
    throw new UnknownFaultError(
      `no probe region "${region}" in this stack; its regions: ${regions.join(', ')}`,
    );
  }
  throw new UnknownFaultError(
    `unknown fault "${text}"; the faults: ${FAULT.route53Api}, ${FAULT.homeRegion}, ` +
      regions.map((r) => `${REGION_FAULT_PREFIX}${r}`).join(', '),
  );
}

/** `onChange`: each change that did something (for the log). */
export function createLocalFaults(
  switches: FaultSwitches,
  onChange: (change: FaultChange) => void = () => undefined,
) {
  const on: FaultName[] = [];
  const apply = (fault: FaultName, down: boolean) => {
    if (fault === FAULT.route53Api) switches.setRoute53ApiDown(down);
    else if (fault === FAULT.homeRegion) switches.setHomeRegionDown(down);
    else switches.setRegionStopped(fault.slice(REGION_FAULT_PREFIX.length), down);
  };
  const change = (text: string, down: boolean): FaultChange => {
    const fault = parseFault(text, switches.regions);
    const changed = on.includes(fault) !== down;
    if (changed) {
      apply(fault, down);
      if (down) on.push(fault);
      else on.splice(on.indexOf(fault), 1);
    }
    const message = changed
      ? describeFault(fault, down)
      : `${fault}: ${down ? 'already injected' : 'not injected'}; nothing changed`;
    if (changed) onChange({ fault, changed, message });
    return { fault, changed, message };
  };
  return {
    inject: (text: string) => change(text, true),
    clear: (text: string) => change(text, false),
    /** The faults on, in the order they were injected. */
    list: () => [...on],
    isOn: (fault: FaultName) => on.includes(fault),
  };
}

function describeFault(fault: FaultName, down: boolean): string {
  if (fault === FAULT.route53Api)
    return down
      ? `${fault}: every call to the local Route 53 API now answers ServiceUnavailable (503); DNS answers and health checks go on`
      : `${fault}: the local Route 53 API answers again`;
  if (fault === FAULT.homeRegion)
    return down
      ? `${fault}: the evaluator (stream polling and tick) stopped, and the home table refuses the probe regions' reads and writes (503)`
      : `${fault}: the home table answers again and the evaluator resumes (it reads the stream from where it stopped)`;
  const region = fault.slice(REGION_FAULT_PREFIX.length);
  return down
    ? `${fault}: probe region ${region} stopped: it probes, writes and publishes nothing`
    : `${fault}: probe region ${region} probes, writes and publishes again`;
}

/** The home table as the probe regions reach it: while `down()`, every call is refused (503) before it is sent. */
export function refuseWhileHomeRegionDown(
  client: DynamoDBClient,
  down: () => boolean | Promise<boolean>,
): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      if (await down()) throw new HomeRegionDownError();
      return next(args);
    },
    { step: 'initialize', name: 'tmHomeRegionFault' },
  );
}

/** Whether a logged error is the home-region fault's refusal (the stack says so once, not per call). */
export function isHomeRegionRefusal(error: unknown): boolean {
  return error instanceof HomeRegionDownError || String(error).includes(new HomeRegionDownError().message);
}

/** The control surface needs this header, as the demo's does: a web page cannot send it cross-site. */
export const FAULT_CONTROL_HEADER = 'X-TM-Control';

export interface FaultControlOptions {
  readonly faults: LocalFaults;
  /**
   * A health check's status as the data plane sees it (the local stand-in for the CloudWatch
   * metric AWS/Route53 HealthCheckStatus); undefined when there is no such check.
   */
  readonly healthCheckStatus: (id: string) => 'Healthy' | 'Unhealthy' | undefined;
  /**
   * The definitions the stack deployed, as its table holds them: what `tm endpoint` steers by
   * when the home-region fault makes the table refuse it (an operator of a deployment gives the file).
   */
  readonly config: () => {
    readonly profiles: readonly unknown[];
    readonly defaultProbeRegions: readonly string[];
  };
}

const json = (status: number, body: unknown): HttpReply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: `${JSON.stringify(body)}\n`,
});

/**
 * The control endpoint on 127.0.0.1 (guarded like the other stand-ins: the X-TM-Control header,
 * no Origin, a loopback Host):
 *   GET  /faults                     → { faults }
 *   POST /faults/inject/NAME, /faults/clear/NAME → { fault, changed, message, faults } (400 { error } for an unknown one)
 *   GET  /health-checks/ID/status    → { id, status } (404 when there is no such check)
 *   GET  /config                     → { profiles, defaultProbeRegions }
 */
export function startFaultControl(options: FaultControlOptions): Promise<GuardedHttpServer> {
  const { faults } = options;
  return startGuardedHttpServer({
    caller: { header: FAULT_CONTROL_HEADER },
    handle: ({ method, url }) => {
      const parts = url.pathname.split('/').slice(1).map(decodeURIComponent);
      if (parts[0] === 'faults' && parts.length === 1 && method === 'GET')
        return json(200, { faults: faults.list() });
      if (parts[0] === 'faults' && parts.length === 3 && method === 'POST') {
        const [, action, name = ''] = parts;
        if (action !== 'inject' && action !== 'clear') return json(404, { error: `no action "${action}"` });
        try {
          const change = action === 'inject' ? faults.inject(name) : faults.clear(name);
          return json(200, { ...change, faults: faults.list() });
        } catch (error) {
          if (error instanceof UnknownFaultError) return json(400, { error: error.message });
          throw error;
        }
      }
      if (parts[0] === 'health-checks' && parts.length === 3 && parts[2] === 'status' && method === 'GET') {
        const id = parts[1] ?? '';
        const status = options.healthCheckStatus(id);
        return status === undefined
          ? json(404, { error: `no health check ${id}` })
          : json(200, { id, status });
      }
      if (parts[0] === 'config' && parts.length === 1 && method === 'GET') return json(200, options.config());
      return json(404, {
        error:
          'use GET /faults, POST /faults/inject/NAME, POST /faults/clear/NAME, GET /health-checks/ID/status, GET /config',
      });
    },
    errorReply: (error) => json(error.status, { error: error.message }),
  });
}
