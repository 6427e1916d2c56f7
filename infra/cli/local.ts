/**
 * `tm local [FILE] [--dns-port 5353] [--ui-port 0] [--time-scale F] [--regions a,b,c]
 * [--client-locations FILE] [--secrets FILE] [--reconcile-interval 5m]`
 */
import { rmSync } from 'node:fs';
import { emitKeypressEvents } from 'node:readline';
import { parseDefinitions } from '../../shared/profile/parse.js';
import { deploymentRegionProblems } from '../../shared/profile/deployment-regions.js';
import { secretReferencesOf } from '../../shared/profile/secret-references.js';
import type { Profile } from '../../shared/profile/types.js';
import {
  DEMO_BACKENDS,
  DEMO_OUTAGE_FAULTS,
  DEMO_OUTAGE_KEY,
  DEMO_TIME_SCALE,
  demoControlCommand,
  demoDefinitions,
  startDemoBackends,
  type DemoBackends,
} from '../local/demo.js';
import {
  DEFAULT_DNS_PORT,
  loadClientLocations,
  LocalDnsError,
  type ClientLocationTable,
} from '../local/dns/index.js';
import {
  DemoError,
  DynamoDbLocalMissingError,
  JavaCompilerMissingError,
  JavaMissingError,
  LocalSecretsFileError,
} from '../local/errors.js';
import { DEFAULT_LOCAL_REGIONS, startLocalStack, statePointerOf, type LocalStack } from '../local/stack.js';
import {
  loadLocalSecrets,
  missingLocalSecrets,
  NO_LOCAL_SECRETS,
  type LocalSecretValues,
} from '../local/secrets-file.js';
import { describeRestoredState, type RestoredState } from '../local/restored-state.js';
import {
  removeStateFile,
  selectRunningStack,
  stateFilePath,
  tableDirectory,
  writeStateFile,
} from '../local/state-file.js';
import { followDefinitions } from './definitions-reload.js';
import type { Io } from './io.js';
import { logUnhandledRejections } from './keep-running.js';
import { formatWarning, inlineSecretWarnings } from '../../shared/profile/secret-references.js';
import { DefinitionsLoadError } from '../definitions/errors.js';
import { loadDefinitions } from '../definitions/load.js';
import { watchForStop, type StopRequest } from './stop-request.js';
import { localStack } from './stack.js';
import { localLog } from './local-log.js';
import type { GuardedHttpServer } from '../local/http-guard.js';
import type { LocalFaults } from '../local/faults.js';
import { readSnapshot } from '../ui/snapshot.js';
import { startStatusPage } from '../ui/server.js';

/** Where the table lives and what it brought back, for the banner. */
function describeTable(dataDirectory: string | undefined, restored: RestoredState | undefined): string {
  if (dataDirectory === undefined) return 'in memory (--dns-port 0): nothing is kept after a stop';
  if (restored === undefined) return `new, kept in ${dataDirectory} (--fresh starts empty)`;
  return `kept in ${dataDirectory}: ${describeRestoredState(restored)} (--fresh starts empty)`;
}

/** `tm local` exits with this when DynamoDB Local stayed gone past its bound. */
export const STATE_STORE_LOST_EXIT_CODE = 3;

export interface LocalOptions {
  readonly dnsPort: number;
  /** The status page port on 127.0.0.1 (0: a free one). */
  readonly uiPort: number;
  readonly timeScale?: number;
  readonly regions?: readonly string[];
  readonly clientLocations?: string;
  readonly secrets?: string;
  /** ms, before the time scale. */
  readonly reconcileInterval?: number;
  /** Forget the table kept from the last run on this DNS port. */
  readonly fresh?: boolean;
}

export async function run(args: [string?], options: LocalOptions, io: Io): Promise<number> {
  const stop = watchForStop();
  const log = (line: string) => io.stdout.write(`${new Date().toISOString().slice(11, 23)}  ${line}\n`);
  const stopLogging = logUnhandledRejections(log);
  try {
    return await runStack(args, options, io, log, stop);
  } finally {
    stopLogging();
    stop.dispose();
  }
}

