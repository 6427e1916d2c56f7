/**
 * `tm validate FILE` — exit 0 and one summary line per profile on stdout, then each profile's
 * failover figures; exit 1 with every problem on stderr, one per line.
 */
import { healthSettingsOf } from '../../shared/profile/health-settings.js';
import type { Profile } from '../../shared/profile/types.js';
import { describeFigures, figuresOf, FIGURES_HEADING } from './figures.js';
import { alignColumns, type Io } from './io.js';
import { loadProfilesFor } from './load-profiles.js';
import { STATIC_HEADING, staticFailoverSection, staticFailoverWarnings } from './static-failover.js';

export async function run([file]: [string], _options: unknown, io: Io): Promise<number> {
  const profiles = await loadProfilesFor(
    'validate',
    file,
    io.stderr,
    (count) => `tm validate: ${file}: ${count} ${count === 1 ? 'problem' : 'problems'}`,
  );
  if (profiles === undefined) return 1;
  for (const line of staticFailoverWarnings(profiles)) io.stderr.write(`${line}\n`);
  // Per profile, its name and then how fast users move away and back, and the probe load.
  const figures = profiles.flatMap((profile) => [profile.name, ...describeFigures(figuresOf(profile), '  ')]);
  const lines = [...summarize(profiles), '', FIGURES_HEADING, ...figures];
  lines.push('', STATIC_HEADING, ...staticFailoverSection(profiles));
  io.stdout.write(lines.map((line) => `${line}\n`).join(''));
  return 0;
}

/** One aligned line per profile: name, method, DNS name, TTL, check (with its opt-in health settings), endpoints. */
export function summarize(profiles: readonly Profile[]): string[] {
  const rows = profiles.map((profile) => [
    profile.name,
    profile.trafficRoutingMethod,
    profile.dnsConfig.fqdn,
    `TTL ${profile.dnsConfig.ttl}`,
    describeCheck(profile),
    describeEndpoints(profile),
    ...(profile.profileStatus === 'Disabled' ? ['Disabled'] : []),
  ]);
  return alignColumns(rows).map((line) => line.trimEnd());
}

function describeCheck(profile: Profile): string {
  const monitor = profile.monitorConfig;
  const head = monitor.method === 'HEAD' ? 'HEAD ' : '';
  const settings = healthSettingsOf(monitor);
  const extra = settings.length === 0 ? '' : ` (${settings.join(', ')})`;
  return `${head}${monitor.protocol}:${monitor.port}${monitor.path ?? ''} every ${monitor.intervalInSeconds}s${extra}`;
}

function describeEndpoints(profile: Profile): string {
  const total = profile.endpoints.length;
  const nested = profile.endpoints.filter((endpoint) => endpoint.type === 'nested').length;
  const disabled = profile.endpoints.filter((endpoint) => endpoint.endpointStatus === 'Disabled').length;
  const notes = [
    ...(nested > 0 ? [`${nested} nested`] : []),
    ...(disabled > 0 ? [`${disabled} disabled`] : []),
  ];
  return `${total} ${total === 1 ? 'endpoint' : 'endpoints'}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
}
