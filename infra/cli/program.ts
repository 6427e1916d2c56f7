/**
 * Every `tm` command, declared once with commander: its arguments, flags and help. The
 * implementation lives in its own module, loaded only when the command runs (so
 * `tm --help` does not load the AWS SDK or the local stack).
 *
 * Adding a command:
 *   1. Write `infra/cli/<name>.ts` exporting
 *        `run(args: string[], options: YourOptions, io: Io): Promise<number>`
 *      — `args` are the positional arguments in order, `options` the parsed flags
 *      (camelCase: `--dns-port` → `dnsPort`); write to `io.stdout` / `io.stderr`, return the
 *      exit code (0 ok, 1 failed). For a usage problem found after parsing, throw
 *      `UsageError` (exit 2 with the usage hint).
 *   2. Declare it below, in its group's `add…Commands`, with `command(parent, 'name')`:
 *      `.argument()`, `.option()` (value parsers in options.ts; `withStackOptions` for
 *      commands that read a running stack), `.action(runs(() => import('./<name>.js')))`. A
 *      group of subcommands (`tm endpoint disable …`) is a `command(program, 'endpoint')` with
 *      `command(endpoint, 'disable')`s.
 *   3. Add it to the command table in README.md and to docs/cli.md.
 * `--help`, unknown-flag errors (exit 2, with a "did you mean" hint) and the usage line come
 * from commander for free.
 */
import { Command, Option } from 'commander';
import packageJson from '../../package.json' with { type: 'json' };
import { UsageError } from './errors.js';
import type { Io } from './io.js';
import { HISTORY_RETENTION_DAYS } from '../../shared/state/items.js';
import { EndpointMonitorStatus } from '../../shared/status/vocabulary.js';
import { duration, integer, list, oneOf, positiveNumber } from './options.js';

const DAY_MS = 86_400_000;

type Run = (args: never, options: never, io: Io) => Promise<number>;

/** What a group of commands is declared with: buildProgram's `command` and `runs`. */
interface Declare {
  readonly command: (parent: Command, name: string) => Command;
  readonly runs: (load: () => Promise<{ run: Run }>) => (...received: unknown[]) => Promise<void>;
}

export function buildProgram(io: Io, setExitCode: (code: number) => void): Command {
  const program = withOutput(new Command('tm'), io)
    .description('traffic-manager: DNS failover with endpoint health monitoring, on AWS or on this machine')
    .version(packageJson.version, '-V, --version', 'print the version')
    .exitOverride()
    .showSuggestionAfterError(true);

  /** The action of a command whose implementation `load` imports. */
  const runs =
    (load: () => Promise<{ run: Run }>) =>
    async (...received: unknown[]): Promise<void> => {
      const command = received.at(-1) as Command;
      const args = (command.processedArgs as unknown[])
        .flat()
        .filter((arg): arg is string => typeof arg === 'string');
      const { run } = await load();
      try {
        setExitCode(await run(args as never, command.opts() as never, io));
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        command.error(error.message, { exitCode: 2, code: 'tm.usage' });
      }
    };

  const declare: Declare = { command, runs };
  addDefinitionsCommands(program, declare);
  addLocalCommand(program, declare);
  addStatusCommands(program, declare);
  addControlCommands(program, declare);
  addFaultCommands(program, declare);
  addImportCommands(program, declare);
  return program;

  /** A subcommand that reports usage errors as `tm <path>: …` plus a hint, to `io`. */
  function command(parent: Command, name: string): Command {
    return withOutput(parent.command(name), io);
  }
}

