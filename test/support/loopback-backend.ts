/**
 * A backend for a local-stack test: an HTTP server with the test's own handler on a loopback
 * address of its own (127.0.0.0/8 has room for one per test file) and a free port.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoopbackBackend {
  readonly port: number;
  close(): Promise<void>;
}

export async function startLoopbackBackend(
  address: string,
  handler: RequestListener,
): Promise<LoopbackBackend> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
