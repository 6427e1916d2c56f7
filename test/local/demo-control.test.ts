/**
 * The demo's control port: the documented curl line works; what a web page can send
 * (a GET from an <img>, a text/plain POST with an Origin, a POST without the header)
 * changes nothing.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_BACKENDS,
  demoControlCommand,
  startDemoBackends,
  type DemoBackends,
} from '../../infra/local/demo.js';
import { httpRequest, rawRequest } from '../support/raw-http.js';

const CURL = '/usr/bin/curl';
let demo: DemoBackends;
let port: number;
const changes: string[] = [];

beforeAll(async () => {
  demo = await startDemoBackends((name, up) => changes.push(`${name} ${up ? 'up' : 'down'}`));
  port = Number(new URL(demo.controlUrl).port);
});
afterAll(() => demo.stop());

/** Whether a backend is up, as a probe sees it: it answers 200 while up, 503 while down. */
async function isUp(name: string): Promise<boolean> {
  const address = DEMO_BACKENDS.find((b) => b.name === name)?.address;
  return (await fetch(`http://${address}:${demo.port}/`)).status === 200;
}

describe('the demo control port', () => {
  it.skipIf(!existsSync(CURL))('the curl line the banner and README show toggles a backend', async () => {
    const command = demoControlCommand(demo.controlUrl, 'toggle', 'east');
    // Run it as a user pastes it: through a shell.
    const { stdout } = await promisify(execFile)('/bin/sh', ['-c', `${command} --silent --show-error`]);
    expect(stdout).toBe('east is down\n');
    expect(await isUp('east')).toBe(false);
    await promisify(execFile)('/bin/sh', ['-c', `${command} --silent --show-error`]);
    expect(await isUp('east')).toBe(true);
    expect(changes).toEqual(['east down', 'east up']);
  });

  it.each([
    { name: 'a GET (what an <img> or a link sends)', request: () => httpRequest('GET', '/down/west', port) },
    {
      name: 'a text/plain POST from a page (Origin)',
      request: () =>
        httpRequest('POST', '/down/west', port, {
          'Content-Type': 'text/plain',
          Origin: 'http://evil.example',
          'X-TM-Control': '1',
        }),
    },
    {
      name: 'a form POST without the control header',
      request: () =>
        httpRequest('POST', '/down/west', port, { 'Content-Type': 'application/x-www-form-urlencoded' }),
    },
    {
      name: 'a POST with the header but a rebound Host name',
      request: () =>
        httpRequest('POST', '/down/west', port, { 'X-TM-Control': '1' }).replace(
          `Host: 127.0.0.1:${port}`,
          'Host: rebind.evil.example',
        ),
    },
  ])('$name is refused and changes nothing', async ({ request }) => {
    const reply = await rawRequest(port, request());
    expect(reply.status).toBeGreaterThanOrEqual(400);
    expect(reply.status).toBeLessThan(500);
    expect(await isUp('west')).toBe(true);
  });
});
