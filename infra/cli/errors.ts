/** Errors of the `tm` CLI. */
import { TrafficManagerError } from '../../shared/errors.js';

export class CliError extends TrafficManagerError {
  override readonly name: string = 'CliError';
  readonly code: string = 'CLI';
}

/** A usage problem found after the flags were parsed: `tm` prints it with the usage hint and exits 2. */
export class UsageError extends CliError {
  override readonly name = 'UsageError';
  override readonly code = 'USAGE';
}
