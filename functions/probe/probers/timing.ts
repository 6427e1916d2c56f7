/** Phase timings are kept to 0.01 ms: finer digits are noise from the event loop. */
export function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}

export function roundMsOrUndefined(ms: number | undefined): number | undefined {
  return ms === undefined ? undefined : roundMs(ms);
}
