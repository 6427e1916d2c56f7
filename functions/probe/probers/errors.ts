/**
 * Probers never throw; these errors only travel inside a probe, as the reason an
 * in-flight request or socket was torn down, so the teardown is told apart from a
 * network error. They are made once and reused: no stack trace per probe.
 */
import { TrafficManagerError } from '../../../shared/errors.js';

export class ProbeError extends TrafficManagerError {
  override readonly name: string = 'ProbeError';
  readonly code: string = 'PROBE';
}

/** The probe's one deadline (`timeoutMs`) passed. */
export class ProbeDeadlineError extends ProbeError {
  override readonly name = 'ProbeDeadlineError';
  override readonly code = 'PROBE_DEADLINE';
  constructor() {
    super('probe deadline reached');
  }
}

/** The probe has its answer (body complete or capped); the connection is no longer needed. */
export class ProbeFinishedError extends ProbeError {
  override readonly name = 'ProbeFinishedError';
  override readonly code = 'PROBE_FINISHED';
  constructor() {
    super('probe finished');
  }
}

export const PROBE_DEADLINE = new ProbeDeadlineError();
export const PROBE_FINISHED = new ProbeFinishedError();