/** `tm validate`, `tm plan`: a definitions file, no stack. */
function addDefinitionsCommands(program: Command, { command, runs }: Declare): void {
  command(program, 'validate')
    .summary('check a definitions file; one line per profile, then its failover figures')
    .description(
      'Checks a definitions file (.ts, .js, .json or .yaml). Exit 0 with one summary line per profile, ' +
        "then each profile's worst-case failover times and probe load; exit 1 with every problem on stderr, " +
        'each naming profile, field, rule and value.',
    )
    .argument('<file>', 'the definitions file')
    .action(runs(() => import('./validate.js')));

  command(program, 'plan')
    .summary('the Route 53 record sets for given endpoint statuses (dry run)')
    .description(
      'The Route 53 record sets the evaluator would publish for those endpoint monitor statuses. ' +
        'Endpoints not named have no results yet (CheckingEndpoint). No AWS call.',
    )
    .argument('<file>', 'the definitions file')
    .option(
      '--status <profile/endpoint=STATUS,…>',
      'an endpoint monitor status: Online, Degraded, CheckingEndpoint or Disabled ("what if I disable it"); ' +
        'PROFILE=Disabled disables a whole profile; repeatable and comma-separated',
      list,
    )
    .option('--json', 'print { profiles, records, cidrCollections, figures } as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  tm plan examples/definitions.ts --status shop/east=Degraded\n' +
        '  tm plan examples/definitions.ts --status shop/east=Disabled,shop/west=Degraded --json\n',
    )
    .action(runs(() => import('./plan.js')));
}

function addLocalCommand(program: Command, { command, runs }: Declare): void {
  command(program, 'local')
    .summary('run the whole system on this machine (without FILE: the demo)')
    .description(
      'Runs DynamoDB Local, a local Route 53 API, probe workers per region, the evaluator and a DNS ' +
        'server on 127.0.0.1. Without FILE it runs a demo profile against demo backends it starts.',
    )
    .argument('[file]', 'the definitions file')
    .option(
      '--dns-port <port>',
      'the DNS server port (UDP and TCP); 0 picks a free one',
      integer(0, 65535),
      5353,
    )
    .option(
      '--time-scale <factor>',
      'multiply every duration (interval, timeout, heartbeat) by this (demo default: 0.2; else 1)',
      positiveNumber,
    )
    .option('--regions <a,b,c>', 'probe region names, one probe worker each', list)
    .option('--ui-port <port>', 'the status page port on 127.0.0.1; 0 picks a free one', integer(0, 65535), 0)
    .option(
      '--reconcile-interval <duration>',
      'how often the zones are compared with what was published and drift repaired, before the time scale (e.g. 5m, 90s)',
      duration(DAY_MS),
    )
    .option('--client-locations <file>', 'a JSON table mapping client subnets to country/continent/region')
    .option(
      '--fresh',
      'start with an empty table: forget the statuses, runtime controls and history kept from the last run on this DNS port',
    )
    .option(
      '--secrets <file>',
      'values of the secrets and parameters header references name (JSON or YAML:\n' +
        '{ secrets: { <secret ARN>: value }, parameters: { <name>: value } }), held by the local Secrets Manager and SSM',
    )
    .action(runs(() => import('./local.js')));
}

/** `tm status`, `tm history`, `tm ui`: what a stack's monitoring found. */
function addStatusCommands(program: Command, { command, runs }: Declare): void {
  withStackOptions(command(program, 'status'))
    .summary('monitor status of every profile and endpoint, with per-region votes')
    .option('--profile <name>', 'only this profile')
    .option('--json', 'print { profiles, controls, zones, dataPlane } as JSON')
    .action(runs(() => import('./status.js')));

  withStackOptions(command(program, 'history'))
    .summary('the status transitions recorded, newest first, with reason, votes, DNS changes and timing')
    .option('--profile <name>', 'only this profile')
    .option('--endpoint <name>', 'only this endpoint (profile-level changes are left out)')
    .option(
      '--since <duration>',
      `only transitions in this last while, e.g. 1h, 30m, 2d (history is kept ${HISTORY_RETENTION_DAYS} days)`,
      duration(HISTORY_RETENTION_DAYS * DAY_MS),
    )
    .option('--json', 'print { transitions } as JSON')
    .action(runs(() => import('./history.js')));

  withStackOptions(command(program, 'ui'))
    .summary('serve the live status page on 127.0.0.1 (statuses, votes, overrides, DNS, timeline)')
    .description(
      'Serves a status page on 127.0.0.1 for the running local stack (DNS answers asked of its DNS ' +
        'server) or, with --table, for a deployment (the records the evaluator published); it updates ' +
        'twice a second. Ctrl-C stops.',
    )
    .option('--port <port>', 'the page port on 127.0.0.1; 0 picks a free one', integer(0, 65535), 0)
    .action(runs(() => import('./ui.js')));
}

