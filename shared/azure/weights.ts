/**
 * Azure's endpoint weights (1–1000) → Route 53's (1–255) with the ratios kept: divided by
 * their greatest common divisor when that brings them within 255 (the same ratios exactly),
 * else scaled so the largest is 255 and rounded (at least 1), which moves each endpoint's
 * share of the traffic by a little — reported per endpoint.
 */
export const ROUTE53_MAX_WEIGHT = 255;
/** Azure's weight when none is written. */
const AZURE_DEFAULT_WEIGHT = 1;

/**
 * `written`: each endpoint's weight as written (`undefined`: not written, Azure's 1). Non-integers
 * are left for validation. `exact`: the ratios are kept exactly (no rounding).
 */
export function scaleWeights(written: readonly unknown[]) {
  const values = written.map((weight) => (weight === undefined ? AZURE_DEFAULT_WEIGHT : weight));
  const numbers = values.filter(
    (weight): weight is number => Number.isInteger(weight) && (weight as number) > 0,
  );
  const max = Math.max(0, ...numbers);
  if (numbers.length !== values.length || max <= ROUTE53_MAX_WEIGHT)
    return { changes: [], exact: true, divisor: undefined };
  const divisor = numbers.reduce(gcd);
  const exact = max / divisor <= ROUTE53_MAX_WEIGHT;
  const scaled = numbers.map((weight) =>
    exact ? weight / divisor : Math.max(1, Math.round((weight * ROUTE53_MAX_WEIGHT) / max)),
  );
  const totalBefore = numbers.reduce((a, b) => a + b, 0);
  const totalAfter = scaled.reduce((a, b) => a + b, 0);
  // Rounding moves every endpoint's share, also where its own weight stays: all are reported.
  const changes = numbers
    .map((from, index) => {
      const to = scaled[index] ?? from;
      // The endpoint's share of the traffic (all endpoints available) in Azure and here.
      return { index, from, to, shareBefore: from / totalBefore, shareAfter: to / totalAfter };
    })
    .filter((change) => !exact || change.from !== change.to);
  return { changes, exact, divisor: exact ? divisor : undefined };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
