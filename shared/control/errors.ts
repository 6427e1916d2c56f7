/** Errors of runtime control. Each has a stable `code`. */
export class ControlError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'ControlError';
    this.code = code;
  }
}

/** The profile or endpoint named is not deployed. */
export class UnknownControlTargetError extends ControlError {
  constructor(message: string) {
    super('UNKNOWN_TARGET', message);
    this.name = 'UnknownControlTargetError';
  }
}

/** The action does not apply to that endpoint (e.g. an override of a nested endpoint). */
export class InapplicableControlError extends ControlError {
  constructor(message: string) {
    super('INAPPLICABLE', message);
    this.name = 'InapplicableControlError';
  }
}
