/**
 * The status page in a real headless browser (Debian's chromium driven by puppeteer-core)
 * against a running `tm local FILE --ui-port 0`: it renders every endpoint with its votes and
 * the DNS server's answer; a failover — a backend stopped — shows on the page within 2 s of
 * the status change (measured from the moment the status item is written — right after Route
 * 53 accepted the change — to the page showing it; the time from the decision is printed too); the same page from `tm ui --table --region` against the
 * stack's DynamoDB Local shows the records the evaluator published; the backend back, the
 * recovery is timed from the first passing check. It saves a screenshot
 * under test-results/ (git-ignored).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/dynamodb-local.js';
import { ROOT } from '../support/tm.js';
import { startTm, type TmProcess } from '../support/tm-process.js';
import { compiledTm } from '../support/compiled-tm.js';

const CHROMIUM = '/usr/bin/chromium';
const PRIMARY = '127.0.0.51';
const SECONDARY = '127.0.0.52';
/** An inline header value: it is in the table's definitions, and must never reach the page. */
const HEADER_VALUE = 'inline-probe-token-5f0c2a';
const ENDPOINTS = ['app/primary', 'app/secondary', 'web/a', 'web/b'];
/** The page must show a status change this soon after the evaluator decided it. */
const SHOWN_WITHIN_MS = 2_000;
const SCREENSHOT = join(ROOT, 'test-results', 'status-page.png');

let dir = '';
let tm: TmProcess | undefined;
let pageUrl = '';
/** The backends' port (both addresses); the recovery test starts the primary again on it. */
let backendPort = 0;
let browser: Browser | undefined;
let page: Page;
const servers: Server[] = [];
const pageProblems: string[] = [];

/** The page's DOM as the functions run in the browser use it (this project compiles without the DOM lib). */
interface DomNode {
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomNode | null;
  querySelectorAll(selector: string): Iterable<DomNode>;
}
declare const document: DomNode;

interface Snapshot {
  profiles: { profile: string; endpoints: { endpoint: string; status: string; since: number }[] }[];
}

/** Waits in the page until `[data-endpoint=…] [data-status]` reads `status`; returns the page's clock then. */
async function shownAt(endpoint: string, status: string, timeoutMs: number): Promise<number> {
  const handle = await page.waitForFunction(
    (selector: string, wanted: string) =>
      document.querySelector(selector)?.getAttribute('data-status') === wanted ? Date.now() : false,
    { polling: 'mutation', timeout: timeoutMs },
    `[data-endpoint="${endpoint}"] [data-status]`,
    status,
  );
  return (await handle.jsonValue()) as number;
}

const text = (selector: string) => page.$eval(selector, (node) => node.textContent ?? '');

