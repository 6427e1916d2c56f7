/**
 * The opt-in health settings a profile has in effect, in a few words each (for `tm validate`
 * and `tm plan`); empty when the profile judges exactly like Azure.
 */
import { describeExpectedBody } from '../probe/body-match.js';
import type { MonitorConfig } from './types.js';

export function healthSettingsOf(monitor: MonitorConfig): string[] {
  const settings: string[] = [];
  const successes = monitor.requiredSuccessesToRecover ?? 1;
  if (successes > 1) settings.push(`up again after ${successes} successes`);
  if (monitor.maxLatencyMs !== undefined) settings.push(`slow above ${monitor.maxLatencyMs} ms`);
  if (monitor.regionQuorum !== undefined) settings.push(`region quorum ${monitor.regionQuorum}`);
  const body = monitor.expectedBody;
  if (body !== undefined)
    settings.push(`body ${body.kind === 'substring' ? 'contains' : 'matches'} ${describeExpectedBody(body)}`);
  return settings;
}
