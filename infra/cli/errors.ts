/** Errors of the `tm` CLI. */

/** A usage problem found after the flags were parsed: `tm` prints it with the usage hint and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}