async function runStack(
  [file]: [string?],
  options: LocalOptions,
  io: Io,
  log: (line: string) => void,
  stopRequest: StopRequest,
): Promise<number> {
  const { dnsPort } = options;
  const timeScale = options.timeScale ?? (file === undefined ? DEMO_TIME_SCALE : 1);
  const regions = options.regions ?? [...DEFAULT_LOCAL_REGIONS];

  const inputs = await loadInputs(file, options, io, log);
  if (inputs === undefined) return 1;
  const { demo, profiles, locations, secrets } = inputs;

  const regionProblems = deploymentRegionProblems(profiles, regions, 'the probe regions of --regions');
  if (regionProblems.length > 0) {
    await demo?.stop();
    io.stderr.write(regionProblems.map((problem) => `tm local: ${problem}\n`).join(''));
    return 1;
  }

  for (const reference of missingLocalSecrets(secretReferencesOf(profiles), secrets)) {
    const where = options.secrets === undefined ? 'given (no --secrets FILE)' : `in ${options.secrets}`;
    io.stderr.write(
      `tm local: warning: a header uses ${reference}, which is not ${where}: its checks fail with reason "secret"\n`,
    );
  }

  // One table per DNS port, kept on disk; port 0 is a new port each start, so nothing to keep.
  let dataDirectory: string | undefined;
  if (dnsPort !== 0) {
    const running = selectRunningStack(dnsPort);
    if ('stack' in running) {
      await demo?.stop();
      io.stderr.write(
        `tm local: a local stack is already running on DNS port ${dnsPort} (pid ${running.stack.pid}, since ${running.stack.startedAt}); stop it first or pick another --dns-port\n`,
      );
      return 1;
    }
    dataDirectory = tableDirectory(dnsPort);
    if (options.fresh === true) rmSync(dataDirectory, { recursive: true, force: true });
  }

  const stack = await startLocalStack({
    ...(dataDirectory === undefined ? {} : { dataDirectory }),
    profiles,
    regions,
    dnsPort,
    timeScale,
    log,
    ...localLog(log),
    onFatal: (message) => stopRequest.request(message, STATE_STORE_LOST_EXIT_CODE),
    stopping: stopRequest.signal,
    secrets,
    ...(locations && { clientLocations: locations }),
    ...(options.reconcileInterval === undefined ? {} : { reconcileIntervalMs: options.reconcileInterval }),
  }).catch(async (error: unknown) => {
    await demo?.stop();
    // Reasons tm local explains in one line (on stderr): no Java or DynamoDB Local, no DNS port.
    if (!(
      error instanceof JavaMissingError ||
      error instanceof JavaCompilerMissingError ||
      error instanceof DynamoDbLocalMissingError ||
      error instanceof LocalDnsError
    ))
      throw error;
    io.stderr.write(`tm local: ${error.message}\n`);
    return undefined;
  });
  if (stack === undefined) return 1;
  // How `tm` finds this stack; a stack that runs without it is only logged.
  try {
    const replaced = writeStateFile(statePointerOf(stack));
    if (replaced !== undefined)
      log(
        `replaced the state file of a stack that is gone (pid ${replaced.pid}, started ${replaced.startedAt})`,
      );
  } catch (error) {
    log(`state file not written (tm status will not find this stack): ${(error as Error).message}`);
  }

  const pageStack = localStack(stack);
  // The live status page; when it cannot start, the stack runs without it.
  const page = await startStatusPage({
    port: options.uiPort,
    read: () => readSnapshot(pageStack),
    onError: (error) => log(`status page: ${(error as Error).message ?? error}`),
  }).catch((error: unknown) => {
    log(`status page not started (port ${options.uiPort}): ${(error as Error).message}`);
    return undefined;
  });

  // The banner once DNS answers from the first publish (SERVFAIL before), or a stop came first.
  await Promise.race([stack.published, stopRequest.requested]);

  // Raw mode before the banner, so a key pressed as soon as it says so is read (not a SIGINT).
  listenForKeys(stopRequest, demo, stack.faults, log);
  io.stdout.write(banner(stack, profiles, regions, timeScale, dataDirectory, page, demo));

  // The definitions file is followed: a valid edit applies, an invalid one is reported.
  const stopFollowing =
    file === undefined
      ? undefined
      : followDefinitions(file, {
          regions,
          profiles: () => stack.profiles,
          apply: (next) => stack.setProfiles(next),
          log,
        });

  const { reason, exitCode } = await stopRequest.requested;
  stopFollowing?.();
  io.stdout.write(`\nstopping (${reason})…\n`);
  if (process.stdin.isTTY) process.stdin.setRawMode(false);
  process.stdin.pause();
  try {
    await page?.stop();
    pageStack.client.destroy();
    await stack.stop();
    await demo?.stop();
  } finally {
    removeStateFile(stack.dnsPort);
  }
  return exitCode;
}

