/**
 * Child process of the fleet benchmark: the fleet's backends on loopback. Every address of
 * `FLEET_ADDRESSES` listens on the same `count` ports: the live ones answer 200 `ok`, the
 * black-holed ones accept and never answer. Prints `{"ports":[…]}` once all listen.
 *
 *   node --import tsx test/bench/support/fleet-servers.ts <count>
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server } from 'node:net';
import { BLACK_HOLED_ADDRESSES, LIVE_ADDRESSES } from './fleet.js';

function liveServer(): HttpServer {
  const server = createHttpServer({ keepAliveTimeout: 1 }, (_req, res) => {
    res.writeHead(200, { 'content-length': '2' });
    res.end('ok');
  });
  server.maxConnections = 20_000;
  server.on('clientError', (_error, socket) => socket.destroy());
  return server;
}

/** Accepts and holds the connection until the prober gives up. */
function blackHoleServer(): Server {
  return createTcpServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('end', () => socket.destroy());
  });
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });
}

/** One port on every address: the first address picks it, the others follow (a clash retries). */
async function listenEverywhere(): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const servers: Server[] = [];
    try {
      const first = liveServer();
      servers.push(first);
      const port = await listen(first, LIVE_ADDRESSES[0]!, 0);
      for (const host of LIVE_ADDRESSES.slice(1)) {
        const server = liveServer();
        servers.push(server);
        await listen(server, host, port);
      }
      for (const host of BLACK_HOLED_ADDRESSES) {
        const server = blackHoleServer();
        servers.push(server);
        await listen(server, host, port);
      }
      return port;
    } catch (error) {
      for (const server of servers) server.close();
      if (attempt >= 5) throw error;
    }
  }
}

const count = Number(process.argv[2] ?? 4);
const ports: number[] = [];
for (let i = 0; i < count; i++) ports.push(await listenEverywhere());
process.stdout.write(`${JSON.stringify({ ports })}\n`);
