/** Where a command writes: process.stdout/stderr when run as `tm`, buffers in tests. */
export interface Output {
  write(text: string): unknown;
}

export interface Io {
  readonly stdout: Output;
  readonly stderr: Output;
}
