/**
 * `tm local` serves DNS that people and tests rely on, and every listener answers its own
 * errors; a promise rejection nobody handled is then a bug to report, not a reason to take DNS
 * down. Node's default (since Node 15) ends the process on the first one.
 */
export function logUnhandledRejections(log: (line: string) => void): () => void {
  const handler = (reason: unknown) =>
    log(`internal error (tm local keeps running): ${(reason as Error)?.stack ?? String(reason)}`);
  process.on('unhandledRejection', handler);
  return () => process.off('unhandledRejection', handler);
}
