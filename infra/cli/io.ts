/** Where a command writes: process.stdout/stderr when run as `tm`, buffers in tests. */
export interface Output {
  write(text: string): unknown;
}

export interface Io {
  readonly stdout: Output;
  readonly stderr: Output;
}

/** Rows as columns two spaces apart, each cell padded to its column's width but a row's last (tm validate's summary, tm plan's records). */
export function alignColumns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(cell.length, widths[i] ?? 0)));
  return rows.map((row) =>
    row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join('  '),
  );
}
