/**
 * The local stack's fault control endpoint (infra/local/faults.ts) on its own: each fault
 * turns its switch on and off once, faults combine, an unknown one names those there are, and
 * what a web page can send (no control header, an Origin, a rebound Host) changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalFaults, startFaultControl, type LocalFaults } from '../../infra/local/faults.js';
import type { GuardedHttpServer } from '../../infra/local/http-guard.js';
import { httpRequest, rawRequest } from '../support/raw-http.js';

const switched: string[] = [];
let faults: LocalFaults;
let control: GuardedHttpServer;

beforeAll(async () => {
  faults = createLocalFaults({
    regions: ['us-east-1', 'eu-west-1'],
    setRoute53ApiDown: (down) => switched.push(`route53 ${down}`),
    setHomeRegionDown: (down) => switched.push(`home ${down}`),
    setRegionStopped: (region, stopped) => switched.push(`${region} ${stopped}`),
  });
  control = await startFaultControl({
    faults,
    healthCheckStatus: (id) => (id === 'hc-1' ? 'Unhealthy' : undefined),
    config: () => ({ profiles: [{ name: 'shop' }], defaultProbeRegions: ['us-east-1', 'eu-west-1'] }),
  });
});
afterAll(() => control.stop());

const send = (method: string, path: string, headers: Record<string, string> = { 'X-TM-Control': '1' }) =>
  rawRequest(control.port, httpRequest(method, path, control.port, headers));

describe('the fault control endpoint', () => {
  it('injects and clears each fault once, combined, and lists the ones on', async () => {
    switched.length = 0;
    expect((await send('POST', '/faults/inject/home-region')).status).toBe(200);
    expect((await send('POST', '/faults/inject/region:eu-west-1')).status).toBe(200);
    const again = await send('POST', '/faults/inject/home-region');
    expect(JSON.parse(again.body)).toMatchObject({
      changed: false,
      faults: ['home-region', 'region:eu-west-1'],
    });
    expect(JSON.parse((await send('GET', '/faults')).body)).toEqual({
      faults: ['home-region', 'region:eu-west-1'],
    });
    await send('POST', '/faults/clear/home-region');
    await send('POST', '/faults/clear/region:eu-west-1');
    await send('POST', '/faults/clear/route53-api');
    expect(switched).toEqual(['home true', 'eu-west-1 true', 'home false', 'eu-west-1 false']);
    expect(faults.list()).toEqual([]);
  });

  it('an unknown fault is 400 naming the faults there are', async () => {
    const reply = await send('POST', '/faults/inject/dns');
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body)).toEqual({
      error: 'unknown fault "dns"; the faults: route53-api, home-region, region:us-east-1, region:eu-west-1',
    });
  });

  it('answers the data plane’s state of a health check, 404 for none', async () => {
    expect(JSON.parse((await send('GET', '/health-checks/hc-1/status')).body)).toEqual({
      id: 'hc-1',
      status: 'Unhealthy',
    });
    expect((await send('GET', '/health-checks/hc-2/status')).status).toBe(404);
  });

  it('answers the definitions it deployed, for tm endpoint when the home table refuses', async () => {
    expect(JSON.parse((await send('GET', '/config')).body)).toEqual({
      profiles: [{ name: 'shop' }],
      defaultProbeRegions: ['us-east-1', 'eu-west-1'],
    });
    expect((await send('GET', '/config', {})).status).toBe(403);
  });

  it.each<{ name: string; headers: Record<string, string> }>([
    { name: 'a POST without the control header', headers: {} },
    { name: 'a POST from a page (Origin)', headers: { 'X-TM-Control': '1', Origin: 'http://evil.example' } },
    {
      name: 'a browser request (Sec-Fetch-Mode)',
      headers: { 'X-TM-Control': '1', 'Sec-Fetch-Mode': 'cors' },
    },
  ])('$name is refused and changes nothing', async ({ headers }) => {
    switched.length = 0;
    const reply = await send('POST', '/faults/inject/route53-api', headers);
    expect(reply.status).toBe(403);
    expect(switched).toEqual([]);
  });

  it('a rebound Host name is refused', async () => {
    const request = httpRequest('POST', '/faults/inject/route53-api', control.port, {
      'X-TM-Control': '1',
    }).replace(`Host: 127.0.0.1:${control.port}`, 'Host: rebind.evil.example');
    expect((await rawRequest(control.port, request)).status).toBe(403);
    expect(faults.list()).toEqual([]);
  });
});
