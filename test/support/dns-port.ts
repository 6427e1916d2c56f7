/**
 * A DNS port a test names before `tm local` binds it: for a restart on the same port, or to
 * query the port before the stack is up. A port the kernel picked (`--dns-port 0`, freePort)
 * lies in its ephemeral range, so until tm binds it any socket another test opens without a
 * port can be given it ("DNS port … is already in use", seen on CI between a stack's SIGKILL and
 * its restart). A port below that range is never handed out that way: pick one there, free for
 * UDP and TCP on 127.0.0.1.
 */
import { createSocket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

const LOWEST = 20_000;

function ephemeralLow(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(low);
  } catch {
    return 32_768; // Linux's default; other systems start higher.
  }
}

function bindsUdp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    socket.once('error', () => resolve(false));
    socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
  });
}

function bindsTcp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export async function knownDnsPort(): Promise<number> {
  const high = ephemeralLow();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (high - LOWEST));
    if ((await bindsUdp(port)) && (await bindsTcp(port))) return port;
  }
  throw new Error(`no free port for UDP and TCP between ${LOWEST} and ${high} after 50 tries`);
}