/**
 * What the stack runs with: the definitions (the demo's without FILE, its backends started),
 * client locations, secrets; undefined when they cannot be had (stderr says why).
 */
async function loadInputs(
  file: string | undefined,
  options: LocalOptions,
  io: Io,
  log: (line: string) => void,
) {
  let demo: DemoBackends | undefined;
  let profiles: Profile[];
  let locations: ClientLocationTable | undefined;
  let secrets: LocalSecretValues = NO_LOCAL_SECRETS;
  try {
    if (options.clientLocations !== undefined) locations = await loadClientLocations(options.clientLocations);
    if (options.secrets !== undefined) secrets = await loadLocalSecrets(options.secrets);
    if (file === undefined) {
      demo = await startDemoBackends((name, up) =>
        log(`demo backend ${name} is now ${up ? 'UP (200)' : 'DOWN (503)'}`),
      );
      const result = parseDefinitions(demoDefinitions(demo.port));
      if (!result.ok) throw new DemoError('the demo definitions are invalid');
      profiles = result.profiles;
    } else {
      const result = await loadDefinitions(file);
      if (!result.ok) {
        for (const line of result.formatted) io.stderr.write(`${line}\n`);
        const count = result.issues.length;
        io.stderr.write(`tm local: ${file}: ${count} ${count === 1 ? 'problem' : 'problems'}\n`);
        return undefined;
      }
      // Local mode makes its own hosted zones: the ids a deploy needs are no concern here.
      for (const notice of result.notices)
        if (notice.rule !== 'deploy-requirement') io.stderr.write(`notice: ${notice.text}\n`);
      for (const warning of inlineSecretWarnings(result.profiles))
        io.stderr.write(`${formatWarning(warning, result.profiles)}\n`);
      profiles = result.profiles;
    }
  } catch (error) {
    await demo?.stop();
    if (error instanceof LocalSecretsFileError) {
      io.stderr.write(
        `${error.problems.map((problem) => `tm local: ${error.file}: ${problem}`).join('\n')}\n`,
      );
      return undefined;
    }
    // A client-locations table or a definitions file that cannot be read: one line, as tm validate says it.
    if (error instanceof LocalDnsError || error instanceof DefinitionsLoadError) {
      io.stderr.write(`tm local: ${error.message}\n`);
      return undefined;
    }
    throw error;
  }
  return { demo, profiles, locations, secrets };
}

/** Keys (a terminal only): q or Ctrl-C stops; with the demo, 1/2/3 toggle its backends. */
function listenForKeys(
  stopRequest: StopRequest,
  demo: DemoBackends | undefined,
  faults: LocalFaults,
  log: (line: string) => void,
): void {
  if (!process.stdin.isTTY) return;
  emitKeypressEvents(process.stdin);
  process.stdin.setRawMode(true);
  process.stdin.on('keypress', (_text: string, key: { name?: string; ctrl?: boolean; sequence?: string }) => {
    if (key.ctrl === true && key.name === 'c') return stopRequest.request('Ctrl-C');
    if (key.name === 'q') return stopRequest.request('q');
    const backend = DEMO_BACKENDS.find((b) => b.key === key.sequence);
    if (backend !== undefined) demo?.toggle(backend.name);
    if (demo !== undefined && key.sequence === DEMO_OUTAGE_KEY) toggleOutage(faults, log);
  });
}

