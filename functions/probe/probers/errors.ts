/**
 * Probers never throw; these errors only travel inside a probe, as the reason an
 * in-flight request or socket was torn down, so the teardown is told apart from a
 * network error. They are made once and reused: no stack trace per probe.
 */
export class ProbeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProbeError';
  }
}

/** The probe's one deadline (`timeoutMs`) passed. */
export class ProbeDeadlineError extends ProbeError {
  constructor() {
    super('probe deadline reached');
    this.name = 'ProbeDeadlineError';
  }
}

/** The probe has its answer (body complete or capped); the connection is no longer needed. */
export class ProbeFinishedError extends ProbeError {
  constructor() {
    super('probe finished');
    this.name = 'ProbeFinishedError';
  }
}

export const PROBE_DEADLINE = new ProbeDeadlineError();
export const PROBE_FINISHED = new ProbeFinishedError();
