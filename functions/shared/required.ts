import { MissingResponseFieldError } from './errors.js';

/**
 * A response field the AWS API always sends but the SDK types optional: its value, or
 * `MissingResponseFieldError` naming it (`field`, e.g. `ResourceRecordSet.Name`) when absent.
 */
export function required<T>(value: T | undefined, field: string): T {
  if (value === undefined) throw new MissingResponseFieldError(field);
  return value;
}