/** `tm endpoint …`, `tm profile …`: runtime control. */
function addControlCommands(program: Command, { command, runs }: Declare): void {
  const controls = () => import('./control.js');
  const reason = '--reason <text>';
  const endpoint = command(program, 'endpoint').summary(
    'runtime control of an endpoint: disable, enable, override its monitor status, clear',
  );
  endpoint.description(
    'Runtime control without a deploy, recorded in the table beside the deployed definitions (a later ' +
      'deploy does not undo it) with who set it and why, and published by the evaluator within seconds. ' +
      "While the home region or Route 53's API is down, disable, override, enable and clear also write " +
      "through the probe regions' CloudWatch, which static failover's health checks follow (docs/cli.md).",
  );
  withDataPlaneOptions(command(endpoint, 'disable'))
    .summary('take an endpoint out: not probed, never in DNS answers')
    .argument('<profile/endpoint>')
    .option(reason, 'why (shown by tm status and in history)')
    .action(runs(() => controls().then((m) => ({ run: m.disableEndpoint }))));
  withDataPlaneOptions(command(endpoint, 'enable'))
    .summary('put it back: CheckingEndpoint until checks made from now on decide')
    .argument('<profile/endpoint>')
    .option(reason, 'why (shown by tm status and in history)')
    .action(runs(() => controls().then((m) => ({ run: m.enableEndpoint }))));
  withDataPlaneOptions(command(endpoint, 'override'))
    .summary('set its monitor status by hand for a while (maintenance, drain); expires by itself')
    .argument('<profile/endpoint>')
    .requiredOption(
      '--status <status>',
      'Online or Degraded',
      oneOf([EndpointMonitorStatus.Online, EndpointMonitorStatus.Degraded] as const),
    )
    .requiredOption('--for <duration>', 'how long, e.g. 30m, 2h, 1d (at most 30 days)', duration(30 * DAY_MS))
    .requiredOption(reason, 'why (shown by tm status and in history)')
    .action(runs(() => controls().then((m) => ({ run: m.overrideEndpoint }))));
  withDataPlaneOptions(command(endpoint, 'clear'))
    .summary('remove its override and runtime status: the deployed definitions decide again')
    .argument('<profile/endpoint>')
    .option(reason, 'why (shown by tm status and in history)')
    .action(runs(() => controls().then((m) => ({ run: m.clearEndpoint }))));

  const profile = command(program, 'profile').summary('runtime control of a whole profile: disable, enable');
  withStackOptions(command(profile, 'disable'))
    .summary('nothing probed, no endpoint in DNS: the name answers NXDOMAIN')
    .argument('<profile>')
    .option(reason, 'why (shown by tm status and in history)')
    .action(runs(() => controls().then((m) => ({ run: m.disableProfile }))));
  withStackOptions(command(profile, 'enable'))
    .summary('put it back: its endpoints are CheckingEndpoint until checks made from now on decide')
    .argument('<profile>')
    .option(reason, 'why (shown by tm status and in history)')
    .action(runs(() => controls().then((m) => ({ run: m.enableProfile }))));
}

function addFaultCommands(program: Command, { command, runs }: Declare): void {
  const faults = () => import('./fault.js');
  const fault = command(program, 'fault').summary(
    'put an outage into the running local stack: route53-api, home-region, region:NAME',
  );
  fault.description(
    'The outages static failover is built for, in the running local stack: route53-api (every local Route 53 ' +
      'API call answers 503; DNS and health checks go on), home-region (the evaluator stops and the home table ' +
      'refuses the probes), region:NAME (that probe region probes, writes and publishes nothing). Faults combine.',
  );
  const faultCommand = (name: string) =>
    withDnsPortOption(command(fault, name)).option('--json', 'print the answer as JSON');
  faultCommand('inject')
    .summary('inject a fault: route53-api, home-region or region:NAME')
    .argument('<fault>', 'route53-api, home-region or region:NAME')
    .action(runs(() => faults().then((m) => ({ run: m.inject }))));
  faultCommand('clear')
    .summary('clear a fault: what it stopped runs again')
    .argument('<fault>', 'route53-api, home-region or region:NAME')
    .action(runs(() => faults().then((m) => ({ run: m.clear }))));
  faultCommand('list')
    .summary('the faults injected')
    .action(runs(() => faults().then((m) => ({ run: m.list }))));
}

