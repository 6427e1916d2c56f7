/**
 * `npm run soak` — the flapping soak (issue 23): a check, not a test of `npm test` (it is long).
 * It prints figures and exits 1 when DNS broke a rule (2 when it could not run).
 *
 * A whole local stack (DynamoDB Local, the local Route 53 and DNS server, the local CloudWatch,
 * three probe regions and the evaluator, time-scaled) serves a Priority profile, primary and
 * secondary, with `staticFailover` on (the default) and a monitor of interval 10 s, timeout 5 s,
 * toleratedNumberOfFailures 1, requiredSuccessesToRecover 2, TTL 5 s. The primary's loopback
 * backend flaps on a seeded random schedule: outages (answering 503, or hanging past the
 * timeout) and up-times, each short (too short for the rules to fail over, or to fail back),
 * medium (either may happen) or long (longer than the documented bound: the move must happen).
 * `dig` asks the local DNS server every 250 ms (a bounded count); afterwards every answer is
 * checked against the rules:
 *
 * Never early. A region says down after `tolerated + 1` failed checks in a row and up again
 * after `requiredSuccessesToRecover` good ones in a row; one region's consecutive checks are
 * between a shortest and a longest spacing apart: the interval × the time scale, ±10 %, widened
 * to what the checks arriving at the backend showed (`observedSpacing`). A check fails when it
 * arrives while the backend is down (a hung one only after the timeout, which only delays the
 * verdict). So a run of failed checks can end only at instants reachable by a chain of down
 * instants that far apart: an outage shorter than tolerated × the shortest spacing never fails
 * over, while a chain may jump an up-time shorter than the longest spacing that no check saw.
 * Likewise for good checks. A run is certain once a period has lasted `checks` × the longest
 * spacing + the timeout. Nothing is assumed about which region checked when: each run is
 * possible if any region could have made it. The verdict DNS follows (the regions' verdicts
 * taken together) is then one path in time: up at the start, turning down only where a failed
 * run may end and up only where a good run may end, down wherever down is certain and up
 * wherever up is. DNS answers it as of some time no later than the answer, later answers as of
 * later times (evaluations and their changes apply in order; a tolerance of the spread of one
 * round's checks across the regions). Each change of answer thus needs a turn of the path after
 * the previous turn, no later than the answer and before the opposite state became certain;
 * the earliest such turn is taken (the most lenient choice). An answer with none is early —
 * whatever the lag, so a late publish is never mistaken for an early one. (Details and the
 * interval arithmetic: test/soak/flapping-rules.ts.)
 *
 * Late only within the bound. Once the primary has been down without a break for longer than
 * the documented move-away time, DNS must not answer it; once up without a break for longer than
 * the come-back time, DNS must answer it. Today's path (the evaluator publishes): `failoverTime`
 * of shared/monitor/failover-time.ts, the checks and the timeout × the time scale (the local
 * stack scales them), publish (2 s batching window + Route 53's 60 s) and the TTL not (they are
 * real time here too), as test/local/static-failover-faults.ts's `todayAway`. The static path
 * (`--static-minutes`: the `home-region` fault on, the evaluator stopped, DNS following the
 * health checks of docs/adr/0011-static-failover.md "Failover time"): `staticFailoverTime`, every
 * part × the time scale (the local CloudWatch scales its periods and evaluation) but the TTL.
 * Both plus 5 s of slack for a loaded machine. An answer is judged from when its dig was sent
 * for lateness and from when it came back for earliness: both in DNS's favour.
 *
 * Flags: `--minutes N` (today's path, real minutes, default 10), `--static-minutes N` (a second
 * phase on the static path, default 0: none), `--seed N` (the schedule; phase 2 uses N + 1;
 * default: from the clock, printed), `--scale F` (time scale, default 0.1: a check every
 * second), `--verbose` (every flip and every DNS move; printed anyway when a rule was broken).
 * Network: loopback only (backends on 127.0.0.91/.92, dig to 127.0.0.1).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { freePort } from '../../infra/local/dynamodb-local.js';
import { startLocalStack, type LocalStack } from '../../infra/local/stack.js';
import { EVALUATOR_STREAM_SETTINGS } from '../../functions/evaluator/stream-settings.js';
import {
  GUARD_FLIP_SECONDS,
  failoverTime,
  staticFailoverTime,
  type Direction,
} from '../../shared/monitor/failover-time.js';
import { parseDefinitionsOrThrow } from '../support/parse-definitions.js';
import type { MonitorConfig, Profile } from '../../shared/profile/types.js';
import { profileDefinition } from '../support/profiles.js';
import { dig, digAvailable, seededRandom } from '../local/dns-fixtures.js';
import {
  checkLate,
  checkNeverEarly,
  movesOf,
  observedSpacing,
  ruleSets,
  s,
  type Answer,
  type Period,
  type PrimaryState,
  type RuleParameters,
  type Sample,
  type Violation,
} from './flapping-rules.js';

const { values: flags } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    'static-minutes': { type: 'string', default: '0' },
    seed: { type: 'string' },
    scale: { type: 'string', default: '0.1' },
    verbose: { type: 'boolean', default: false },
  },
});
const MINUTES = Number(flags.minutes);
const STATIC_MINUTES = Number(flags['static-minutes']);
const SEED = flags.seed === undefined ? Date.now() % 2 ** 31 : Number(flags.seed);
const SCALE = Number(flags.scale);
const VERBOSE = flags.verbose === true;
for (const [name, value] of Object.entries({
  minutes: MINUTES,
  'static-minutes': STATIC_MINUTES,
  seed: SEED,
  scale: SCALE,
}))
  if (!Number.isFinite(value) || value < 0 || (name === 'scale' && value === 0))
    throw new Error(`--${name} must be a non-negative number, got ${String(value)}`);

const PRIMARY = '127.0.0.91';
const SECONDARY = '127.0.0.92';
const NAME = 'shop.example.com';
const REGIONS = ['us-east-1', 'eu-west-1', 'ap-southeast-1'];
const TTL = 5;
const MONITOR = {
  intervalInSeconds: 10,
  timeoutInSeconds: 5,
  toleratedNumberOfFailures: 1,
  requiredSuccessesToRecover: 2,
} as const;
const SAMPLE_EVERY_MS = 250;
/** Added to each documented bound for a loaded machine (dig's own time, timers and event loop). */
const SLACK_MS = 5_000;
/** The spacing of one region's checks the rules assume at least: the interval ± this share. */
const SPACING_ALLOWANCE = 0.1;
/** A hung request is answered (503) after this, if the prober has not given up on it first. */
const HANG_MS = 10_000;

