/**
 * A farm of HTTPS targets served by Debian's nginx (`/usr/sbin/nginx`), for the probers bench
 * (`--nginx`): one nginx in the foreground (`daemon off;`, not root, so it never switches user),
 * listening on 127.0.0.1 only, on `ports` ports, with an ECDSA P-256 certificate made by
 * `openssl`. Its configuration, pid file, logs and temp paths live in a temp directory that
 * `stop()` removes. Each request answers a fixed `200 ok` and closes the connection.
 *
 * `tickets: true`: `ssl_session_tickets on` (nginx's default; no session cache). `false`:
 * `ssl_session_tickets off` and `ssl_session_cache off`, so that no session can be resumed.
 * The access log holds one character per request, `$ssl_session_reused` (`r` or `.`), so the
 * bench can say how many handshakes were resumptions.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const NGINX = '/usr/sbin/nginx';

export interface NginxFarm {
  readonly name: string;
  readonly ports: readonly number[];
  /** Handshakes since the last call: how many the server logged, and how many were resumed. */
  handshakesSince(): { readonly total: number; readonly resumed: number };
  stop(): Promise<void>;
}

export async function startNginxFarm(options: {
  readonly name: string;
  readonly tickets: boolean;
  readonly ports: number;
  readonly workers: number;
}): Promise<NginxFarm> {
  const directory = mkdtempSync(join(tmpdir(), `bench-nginx-${options.name}-`));
  const key = join(directory, 'key.pem');
  const cert = join(directory, 'cert.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '30',
      '-subj',
      '/CN=bench.example',
    ],
    { stdio: 'ignore' },
  );
  for (const path of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(directory, path));
  const ports = await freePorts(options.ports);
  const accessLog = join(directory, 'access.log');
  const config = join(directory, 'nginx.conf');
  writeFileSync(
    config,
    `daemon off;
worker_processes ${options.workers};
pid ${join(directory, 'nginx.pid')};
error_log ${join(directory, 'error.log')} warn;
events { worker_connections 4096; }
http {
  client_body_temp_path ${join(directory, 'body')};
  proxy_temp_path ${join(directory, 'proxy')};
  fastcgi_temp_path ${join(directory, 'fastcgi')};
  uwsgi_temp_path ${join(directory, 'uwsgi')};
  scgi_temp_path ${join(directory, 'scgi')};
  log_format reused '$ssl_session_reused';
  access_log ${accessLog} reused;
  keepalive_timeout 0;
  server {
${ports.map((port) => `    listen 127.0.0.1:${port} ssl backlog=4096;`).join('\n')}
    ssl_certificate ${cert};
    ssl_certificate_key ${key};
    ssl_session_tickets ${options.tickets ? 'on' : 'off'};
${options.tickets ? '' : '    ssl_session_cache off;\n'}    location / { default_type text/plain; return 200 'ok'; }
  }
}
`,
  );
  const child = spawn(NGINX, ['-p', directory, '-e', join(directory, 'error.log'), '-c', config], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await untilListening(child, ports, directory);
  } catch (error) {
    await stopProcess(child);
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  let offset = 0;
  return {
    name: options.name,
    ports,
    handshakesSince: () => {
      if (!existsSync(accessLog) || statSync(accessLog).size === offset) return { total: 0, resumed: 0 };
      const text = readFileSync(accessLog, 'latin1').slice(offset);
      offset += text.length;
      let resumed = 0;
      let total = 0;
      for (const line of text.split('\n')) {
        if (line === '') continue;
        total++;
        if (line === 'r') resumed++;
      }
      return { total, resumed };
    },
    stop: async () => {
      await stopProcess(child);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

async function untilListening(
  child: ChildProcess,
  ports: readonly number[],
  directory: string,
): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null || child.signalCode !== null) break;
    if (await reachable(ports[ports.length - 1] ?? 0)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const log = join(directory, 'error.log');
  throw new Error(`nginx did not start${existsSync(log) ? `: ${readFileSync(log, 'utf8')}` : ''}`);
}

/** `count` distinct free ports of 127.0.0.1 (held open together, then released). */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<net.Server>((resolve) => {
          const server = net.createServer().listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** SIGQUIT: nginx's graceful stop (its workers finish and exit, then the master). */
function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGQUIT');
  });
}