describe.skipIf(!existsSync(CHROMIUM) && process.env.CI === undefined)(
  'the status page in a headless browser',
  { timeout: 180_000 },
  () => {
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'tm-ui-'));
      backendPort = await freePort();
      const port = backendPort;
      for (const address of [PRIMARY, SECONDARY]) {
        const server = createServer((_request, response) => response.writeHead(200).end('ok'));
        await new Promise<void>((resolve) => server.listen(port, address, resolve));
        servers.push(server);
      }
      const monitorConfig = {
        protocol: 'HTTP',
        port,
        path: '/health',
        intervalInSeconds: 10,
        timeoutInSeconds: 5,
        customHeaders: [{ name: 'X-Probe-Token', value: HEADER_VALUE }],
      };
      const file = join(dir, 'definitions.json');
      await writeFile(
        file,
        JSON.stringify([
          {
            name: 'app',
            // The page shows the records the evaluator published at the name: today's path.
            staticFailover: false,
            trafficRoutingMethod: 'Priority',
            dnsConfig: { zoneName: 'example.com', relativeName: 'app', ttl: 1 },
            monitorConfig,
            endpoints: [
              { name: 'primary', target: PRIMARY },
              { name: 'secondary', target: SECONDARY },
            ],
          },
          {
            name: 'web',
            staticFailover: false,
            trafficRoutingMethod: 'Weighted',
            dnsConfig: { zoneName: 'example.com', relativeName: 'web', ttl: 1 },
            monitorConfig,
            endpoints: [
              { name: 'a', target: PRIMARY, weight: 1 },
              { name: 'b', target: SECONDARY, weight: 1 },
            ],
          },
        ]),
      );
      tm = await startTm([file, '--dns-port', '0', '--time-scale', '0.2', '--ui-port', '0'], {
        stateDir: dir,
      });
      pageUrl = (await tm.waitFor(/page {7}(http:\/\/127\.0\.0\.1:\d+\/)/))[1] ?? '';
      browser = await puppeteer.launch({
        executablePath: CHROMIUM,
        headless: true,
        userDataDir: await mkdtemp(join(dir, 'chromium-')),
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
      page = await browser.newPage();
      await page.setViewport({ width: 1200, height: 900 });
      // A Content-Security-Policy violation or a script error is a console error or a page error.
      page.on('console', (message) => {
        if (message.type() === 'error') pageProblems.push(message.text());
      });
      page.on('pageerror', (error) => pageProblems.push(String(error)));
    }, 180_000);

    afterAll(async () => {
      await browser?.close();
      if (tm !== undefined && tm.child.exitCode === null) {
        tm.child.kill('SIGTERM');
        await tm.exited;
      }
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      await rm(dir, { recursive: true, force: true });
    });

    it('renders every endpoint with its status, each region’s vote, and what the DNS server answers', async () => {
      await page.goto(pageUrl);
      for (const endpoint of ENDPOINTS) await shownAt(endpoint, 'Online', 90_000);
      const rows = await page.$$eval('[data-endpoint]', (nodes) =>
        nodes.map((n) => n.getAttribute('data-endpoint')),
      );
      expect(rows).toEqual(ENDPOINTS);
      const votes = await page.$$eval('[data-endpoint="app/primary"] .vote', (nodes) =>
        nodes.map((n) => n.textContent),
      );
      expect(votes).toEqual([
        expect.stringMatching(/^us-east-1 up \d+ms$/),
        expect.stringMatching(/^eu-west-1 up \d+ms$/),
        expect.stringMatching(/^ap-southeast-1 up \d+ms$/),
      ]);
      expect(await text('#source')).toMatch(
        new RegExp(
          `^the local stack \\(DNS port ${tm?.dnsPort}\\) — DNS: what the DNS server 127\\.0\\.0\\.1:${tm?.dnsPort} answers now$`,
        ),
      );
      await page.waitForFunction(
        (wanted: string) =>
          document.querySelector('[data-dns="app.example.com"]')?.textContent?.includes(wanted),
        { timeout: 10_000 },
        `app.example.com → A ${PRIMARY}`,
      );
    });

    it('a failover shows on the page within 2 s of the status change, with its timeline', async () => {
      const [primary] = servers;
      primary?.closeAllConnections();
      await new Promise((resolve) => primary?.close(resolve));
      const seenAt = await shownAt('app/primary', 'Degraded', 60_000);
      const snapshot = (await (await fetch(`${pageUrl}status.json`)).json()) as Snapshot;
      const since = snapshot.profiles
        .find((p) => p.profile === 'app')
        ?.endpoints.find((e) => e.endpoint === 'primary');
      expect(since?.status).toBe('Degraded');
      const shownMs = seenAt - (since?.since ?? 0);

      // DNS answers the secondary now; the transition is on the timeline, drawn with its timing bars.
      await page.waitForFunction(
        (wanted: string) =>
          document.querySelector('[data-dns="app.example.com"]')?.textContent?.includes(wanted),
        { timeout: 10_000 },
        `app.example.com → A ${SECONDARY}`,
      );
      const bars = await page.waitForFunction(
        () => {
          const row = [...document.querySelectorAll('[data-transition-bar]')].find((g) =>
            g.textContent?.includes('app/primary Online → Degraded'),
          );
          const kinds =
            row === undefined ? [] : [...row.querySelectorAll('rect')].map((r) => r.getAttribute('class'));
          return kinds.includes('seg-sync') ? kinds : false;
        },
        { timeout: 15_000 },
      );
      expect(await bars.jsonValue()).toEqual(['seg-detect', 'seg-submit', 'seg-sync']);
      const listed = await page.$$eval('[data-transition]', (nodes) => nodes.map((n) => n.textContent ?? ''));
      expect(listed.find((line) => / {2}app\/primary {2}Online → Degraded {2}/.test(line))).toMatch(
        /timing first failed check \S+Z → decided \+\d+\.\d s → submitted \+\d+\.\d s → in sync \+\d+\.\d s; detect → publish/,
      );

      const transition = (
        (await (await fetch(`${pageUrl}status.json`)).json()) as {
          transitions: {
            eventId: string;
            endpoint?: string;
            from: string;
            to: string;
            timing: { decidedAt: string; changeSubmittedAt: string };
          }[];
        }
      ).transitions.find((t) => t.endpoint === 'primary' && t.from === 'Online' && t.to === 'Degraded');
      const submittedMs = seenAt - Date.parse(transition?.timing.changeSubmittedAt ?? '');
      console.log(
        `status page: app/primary Degraded shown ${shownMs} ms after the evaluator decided it, ${submittedMs} ms after the change was submitted`,
      );
      // The status item is written once Route 53 accepted the change: from then on tm status and the page can show it.
      expect(submittedMs).toBeLessThanOrEqual(SHOWN_WITHIN_MS);

      mkdirSync(join(ROOT, 'test-results'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      // Under its own CSP the page ran without a violation or a script error.
      expect(pageProblems).toEqual([]);
      // The definitions' header values are in the table; none reaches the page or its data.
      expect(await page.content()).not.toContain(HEADER_VALUE);
      expect(await (await fetch(`${pageUrl}status.json`)).text()).not.toContain(HEADER_VALUE);
    });

    it('tm ui --table --region (DynamoDB Local standing in for AWS) shows the records the evaluator published', async () => {
      const dynamodbEndpoint = /DynamoDB {3}(http:\/\/\S+)/.exec(tm?.output() ?? '')?.[1] ?? '';
      let output = '';
      const ui: ChildProcess = spawn(
        process.execPath,
        [await compiledTm(), 'ui', '--table', 'traffic-manager', '--region', 'us-east-1', '--port', '0'],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            TM_STATE_DIR: dir,
            AWS_ENDPOINT_URL_DYNAMODB: dynamodbEndpoint,
            AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
            AWS_SECRET_ACCESS_KEY: 'secret',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      ui.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      ui.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise((resolve) => ui.once('exit', resolve));
      try {
        const deadline = Date.now() + 60_000;
        let url: string | undefined;
        while ((url = /status page {2}(http:\/\/127\.0\.0\.1:\d+\/)/.exec(output)?.[1]) === undefined) {
          if (Date.now() > deadline || ui.exitCode !== null)
            throw new Error(`tm ui did not start:\n${output}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(output).toContain('(table traffic-manager in us-east-1; Ctrl-C stops)');
        await page.goto(url);
        await shownAt('app/primary', 'Degraded', 15_000);
        expect(await page.$$eval('[data-endpoint]', (nodes) => nodes.length)).toBe(ENDPOINTS.length);
        expect(await text('#source')).toBe(
          'table traffic-manager in us-east-1 — DNS: the records the evaluator published (Route 53 is not asked)',
        );
        expect(await text('[data-dns="app.example.com"]')).toBe(
          `app.example.com → A ${SECONDARY}  (published by the evaluator)`,
        );
      } finally {
        ui.kill('SIGTERM');
        await exited;
      }
      expect(output).toContain('stopping (SIGTERM)');
    });

    it('a recovery is timed from the first passing check, on the page and in its data', async () => {
      const primary = createServer((_request, response) => response.writeHead(200).end('ok'));
      await new Promise<void>((resolve) => primary.listen(backendPort, PRIMARY, resolve));
      servers.push(primary);
      await page.goto(pageUrl);
      await shownAt('app/primary', 'Online', 60_000);
      const titles = await page.waitForFunction(
        () => {
          const row = [...document.querySelectorAll('[data-transition-bar]')].find((g) =>
            g.textContent?.includes('app/primary Degraded → Online'),
          );
          const found =
            row === undefined ? [] : [...row.querySelectorAll('rect title')].map((t) => t.textContent);
          return found.length > 0 ? found : false;
        },
        { timeout: 15_000 },
      );
      expect(await titles.jsonValue()).toContainEqual(
        expect.stringMatching(/^first passing check → decided: /),
      );
      const listed = await page.$$eval('[data-transition]', (nodes) => nodes.map((n) => n.textContent ?? ''));
      expect(listed.find((line) => / {2}app\/primary {2}Degraded → Online {2}/.test(line))).toMatch(
        /timing first passing check \S+Z → decided/,
      );
      const { transitions } = (await (await fetch(`${pageUrl}status.json`)).json()) as {
        transitions: { endpoint?: string; from: string; to: string; timing: Record<string, unknown> }[];
      };
      const recovery = transitions.find(
        (t) => t.endpoint === 'primary' && t.to === 'Online' && t.from === 'Degraded',
      );
      expect(recovery?.timing).toHaveProperty('firstPassingCheckAt', expect.stringMatching(/Z$/));
      expect(recovery?.timing).not.toHaveProperty('firstFailedCheckAt');
    });
  },
);