const intervalMs = MONITOR.intervalInSeconds * 1000 * SCALE;
const timeoutMs = MONITOR.timeoutInSeconds * 1000 * SCALE;
const abort = new AbortController();
/** Ends early once the soak is interrupted (Ctrl-C), so that it stops the stack at once. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => {
    if (abort.signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      abort.signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    abort.signal.addEventListener('abort', done);
  });
}

// ---------------------------------------------------------------------------------------------
// The backends: the secondary always up; the primary up, down (503) or hung, every check logged.

type DownMode = '503' | 'hang';

interface Backends {
  readonly port: number;
  /** Every request that reached the primary: when, and whether it was answered 200. */
  readonly arrivals: { readonly at: number; readonly ok: boolean }[];
  /** Every switch of the primary, first its start (up). */
  readonly flips: { readonly at: number; readonly state: PrimaryState; readonly mode?: DownMode }[];
  setPrimary(state: PrimaryState, mode?: DownMode): number;
  close(): Promise<void>;
}

async function startBackends(): Promise<Backends> {
  const port = await freePort();
  const flips: Backends['flips'] = [{ at: Date.now(), state: 'up' }];
  const arrivals: Backends['arrivals'] = [];
  const held = new Set<ServerResponse>();
  const primary = createServer((_req, res) => {
    const now = Date.now();
    const flip = flips.at(-1)!;
    arrivals.push({ at: now, ok: flip.state === 'up' });
    if (flip.state === 'up') res.writeHead(200).end('ok');
    else if (flip.mode === '503') res.writeHead(503).end('down');
    else {
      held.add(res);
      const timer = setTimeout(() => res.writeHead(503).end('hung'), HANG_MS);
      res.on('close', () => {
        clearTimeout(timer);
        held.delete(res);
      });
    }
  });
  const secondary = createServer((_req, res) => res.writeHead(200).end('ok'));
  const servers: Server[] = [primary, secondary];
  await new Promise<void>((resolve) => primary.listen(port, PRIMARY, resolve));
  await new Promise<void>((resolve) => secondary.listen(port, SECONDARY, resolve));
  return {
    port,
    arrivals,
    flips,
    setPrimary(state, mode) {
      const at = Date.now();
      flips.push(state === 'up' ? { at, state } : { at, state, mode: mode ?? '503' });
      return at;
    },
    async close() {
      for (const res of held) res.destroy();
      await Promise.all(
        servers.map(
          (server) =>
            new Promise((resolve) => {
              server.closeAllConnections();
              server.close(resolve);
            }),
        ),
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The schedule.

type Kind = 'short' | 'medium' | 'long';

interface PlannedPeriod {
  readonly state: PrimaryState;
  readonly kind: Kind;
  readonly mode: DownMode;
  readonly ms: number;
}

interface ScheduleLimits {
  /** Below this an outage (an up-time) cannot be detected (recovered from) whatever the checks. */
  readonly shortDownMaxMs: number;
  readonly shortUpMaxMs: number;
  readonly mediumMs: readonly [number, number];
  /** The documented bounds with their slack: a long period lasts 3–15 s longer. */
  readonly awayBoundMs: number;
  readonly backBoundMs: number;
}

/**
 * Outages and up-times alternating, from the seed: one long outage (starting somewhere in 20–60 %
 * of the phase) and one long up-time (40–80 %) when they fit, the others 45 % short and 55 %
 * medium. An outage hangs (instead of answering 503) one time in four. Ends with the primary up.
 */
function flapSchedule(random: () => number, totalMs: number, limits: ScheduleLimits): PlannedPeriod[] {
  const between = (lo: number, hi: number) => Math.round(lo + random() * (hi - lo));
  const longFrom = { down: between(0.2 * totalMs, 0.6 * totalMs), up: between(0.4 * totalMs, 0.8 * totalMs) };
  const longDone = { down: false, up: false };
  const out: PlannedPeriod[] = [];
  let used = 0;
  for (let state: PrimaryState = 'down'; used < totalMs; state = state === 'down' ? 'up' : 'down') {
    const shortMax = state === 'down' ? limits.shortDownMaxMs : limits.shortUpMaxMs;
    const longMs = between(3_000, 15_000) + (state === 'down' ? limits.awayBoundMs : limits.backBoundMs);
    let kind: Kind = random() < 0.45 && shortMax >= 100 ? 'short' : 'medium';
    if (!longDone[state] && used >= longFrom[state] && used + longMs <= totalMs) kind = 'long';
    const ms =
      kind === 'long'
        ? longMs
        : kind === 'short'
          ? between(100, shortMax)
          : between(limits.mediumMs[0], limits.mediumMs[1]);
    if (kind === 'long') longDone[state] = true;
    const mode: DownMode = random() < 0.25 ? 'hang' : '503';
    out.push({ state, kind, mode, ms: Math.min(ms, Math.max(100, totalMs - used)) });
    used += ms;
  }
  if (out.at(-1)?.state === 'down') out.push({ state: 'up', kind: 'medium', mode: '503', ms: 0 });
  return out;
}

// ---------------------------------------------------------------------------------------------
// One phase: flap and sample, then judge.

interface Bounds {
  readonly awayMs: number;
  readonly backMs: number;
  readonly awayFormula: string;
  readonly backFormula: string;
}

interface PhaseRun {
  readonly label: string;
  readonly startedAt: number;
  readonly endedAt: number;
  readonly periods: readonly (Period & { readonly kind: Kind | 'before'; readonly mode?: DownMode })[];
  readonly samples: readonly Sample[];
  readonly arrivals: readonly number[];
  readonly digCap: number;
  readonly eventsFrom: number;
  readonly eventsTo: number;
}

async function runPhase(
  label: string,
  seed: number,
  minutes: number,
  bounds: Bounds,
  stack: LocalStack,
  backends: Backends,
): Promise<PhaseRun> {
  const phaseMs = minutes * 60_000;
  const random = seededRandom(seed);
  const schedule = flapSchedule(random, phaseMs - 10_000, {
    shortDownMaxMs: 0.6 * MONITOR.toleratedNumberOfFailures * intervalMs,
    shortUpMaxMs: 0.6 * (MONITOR.requiredSuccessesToRecover - 1) * intervalMs,
    mediumMs: [1.2 * intervalMs, 20 * intervalMs],
    awayBoundMs: bounds.awayMs,
    backBoundMs: bounds.backMs,
  });
  const digCap = Math.ceil(phaseMs / SAMPLE_EVERY_MS) + 20;
  const eventsFrom = stack.events.length;
  const startedAt = Date.now();
  const endAt = startedAt + phaseMs;
  const flipsFrom = backends.flips.length - 1;
  const kinds: (Kind | 'before')[] = ['before'];
  const samples: Sample[] = [];

  const flap = async () => {
    for (const planned of schedule) {
      if (abort.signal.aborted || Date.now() >= endAt) break;
      backends.setPrimary(planned.state, planned.mode);
      kinds.push(planned.kind);
      await sleep(Math.min(planned.ms, endAt - Date.now()));
    }
    if (backends.flips.at(-1)!.state === 'down') {
      backends.setPrimary('up');
      kinds.push('medium');
    }
  };
  const sample = async () => {
    let next = Date.now();
    while (!abort.signal.aborted && samples.length < digCap && Date.now() < endAt) {
      const sentAt = Date.now();
      const result = await dig(stack.dnsPort, [NAME, 'A']).catch(() => undefined);
      const answeredAt = Date.now();
      const values = (result?.answers ?? []).filter((a) => a.type === 'A').map((a) => a.data);
      const only = values.length === 1 ? values[0] : undefined;
      const answer: Answer | undefined =
        only === PRIMARY ? 'primary' : only === SECONDARY ? 'secondary' : undefined;
      const unexpected =
        answer === undefined && values.length > 0
          ? `DNS answered ${values.join(', ')} (status ${result?.status})`
          : undefined;
      samples.push({ sentAt, answeredAt, answer, ...(unexpected === undefined ? {} : { unexpected }) });
      next = Math.max(next + SAMPLE_EVERY_MS, Date.now());
      await sleep(next - Date.now());
    }
  };
  await Promise.all([flap(), sample()]);
  const endedAt = Date.now();
  const flips = backends.flips.slice(flipsFrom).filter((f, i) => i === 0 || f.at <= endedAt);
  const periods = flips.map((flip, i) => ({
    state: flip.state,
    from: flip.at,
    to: flips[i + 1]?.at ?? endedAt,
    kind: kinds[i] ?? 'medium',
    ...(flip.mode === undefined ? {} : { mode: flip.mode }),
  }));
  const arrivals = backends.arrivals
    .filter((a) => a.at >= startedAt - 3 * intervalMs && a.at <= endedAt)
    .map((a) => a.at);
  return {
    label,
    startedAt,
    endedAt,
    periods,
    samples,
    arrivals,
    digCap,
    eventsFrom,
    eventsTo: stack.events.length,
  };
}

interface PhaseResult {
  readonly violations: readonly Violation[];
  readonly lines: readonly string[];
}

function judgePhase(run: PhaseRun, bounds: Bounds, stack: LocalStack): PhaseResult {
  const lines: string[] = [];
  const say = (line: string) => lines.push(line);
  const rel = (at: number) => `t=${((at - run.startedAt) / 1000).toFixed(1)} s`;
  const { periods, samples } = run;

  const observed = observedSpacing(run.arrivals, intervalMs, REGIONS.length);
  const rules: RuleParameters = {
    failuresToFail: MONITOR.toleratedNumberOfFailures + 1,
    successesToRecover: MONITOR.requiredSuccessesToRecover,
    minSpacingMs: Math.min(intervalMs * (1 - SPACING_ALLOWANCE), observed.min - 1),
    maxSpacingMs: Math.max(intervalMs * (1 + SPACING_ALLOWANCE), observed.max + 1),
    timeoutMs,
    clockEpsilonMs: 2,
  };
  const sets = ruleSets(periods, rules);
  /** The regions' checks of one round arrive this far apart: their verdicts may turn that far apart. */
  const toleranceMs = Math.max(50, observed.width + 5);
  const describe = (at: number) => {
    const i = periods.findLastIndex((p) => p.from <= at);
    const p = periods[i];
    if (p === undefined) return 'before the phase';
    const before = periods[i - 1];
    return `primary ${p.state} for ${s(at - p.from)} since ${rel(p.from)}${
      before === undefined ? '' : `, ${before.state} ${s(before.to - before.from)} before`
    }`;
  };
  const violations = [
    ...checkNeverEarly(samples, sets, periods[0]!.from, toleranceMs, describe),
    ...checkLate(samples, periods, bounds.awayMs, bounds.backMs),
  ].sort((a, b) => a.at - b.at);
  const moves = movesOf(samples, periods);

  const flapped = periods.slice(1);
  const count = (state: PrimaryState, kind: Kind) =>
    flapped.filter((p) => p.state === state && p.kind === kind).length;
  const outages = flapped.filter((p) => p.state === 'down');
  const hung = outages.filter((p) => p.mode === 'hang').length;
  const answered = samples.filter((x) => x.answer !== undefined);
  const failovers = moves.filter((m) => m.to === 'secondary');
  const failbacks = moves.filter((m) => m.to === 'primary');
  /**
   * A short period is isolated when the periods on either side of it lasted longer than the
   * longest spacing: no region's run of checks can reach across them, so only the short period
   * itself could move DNS, and it is too short to (a short one beside other short ones may well
   * take part in a legitimate move: two short up-times that each caught one good check).
   */
  const isolated = (i: number) =>
    [periods[i - 1], periods[i + 1]].every((q) => q === undefined || q.to - q.from > rules.maxSpacingMs);
  const movedAfter = (state: PrimaryState, onSecondaryOnly: boolean) => {
    const of = periods
      .map((p, i) => ({ p, i }))
      .filter(
        ({ p, i }) =>
          i > 0 &&
          p.state === state &&
          (!onSecondaryOnly ||
            samples.some((x) => x.answer === 'secondary' && x.sentAt >= p.from && x.sentAt <= p.to)),
      );
    const ratio = (list: typeof of) =>
      `${list.filter(({ i }) => moves.some((m) => m.period === i)).length}/${list.length}`;
    const short = of.filter(({ p }) => p.kind === 'short');
    return [
      `isolated short ${ratio(short.filter(({ i }) => isolated(i)))} (none allowed)`,
      `other short ${ratio(short.filter(({ i }) => !isolated(i)))}`,
      `medium ${ratio(of.filter(({ p }) => p.kind === 'medium'))}`,
      `long ${ratio(of.filter(({ p }) => p.kind === 'long'))}`,
    ].join(', ');
  };
  const events = stack.events
    .slice(run.eventsFrom, run.eventsTo)
    .filter((e) => e.profile === 'shop' && e.endpoint === 'primary');
  const delays = (list: typeof moves) =>
    list.map((m) => m.delayMs).filter((d): d is number => d !== undefined);
  const spread = (values: readonly number[], bound: number) => {
    if (values.length === 0) return 'none';
    const sorted = [...values].sort((a, b) => a - b);
    const worst = sorted.at(-1)!;
    const against = worst <= bound ? `${s(bound - worst)} to spare` : `${s(worst - bound)} LATE`;
    return `min ${s(sorted[0]!)}, median ${s(sorted[Math.floor((sorted.length - 1) / 2)]!)}, max ${s(worst)} (bound ${s(bound)}: ${against})`;
  };

  say(`== ${run.label} ==`);
  say(
    `  ran ${s(run.endedAt - run.startedAt)}; flaps (outages): ${outages.length} — short ${count('down', 'short')}, medium ${count('down', 'medium')}, long ${count('down', 'long')}; ${hung} hung, ${outages.length - hung} answering 503`,
  );
  say(
    `  up-times between: ${flapped.length - outages.length} — short ${count('up', 'short')}, medium ${count('up', 'medium')}, long ${count('up', 'long')}`,
  );
  say(
    `  checks at the primary: ${run.arrivals.length} in ${observed.clusters} rounds (${observed.uneven} rounds without exactly one check per region); one region's consecutive checks ${Math.round(observed.min)}–${Math.round(observed.max)} ms apart, a round's checks within ${Math.round(observed.width)} ms`,
  );
  say(
    `  rule: spacing ${Math.round(rules.minSpacingMs)}–${Math.round(rules.maxSpacingMs)} ms, tolerance ${Math.round(toleranceMs)} ms; a failover needs ${rules.failuresToFail} failed checks in a row (impossible for an outage under ${s((rules.failuresToFail - 1) * rules.minSpacingMs)}), a fail-back ${rules.successesToRecover} good ones (impossible for an up-time under ${s((rules.successesToRecover - 1) * rules.minSpacingMs)})`,
  );
  say(`  bound away: ${bounds.awayFormula}`);
  say(`  bound back: ${bounds.backFormula}`);
  say(
    `  samples: ${samples.length} of at most ${run.digCap} (primary ${answered.filter((x) => x.answer === 'primary').length}, secondary ${answered.filter((x) => x.answer === 'secondary').length}, no usable answer ${samples.length - answered.length})`,
  );
  say(
    `  failovers: ${failovers.length}; each counted from the latest outage before it: ${movedAfter('down', false)}`,
  );
  say(
    `  fail-backs: ${failbacks.length}; each counted from the latest up-time before it, of those with DNS on the secondary at some point: ${movedAfter('up', true)}`,
  );
  say(
    `  evaluator: primary Degraded ${events.filter((e) => e.to === 'Degraded').length}×, Online ${events.filter((e) => e.to === 'Online').length}×`,
  );
  say(
    `  failover delay (outage start → first sample on the secondary): ${spread(delays(failovers), bounds.awayMs)}`,
  );
  say(
    `  fail-back delay (up start → first sample on the primary): ${spread(delays(failbacks), bounds.backMs)}`,
  );
  const worstLate = (kind: 'away' | 'back') => {
    const bound = kind === 'away' ? bounds.awayMs : bounds.backMs;
    const state: PrimaryState = kind === 'away' ? 'down' : 'up';
    const wrong: Answer = kind === 'away' ? 'primary' : 'secondary';
    let worst = -Infinity;
    for (const x of samples) {
      if (x.answer !== wrong) continue;
      const p = periods.findLast((q) => q.from <= x.sentAt);
      if (p?.state === state) worst = Math.max(worst, x.sentAt - p.from);
    }
    return worst === -Infinity
      ? 'never'
      : `${s(worst)} (bound ${s(bound)}: ${worst <= bound ? `${s(bound - worst)} to spare` : `${s(worst - bound)} LATE`})`;
  };
  say(`  longest DNS kept answering a down primary: ${worstLate('away')}`);
  say(`  longest DNS kept answering the secondary with the primary up: ${worstLate('back')}`);
  say(`  violations: ${violations.length}`);
  for (const v of violations.slice(0, 40))
    say(
      `    ${rel(v.at)}${v.samples > 1 ? ` to ${rel(v.until)} (${v.samples} samples)` : ''} ${v.kind}: ${v.why}`,
    );
  if (violations.length > 40) say(`    … and ${violations.length - 40} more`);
  if (VERBOSE || violations.length > 0) {
    say('  timeline (flips; DNS moves):');
    const items = [
      ...periods.map((p) => ({
        at: p.from,
        text: `primary ${p.state}${p.mode === 'hang' ? ' (hung)' : ''} for ${s(p.to - p.from)} [${p.kind}]`,
      })),
      ...moves.map((m) => ({
        at: m.at,
        text: `  DNS → ${m.to}${m.delayMs === undefined ? '' : ` (${s(m.delayMs)} after the ${m.to === 'secondary' ? 'outage' : 'up-time'} began)`}`,
      })),
    ].sort((a, b) => a.at - b.at);
    for (const item of items) say(`    ${rel(item.at)} ${item.text}`);
  }
  return { violations, lines };
}

// ---------------------------------------------------------------------------------------------
// The bounds.

function todayBounds(monitor: MonitorConfig): Bounds {
  const figure = (direction: Direction) =>
    failoverTime(monitor, TTL, direction, {
      batchingWindowSeconds: EVALUATOR_STREAM_SETTINGS.maxBatchingWindowMs / 1000,
      timeScale: SCALE,
    });
  const away = figure('failing');
  const back = figure('recovering');
  return {
    awayMs: away.totalSeconds * 1000 + SLACK_MS,
    backMs: back.totalSeconds * 1000 + SLACK_MS,
    awayFormula: `${away.formula}, + ${s(SLACK_MS)} slack = ${s(away.totalSeconds * 1000 + SLACK_MS)}`,
    backFormula: `${back.formula}, + ${s(SLACK_MS)} slack = ${s(back.totalSeconds * 1000 + SLACK_MS)}`,
  };
}

function staticBounds(monitor: MonitorConfig): Bounds {
  const one = (direction: Direction) => {
    const figure = staticFailoverTime(monitor, TTL, direction);
    const ms = (figure.totalSeconds - TTL) * 1000 * SCALE + TTL * 1000 + SLACK_MS;
    return {
      ms,
      formula: `${figure.formula}; here all but the TTL × time scale ${SCALE}, + ${s(SLACK_MS)} slack = ${s(ms)}`,
    };
  };
  const away = one('failing');
  const back = one('recovering');
  return { awayMs: away.ms, backMs: back.ms, awayFormula: away.formula, backFormula: back.formula };
}

// ---------------------------------------------------------------------------------------------

async function answerOf(stack: LocalStack): Promise<Answer | undefined> {
  const result = await dig(stack.dnsPort, [NAME, 'A']).catch(() => undefined);
  const values = (result?.answers ?? []).filter((a) => a.type === 'A').map((a) => a.data);
  return values.join() === PRIMARY ? 'primary' : values.join() === SECONDARY ? 'secondary' : undefined;
}

async function waitForAnswer(stack: LocalStack, answer: Answer, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!abort.signal.aborted) {
    if ((await answerOf(stack)) === answer) return;
    if (Date.now() > deadline) throw new Error(`DNS did not answer the ${answer} within ${s(withinMs)}`);
    await sleep(SAMPLE_EVERY_MS);
  }
}

async function main(): Promise<number> {
  if (!digAvailable) {
    console.error('flapping soak: needs dig at /usr/bin/dig');
    return 2;
  }
  const began = Date.now();
  let stack: LocalStack | undefined;
  let backends: Backends | undefined;
  const stop = () => abort.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    backends = await startBackends();
    const profiles = parseDefinitionsOrThrow([
      profileDefinition({
        name: 'shop',
        dnsConfig: { ttl: TTL },
        monitorConfig: { port: backends.port, ...MONITOR },
        endpoints: [
          { name: 'primary', target: PRIMARY, priority: 1 },
          { name: 'secondary', target: SECONDARY, priority: 2 },
        ],
      }),
    ]);
    stack = await startLocalStack({
      profiles,
      dnsPort: 0,
      timeScale: SCALE,
      regions: REGIONS,
      log: (line) => console.error(`  [stack +${s(Date.now() - began)}] ${line}`),
    });
    const shop = stack.profiles.find((p) => p.name === 'shop') as Profile;
    console.info(
      `flapping soak: seed ${SEED}, time scale ${SCALE}, ${REGIONS.length} probe regions, staticFailover ${shop.staticFailover === false ? 'off' : 'on'}`,
    );
    console.info(
      `  monitor: interval ${MONITOR.intervalInSeconds} s, timeout ${MONITOR.timeoutInSeconds} s, tolerated ${MONITOR.toleratedNumberOfFailures}, requiredSuccessesToRecover ${MONITOR.requiredSuccessesToRecover}, TTL ${TTL} s: a check every ${intervalMs} ms, timeout ${timeoutMs} ms`,
    );
    await stack.published;
    await waitForAnswer(stack, 'primary', 60_000);
    await sleep(5 * intervalMs);

    const results: PhaseResult[] = [];
    /** Runs one phase, judges it against its bounds and prints the verdict. */
    const [live, farm] = [stack, backends];
    const phase = async (title: string, seed: number, minutes: number, bounds: Bounds) => {
      const run = await runPhase(title, seed, minutes, bounds, live, farm);
      results.push(judgePhase(run, bounds, live));
      console.info(results.at(-1)!.lines.join('\n'));
    };
    if (MINUTES > 0 && !abort.signal.aborted) {
      const bounds = todayBounds(shop.monitorConfig);
      await phase(`phase 1: today's path (the evaluator publishes), ${MINUTES} min`, SEED, MINUTES, bounds);
    }
    if (STATIC_MINUTES > 0 && !abort.signal.aborted) {
      const bounds = staticBounds(shop.monitorConfig);
      await waitForAnswer(stack, 'primary', todayBounds(shop.monitorConfig).backMs);
      await sleep(5 * intervalMs);
      stack.faults.inject('home-region');
      try {
        // The guard flips G after the evaluator stops publishing (ADR 0011, "Guard flip"); then the static path answers.
        await sleep(GUARD_FLIP_SECONDS * 1000 * SCALE + 10 * intervalMs);
        await phase(
          `phase 2: the static path (home-region fault on), ${STATIC_MINUTES} min`,
          SEED + 1,
          STATIC_MINUTES,
          bounds,
        );
      } finally {
        stack.faults.clear('home-region');
      }
    }
    if (abort.signal.aborted) {
      console.info('flapping soak: interrupted');
      return 2;
    }
    const total = results.reduce((sum, r) => sum + r.violations.length, 0);
    console.info(`flapping soak: ${total === 0 ? 'no violation' : `${total} violations`} (seed ${SEED})`);
    return total === 0 ? 0 : 1;
  } catch (error) {
    console.error(`flapping soak: could not run: ${(error as Error).stack ?? String(error)}`);
    return 2;
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    await stack?.stop().catch((e: unknown) => console.error(`stopping the stack: ${String(e)}`));
    await backends?.close().catch((e: unknown) => console.error(`closing the backends: ${String(e)}`));
  }
}

process.exitCode = await main();
