/**
 * How often the zones are reconciled with what was published: the tick (every minute) writes a
 * RECONCILE item once per interval. Five minutes repairs drift within five minutes at a few
 * Route 53 reads per zone each time (docs/cost.md); the CDK prop `reconcileInterval` and
 * `tm local --reconcile-interval` change it.
 */
export const DEFAULT_RECONCILE_INTERVAL_MS = 5 * 60_000;
