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
