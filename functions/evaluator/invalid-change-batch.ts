/**
 * The reasons of a change batch Route 53 rejected, read from the error the SDK throws; undefined
 * for any other error. Route 53 answers a rejected batch in an `ErrorResponse` with code
 * `InvalidChangeBatch` and one `Message` listing every problem ("[first, second]"); the SDK's
 * `messages` list stays empty then. It used to answer with an `InvalidChangeBatch` root listing
 * `Messages` — which the SDK does not recognise (it throws `Unknown: UnknownError`, the list in
 * `Messages.Message`) — and a `Messages` list inside `Error` leaves the SDK's message `UnknownError`.
 * Only a rejected batch carries a `Messages` list, so every one of these shapes is one.
 */
export function rejectedBatchReasons(error: unknown): string[] | undefined {
  const e = error as
    { name?: unknown; message?: unknown; messages?: unknown; Messages?: { Message?: unknown } } | undefined;
  const listed = strings(e?.Messages?.Message);
  if (e?.name !== 'InvalidChangeBatch' && listed.length === 0) return undefined;
  const modelled = strings(e?.messages);
  if (modelled.length > 0) return modelled;
  if (listed.length > 0) return listed;
  return [String(e?.message)];
}

/** A string or a list of them (the SDK's XML parser gives one `Message` as a string). */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
