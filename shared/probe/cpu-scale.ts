/**
 * The measured capacity of a shard: how much more (or less) CPU its rounds take than the
 * protocol constants predict (`roundCpuMs`), as one factor — the CPU scale. Each shard's
 * round handler measures its rounds and stores its smoothed scale (REGION#<region> /
 * CAPACITY#<shard>) when it moved materially; the probe tick sizes the region with the worst
 * fresh scale of its shards, growing at once and shrinking only with headroom, so the count
 * does not flap. Constants taken on one machine are wrong on another (Lambda's CPU is not a
 * laptop's); the measurement replaces them, and without one the constants are the prior.
 * docs/adr/0001-probe-cadence.md, "Shard size".
 */

/** Scales outside this range are taken as its bounds: a broken meter must not size a region to 0 or to 50 shards alone. */
export const CPU_SCALE_RANGE = { min: 0.5, max: 20 } as const;

/** Weight of the newest round in the smoothed scale (an exponentially weighted mean: ~5 rounds' memory). */
export const CPU_SCALE_WEIGHT = 0.3;

/** A stored scale is rewritten when the smoothed one moved by more than this fraction of it. */
const CPU_SCALE_CHANGE = 0.15;

/** An unchanged scale is rewritten this often, so a running shard's entry stays fresh. */
export const CPU_SCALE_REFRESH_MS = 20 * 60_000;

/**
 * The tick ignores entries older than this (a shard that stopped, or one the region no longer
 * runs): two refresh periods and some, so one lost write does not drop a running shard's.
 */
export const CPU_SCALE_MAX_AGE_MS = 45 * 60_000;

/**
 * Rounds the constants predict to take less CPU than this are not measured: their fixed costs
 * (a heartbeat, a write) dominate the ratio, and even at `CPU_SCALE_RANGE.max` they stay far
 * inside a round's budget.
 */
export const MIN_MEASURED_ROUND_CPU_MS = 25;

/** The tick shrinks a region only when the shards needed at this multiple of the scale are fewer. */
export const SHRINK_HEADROOM = 1.25;

/** One shard's stored scale (REGION#<region> / CAPACITY#<shard>). */
export interface CpuScaleReading {
  readonly shard: number;
  /** The split the shard ran under when it wrote this. */
  readonly shards: number;
  /** Measured round CPU over what the constants predict (`roundCpuMs`), smoothed over rounds. */
  readonly scale: number;
  /** Epoch ms of the write. */
  readonly at: number;
}

export function clampCpuScale(scale: number): number {
  if (Number.isNaN(scale)) return 1;
  return Math.min(CPU_SCALE_RANGE.max, Math.max(CPU_SCALE_RANGE.min, scale));
}

/**
 * The smoothed scale after a round that took `measuredMs` of CPU where the constants predict
 * `predictedMs`; `previous` unchanged when the round is too small to tell.
 */
export function nextCpuScale(
  previous: number | undefined,
  measuredMs: number,
  predictedMs: number,
): number | undefined {
  if (!(predictedMs >= MIN_MEASURED_ROUND_CPU_MS) || !(measuredMs >= 0)) return previous;
  const ratio = clampCpuScale(measuredMs / predictedMs);
  return previous === undefined ? ratio : previous + CPU_SCALE_WEIGHT * (ratio - previous);
}

/** True when `scale` should be written over `stored` at `now`: none yet, a material change, or a due refresh. */
export function isCpuScaleWriteDue(
  stored: Pick<CpuScaleReading, 'scale' | 'at'> | undefined,
  scale: number,
  now: number,
): boolean {
  if (stored === undefined) return true;
  if (Math.abs(scale - stored.scale) > CPU_SCALE_CHANGE * stored.scale) return true;
  return now - stored.at >= CPU_SCALE_REFRESH_MS;
}

/**
 * What a region is sized with: the worst of its shards' fresh entries (written within
 * `CPU_SCALE_MAX_AGE_MS`, by a shard below `maxShards`), clamped, and the split the latest
 * fresh entry was written under (the count a new tick container starts from); `undefined` when
 * none is fresh (the constants apply).
 */
export function regionCpuScale(readings: readonly CpuScaleReading[], now: number, maxShards: number) {
  let worst: number | undefined;
  let latest: CpuScaleReading | undefined;
  for (const reading of readings) {
    // Written the negated way, so an entry with a missing or non-numeric field never counts.
    if (!(now - reading.at <= CPU_SCALE_MAX_AGE_MS && reading.shard < maxShards)) continue;
    if (!Number.isFinite(reading.scale) || !Number.isInteger(reading.shards) || reading.shards < 1) continue;
    worst = Math.max(worst ?? -Infinity, clampCpuScale(reading.scale));
    if (latest === undefined || reading.at > latest.at) latest = reading;
  }
  return worst === undefined || latest === undefined ? undefined : { scale: worst, shards: latest.shards };
}

/**
 * The shard count with hysteresis: `needed(scale)` shards when that is more than `current`
 * (grow at once), `needed(scale × SHRINK_HEADROOM)` when even that is fewer (shrink with room
 * to spare), else `current`. Without a current count (a new tick container): `needed(scale)`.
 */
export function shardCountWithHysteresis(
  needed: (scale: number) => number,
  scale: number,
  current: number | undefined,
): number {
  const now = needed(scale);
  if (current === undefined || now > current) return now;
  const withHeadroom = needed(scale * SHRINK_HEADROOM);
  return withHeadroom < current ? withHeadroom : current;
}
