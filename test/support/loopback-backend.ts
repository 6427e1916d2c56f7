/**
 * A backend for a local-stack test: an HTTP server with the test's own handler on a loopback
 * address of its own (127.0.0.0/8 has room for one per test file) and a free port.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort } from '../../infra/local/dynamodb-local.js';

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

/** Backends on several loopback addresses and one port, each answering 200 while up and 503 while down. */
export interface SwitchableBackends {
  readonly port: number;
  setUp(address: string, up: boolean): void;
  close(): Promise<void>;
}

export async function startSwitchableBackends(addresses: readonly string[]): Promise<SwitchableBackends> {
  const up = new Map(addresses.map((address) => [address, true]));
  const port = await freePort();
  const servers = await Promise.all(
    addresses.map(async (address) => {
      const server = createServer((_req, res) =>
        res.writeHead(up.get(address) === true ? 200 : 503).end('ok'),
      );
      await new Promise<void>((resolve) => server.listen(port, address, resolve));
      return server;
    }),
  );
  return {
    port,
    setUp: (address, isUp) => up.set(address, isUp),
    close: async () => {
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}
