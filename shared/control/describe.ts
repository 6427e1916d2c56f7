/** The words runtime controls appear with in reasons, `tm status` and history. */
import type { ControlAuthor, MonitorOverrideItem } from '../state/items.js';

/** `by alice at 2026-05-01T10:00:00.000Z: "kernel upgrade"` */
export function describeAuthor(set: ControlAuthor): string {
  const why = set.reason === undefined || set.reason === '' ? '' : `: ${JSON.stringify(set.reason)}`;
  return `by ${set.by} at ${new Date(set.at).toISOString()}${why}`;
}

/** `Degraded set by hand until 2026-05-01T10:30:00.000Z, by alice at …: "drain"` */
export function describeOverride(override: MonitorOverrideItem): string {
  return `${override.status} set by hand until ${new Date(override.until).toISOString()}, ${describeAuthor(override.set)}`;
}
