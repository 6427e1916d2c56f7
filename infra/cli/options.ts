/**
 * Option value parsers shared by the commands, so a flag means the same everywhere. Each
 * throws commander's InvalidArgumentError, which `tm` reports as a usage error (exit 2)
 * naming the flag and the value.
 */
import { InvalidArgumentError } from 'commander';

/** An integer in [min, max]. */
export function integer(min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isInteger(n) || n < min || n > max)
      throw new InvalidArgumentError(`must be an integer ${min}–${max}.`);
    return n;
  };
}

/** A number greater than 0. */
export function positiveNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !(n > 0) || !Number.isFinite(n))
    throw new InvalidArgumentError('must be a number greater than 0.');
  return n;
}

/**
 * A repeatable list flag: `--x a,b --x c` → ['a', 'b', 'c']. Use with a default of `[]`
 * (commander passes the previous value as the second argument).
 */
export function list(value: string, previous: readonly string[] = []): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  if (items.length === 0) throw new InvalidArgumentError('must name at least one item.');
  return [...previous, ...items];
}

const UNIT_MS: Readonly<Record<string, number>> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** A duration like `90s`, `30m`, `1h30m`, `2d` → milliseconds, at most `maxMs`. */
export function duration(maxMs: number): (value: string) => number {
  return (value) => {
    const text = value.trim().toLowerCase();
    if (!/^(\d+[smhd])+$/.test(text))
      throw new InvalidArgumentError('must be a duration such as 90s, 30m, 1h30m or 2d.');
    let ms = 0;
    for (const [, amount = '0', unit = 's'] of text.matchAll(/(\d+)([smhd])/g))
      ms += Number(amount) * (UNIT_MS[unit] ?? 0);
    if (ms <= 0 || ms > maxMs)
      throw new InvalidArgumentError(`must be more than 0 and at most ${maxMs / 86_400_000} days.`);
    return ms;
  };
}

/** One of `values`, matched case-insensitively; the canonical spelling is returned. */
export function oneOf<T extends string>(values: readonly T[]): (value: string) => T {
  return (value) => {
    const found = values.find((v) => v.toLowerCase() === value.trim().toLowerCase());
    if (found === undefined) throw new InvalidArgumentError(`must be one of ${values.join(', ')}.`);
    return found;
  };
}
