import { TrafficManagerError } from '../errors.js';

/** Errors of runtime control. */
export class ControlError extends TrafficManagerError {
  override readonly name: string = 'ControlError';
  readonly code: string = 'CONTROL';
}

/** The profile or endpoint named is not deployed. */
export class UnknownControlTargetError extends ControlError {
  override readonly name = 'UnknownControlTargetError';
  override readonly code = 'UNKNOWN_TARGET';
}

/** The action does not apply to that endpoint (e.g. an override of a nested endpoint). */
export class InapplicableControlError extends ControlError {
  override readonly name = 'InapplicableControlError';
  override readonly code = 'INAPPLICABLE';
}

/** Another command changed the same controls between this one's read and its write. */
export class ControlConflictError extends ControlError {
  override readonly name = 'ControlConflictError';
  override readonly code = 'CONFLICT';
}