/** What runs where, and how to watch and steer it. */
function banner(
  stack: LocalStack,
  profiles: readonly Profile[],
  regions: readonly string[],
  timeScale: number,
  dataDirectory: string | undefined,
  page: GuardedHttpServer | undefined,
  demo: DemoBackends | undefined,
): string {
  const names = profiles.filter((p) => p.profileStatus === 'Enabled').map((p) => p.dnsConfig.fqdn);
  return [
    '',
    `traffic-manager local stack is running (time scale ${timeScale}: every interval, timeout and heartbeat × ${timeScale}).`,
    `  reconcile  every ${Math.round(stack.reconcileIntervalMs / 100) / 10} s: drift at owned names in the local Route 53 is repaired`,
    `  DNS        127.0.0.1:${stack.dnsPort} (UDP and TCP), authoritative for ${[...new Set(profiles.map((p) => p.dnsConfig.zoneName))].join(', ')}`,
    `  watch      watch -n1 dig @127.0.0.1 -p ${stack.dnsPort} ${names[0] ?? '<name>'} +short`,
    `  status     npx tm status${stack.dnsPort === DEFAULT_DNS_PORT ? '' : ` --dns-port ${stack.dnsPort}`}`,
    ...(page === undefined ? [] : [`  page       ${page.endpoint}/ (the live status page)`]),
    `  regions    ${regions.join(', ')} (one probe worker each)`,
    `  Route 53   ${stack.route53Endpoint} (local API: aws route53 list-hosted-zones-by-name --endpoint-url ${stack.route53Endpoint})`,
    `  DynamoDB   ${stack.dynamodbEndpoint} (table ${stack.tableName})`,
    `  table      ${describeTable(dataDirectory, stack.restored)}`,
    `  CloudWatch ${stack.cloudWatchEndpoint} (local API, every region: the votes' metrics and alarms the health checks follow)`,
    `  faults     npx tm fault inject route53-api|home-region|region:NAME${stack.dnsPort === DEFAULT_DNS_PORT ? '' : ` --dns-port ${stack.dnsPort}`}  (tm fault list, tm fault clear …)`,
    `  state      ${stateFilePath(stack.dnsPort)}`,
    ...(demo === undefined
      ? []
      : [
          '',
          `Demo: profile "shop" (Priority) over three backends on port ${demo.port}: ${DEMO_BACKENDS.map((b) => `${b.name} ${b.address}`).join(', ')}.`,
          `  Take a backend down or bring it back: press ${DEMO_BACKENDS.map((b) => `${b.key} (${b.name})`).join(', ')}`,
          `  or: ${demoControlCommand(demo.controlUrl, 'toggle', 'east')}   (also /down/NAME, /up/NAME)`,
          `  East is Degraded after 3 failed checks (tolerated 2) ≈ 6 s, and dig shows west; bring it back and east returns.`,
          `  Cut the Route 53 API and the home region (evaluator and table) together: press ${DEMO_OUTAGE_KEY} (again: restore both)`,
          `  or: ${DEMO_OUTAGE_FAULTS.map((fault) => `npx tm fault inject ${fault}${stack.dnsPort === DEFAULT_DNS_PORT ? '' : ` --dns-port ${stack.dnsPort}`}`).join(' && ')}`,
          `  No record change can be made then; failover goes on through Route 53's health checks (static failover).`,
        ]),
    '',
    process.stdin.isTTY ? 'Press q (or Ctrl-C) to stop everything.' : 'Ctrl-C stops everything.',
    '',
  ].join('\n');
}

/**
 * The demo's outage key: cuts the Route 53 API and the home region together, or — when either
 * is cut — restores both; one banner line says which.
 */
function toggleOutage(faults: LocalFaults, log: (line: string) => void): void {
  const cut = DEMO_OUTAGE_FAULTS.some((fault) => faults.isOn(fault));
  for (const fault of DEMO_OUTAGE_FAULTS) {
    if (cut) faults.clear(fault);
    else faults.inject(fault);
  }
  log(
    cut
      ? `DEMO: the Route 53 API and the home region are back (press ${DEMO_OUTAGE_KEY} to cut them again)`
      : `DEMO: the Route 53 API and the home region are CUT — no record change can be made; DNS follows Route 53's health checks (press ${DEMO_OUTAGE_KEY} to restore them)`,
  );
}
