/** The members of `fields` that are set: one without a value (undefined, null) is left out, not kept as undefined. */
export function present<T extends object>(fields: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined && value !== null),
  ) as { [K in keyof T]?: NonNullable<T[K]> };
}
