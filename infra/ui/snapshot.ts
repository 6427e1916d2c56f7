/**
 * What the status page shows, read in one go: the status items and runtime controls (what
 * `tm status --json` prints), the recent transitions (what `tm history --json` prints, with
 * its text lines), and what DNS answers — asked of the local stack's DNS server, or against
 * AWS the records the evaluator last published (Route 53 is not asked).
 */
import { formatTransition } from '../../shared/history/view.js';
import type { RecordSet } from '../../shared/zone/record-set.js';
import { readTransitions } from '../cli/history.js';
import type { Stack } from '../cli/stack.js';
import { readStatus } from '../cli/status.js';
import { askDns, type RecordLine } from './dns-answers.js';

/** How far back the timeline goes, and how many transitions it holds at most. */
const TIMELINE_MS = 60 * 60_000;
const TIMELINE_LIMIT = 50;

export async function readSnapshot(stack: Stack) {
  const status = await readStatus(stack);
  const server = stack.dnsPort === undefined ? undefined : `127.0.0.1:${stack.dnsPort}`;
  // The profiles with a status are those with a history: their history is read beside the DNS questions.
  const [names, transitions] = await Promise.all([
    Promise.all(
      status.published.map(async ({ profile, name, records }) =>
        server === undefined
          ? { profile, name, records: records.map(publishedLine) }
          : { profile, name, ...(await askDns(server, name)) },
      ),
    ),
    readTransitions(
      stack,
      { since: TIMELINE_MS },
      status.profiles.map((p) => p.profile),
    ),
  ]);
  return {
    /** `the local stack (DNS port 5353)` or `table NAME in REGION`. */
    source: stack.description,
    /** ISO 8601. */
    readAt: new Date().toISOString(),
    profiles: status.profiles,
    controls: status.controls,
    /**
     * `from` — `server`: asked of the DNS server now; `published`: the records the evaluator last published.
     * `server` — `127.0.0.1:5353` when `from` is `server`.
     * Each name's `rcode` — with `from: server`: NOERROR, NXDOMAIN or the resolver's error.
     */
    dns:
      server === undefined
        ? { from: 'published' as const, names }
        : { from: 'server' as const, server, names },
    /** Newest first, the last hour, at most TIMELINE_LIMIT; `lines` as `tm history` prints them. */
    transitions: transitions
      .slice(0, TIMELINE_LIMIT)
      .map((transition) => ({ ...transition, lines: formatTransition(transition) })),
  };
}

/** `A 192.0.2.1` with its routing: `[east] weight 50`, `PRIMARY`, `ALIAS target`. */
function publishedLine(record: RecordSet): RecordLine {
  const policy = [
    record.setIdentifier === undefined ? undefined : `[${record.setIdentifier}]`,
    record.weight === undefined ? undefined : `weight ${record.weight}`,
    record.failover,
    record.region === undefined ? undefined : `latency ${record.region}`,
    record.geoLocation === undefined ? undefined : `geo ${Object.values(record.geoLocation).join('/')}`,
    record.cidrRoutingConfig === undefined ? undefined : `cidr ${record.cidrRoutingConfig.locationName}`,
  ].filter((part) => part !== undefined);
  return {
    type: record.type,
    values: record.aliasTarget === undefined ? record.values : [`ALIAS ${record.aliasTarget.dnsName}`],
    ...(policy.length === 0 ? {} : { policy: policy.join(' ') }),
  };
}