function addImportCommands(program: Command, { command, runs }: Declare): void {
  const imports = command(program, 'import').summary("turn another service's configuration into definitions");
  command(imports, 'azure')
    .summary('Azure Traffic Manager profiles (ARM templates, parameters files, az JSON) → a definitions file')
    .description(
      'Reads ARM templates (and Bicep compiled to them), parameters files and the JSON of ' +
        '"az network traffic-manager profile show" / "list", and writes a definitions file that tm validate ' +
        'accepts: YAML on stdout, or -o OUT.yaml|.json|.ts. Every field Route 53 cannot carry as it is ' +
        '(weights above 255, Azure-only geographic codes, Azure regions, resource endpoints…) is reported on ' +
        'stderr; what cannot be imported at all is an error (exit 1, nothing written).',
    )
    .argument('<file...>', 'ARM templates, parameters files, az profile show/list JSON')
    .option('-o, --output <file>', 'write the definitions here (.yaml, .yml, .json or .ts) instead of stdout')
    .requiredOption(
      '--zone <zone>',
      'the Route 53 zone you own that the profile names go under, e.g. example.com',
    )
    .requiredOption(
      '--hosted-zone-id <id>',
      "that zone's Route 53 hosted zone id, e.g. Z0123456789ABCDEFGHIJ",
    )
    .option(
      '--target <RESOURCE_ID=HOST>',
      'the host name of an Azure resource an azureEndpoints endpoint names (targetResourceId); repeatable',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addHelpText(
      'after',
      '\nExamples:\n  tm import azure azuredeploy.json azuredeploy.parameters.json --zone example.com --hosted-zone-id Z0123 -o tm.yaml\n' +
        '  az network traffic-manager profile list -g rg > profiles.json && tm import azure profiles.json --zone example.com --hosted-zone-id Z0123\n',
    )
    .action(runs(() => import('./import-azure.js')));
}

/** Writes to `io`; errors read `tm <path>: …` followed by a hint. */
function withOutput(command: Command, io: Io): Command {
  const path = commandPath(command);
  return command
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      outputError: (text, write) => write(`${path}: ${text.replace(/^error: /, '')}`),
    })
    .showHelpAfterError(`(${path} --help shows the usage)`);
}

/** `tm endpoint …`: the stack, and how to steer through the probe regions' CloudWatch (infra/cli/data-plane-steering.ts). */
function withDataPlaneOptions(command: Command): Command {
  return withStackOptions(command)
    .option(
      '--data-plane',
      "also write it into the probe regions' CloudWatch now (done by itself when the table is unreachable or the evaluator cannot publish to Route 53)",
    )
    .option(
      '--definitions <file>',
      "the deployment's definitions, to steer by while its table is unreachable",
    )
    .option('--probe-regions <a,b,c>', "the deployment's probe regions, with --definitions", list);
}

/**
 * `--dns-port`, `--table`, `--region`: which stack a command reads or changes — the running
 * local stack by default, or AWS (see stack.ts).
 */
function withStackOptions(command: Command): Command {
  return withDnsPortOption(command)
    .addOption(
      new Option('--table <name>', 'the AWS DynamoDB table of a deployment (instead of the local stack)').env(
        'TM_TABLE_NAME',
      ),
    )
    .option('--region <region>', 'the AWS region of --table (default: the AWS SDK configuration)');
}

/** `--dns-port`: which running local stack, when several run. */
function withDnsPortOption(command: Command): Command {
  return command.option(
    '--dns-port <port>',
    'the local stack serving DNS on this port (when several run)',
    integer(1, 65535),
  );
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
