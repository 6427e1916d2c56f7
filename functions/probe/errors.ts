/** Errors of the probe function (the worker, its state store and its handlers). */
export class ProbeFunctionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProbeFunctionError';
  }
}

/** A round message on the queue that is not a round (wrong shape or values). */
export class InvalidRoundMessageError extends ProbeFunctionError {
  constructor(messageId: string, problem: string) {
    super(`round message ${messageId}: ${problem}`);
    this.name = 'InvalidRoundMessageError';
  }
}

/** The tick could not enqueue some of the minute's rounds. */
export class RoundEnqueueError extends ProbeFunctionError {
  constructor(failed: readonly string[]) {
    super(`could not enqueue rounds ${failed.join(', ')}`);
    this.name = 'RoundEnqueueError';
  }
}
