/**
 * The demo `npm start` runs: three HTTP backends on loopback addresses and a Priority
 * profile over them, plus a way to take each backend down and bring it back (a keypress
 * or a small control URL) — enough to watch failover and fail-back with `dig`.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { profileDefinition } from '../../shared/profile/profile-definition.js';
import { freePort } from './dynamodb-local.js';
import { DemoError } from './errors.js';
import { startGuardedHttpServer, type HttpReply } from './http-guard.js';

export const DEMO_BACKENDS = [
  { name: 'east', address: '127.0.0.11', key: '1' },
  { name: 'west', address: '127.0.0.12', key: '2' },
  { name: 'central', address: '127.0.0.13', key: '3' },
] as const;

/** The demo key that cuts the Route 53 API and the home region together (and, pressed again, restores both). */
export const DEMO_OUTAGE_KEY = 'f';
/** What that key injects: the two outages static failover is built for (infra/local/faults.ts). */
export const DEMO_OUTAGE_FAULTS = ['route53-api', 'home-region'] as const;

/** Demo default: probes every 2 s instead of 10 s, so a failover takes seconds. */
export const DEMO_TIME_SCALE = 0.2;

export function demoDefinitions(port: number): unknown[] {
  return [
    profileDefinition({
      name: 'shop',
      dnsConfig: { ttl: 5 },
      monitorConfig: { port, intervalInSeconds: 10, timeoutInSeconds: 5, toleratedNumberOfFailures: 2 },
      endpoints: DEMO_BACKENDS.map((b, i) => ({ name: b.name, target: b.address, priority: i + 1 })),
    }),
  ];
}

/**
 * The control port changes state, so a web page must not reach it: it takes `POST` with
 * this header only (a page cannot add a custom header cross-site without a CORS preflight,
 * which the guard refuses), and refuses anything with an Origin.
 */
export const DEMO_CONTROL_HEADER = 'X-TM-Control';
const DEMO_CONTROL_USAGE = `use: curl -X POST -H '${DEMO_CONTROL_HEADER}: 1' <control-url>/toggle/NAME   (or /down/NAME, /up/NAME)\n`;

/** The exact command the banner and the README show. */
export function demoControlCommand(controlUrl: string, action: string, name: string): string {
  return `curl -X POST -H '${DEMO_CONTROL_HEADER}: 1' ${controlUrl}/${action}/${name}`;
}

const text = (status: number, body: string): HttpReply => ({
  status,
  headers: { 'content-type': 'text/plain' },
  body,
});

export type DemoBackends = Awaited<ReturnType<typeof startDemoBackends>>;

export async function startDemoBackends(onChange: (name: string, up: boolean) => void) {
  const up = new Map<string, boolean>(DEMO_BACKENDS.map((b) => [b.name, true]));
  const servers: Server[] = [];

  let port = 0;
  for (let attempt = 0; attempt < 10 && servers.length < DEMO_BACKENDS.length; attempt++) {
    for (const server of servers.splice(0)) server.close();
    port = await freePort();
    try {
      for (const backend of DEMO_BACKENDS) {
        const server = createServer((req, res) => {
          const healthy = up.get(backend.name) === true;
          res.writeHead(healthy ? 200 : 503, { 'content-type': 'text/plain' });
          res.end(`${backend.name} ${healthy ? 'ok' : 'down'}\n`);
        });
        await once(server.listen(port, backend.address), 'listening');
        servers.push(server);
      }
    } catch {
      continue;
    }
  }
  if (servers.length < DEMO_BACKENDS.length)
    throw new DemoError('could not bind the demo backends on 127.0.0.11–13');

  const set = (name: string, value: boolean) => {
    if (!up.has(name)) return false;
    if (up.get(name) !== value) {
      up.set(name, value);
      onChange(name, value);
    }
    return true;
  };
  const control = await startGuardedHttpServer({
    caller: { header: DEMO_CONTROL_HEADER },
    handle: ({ method, url }) => {
      const [, action = '', name = ''] = url.pathname.split('/');
      const known = action === 'down' || action === 'up' || action === 'toggle';
      if (method !== 'POST' || !known || !up.has(name))
        return text(method !== 'POST' && known ? 405 : 404, DEMO_CONTROL_USAGE);
      set(name, action === 'toggle' ? !up.get(name) : action === 'up');
      return text(200, `${name} is ${up.get(name) ? 'up' : 'down'}\n`);
    },
    errorReply: (error) => text(error.status, `${error.message}\n${DEMO_CONTROL_USAGE}`),
  });

  return {
    port,
    controlUrl: control.endpoint,
    toggle: (name: string) => set(name, !up.get(name)),
    stop: async () => {
      await Promise.all([control.stop(), ...servers.map((s) => new Promise((resolve) => s.close(resolve)))]);
    },
  };
}
