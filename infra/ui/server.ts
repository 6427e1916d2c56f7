/**
 * The status page's HTTP server: one HTML page, its script and style (files beside this
 * module, shipped in the package; no external asset, so it works offline), and
 * `/status.json`, the snapshot the page polls. It listens on 127.0.0.1 only, through the
 * local stand-ins' guard in its browser-page form (GET only, same origin, a loopback Host
 * with this port), and sends a strict Content-Security-Policy with every answer.
 */
import { readFileSync } from 'node:fs';
import { startGuardedHttpServer, type GuardedHttpServer, type HttpReply } from '../local/http-guard.js';

export interface StatusPageOptions {
  /** TCP port on 127.0.0.1. @default 0 (any free port) */
  readonly port?: number;
  /** Reads what the page shows (called at most once per FRESH_MS, however many pages poll). */
  readonly read: () => Promise<unknown>;
  /** Failures to read the snapshot (answered 503) and handler failures (500). @default - ignored */
  readonly onError?: (error: unknown) => void;
}

/** How long one read serves every poll: pages poll twice a second, the table is read at most this often. */
export const FRESH_MS = 400;

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
    "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

const ASSETS: Readonly<Record<string, { readonly file: string; readonly type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/page.mjs': { file: 'page.mjs', type: 'text/javascript; charset=utf-8' },
  '/page.css': { file: 'page.css', type: 'text/css; charset=utf-8' },
};

export async function startStatusPage(options: StatusPageOptions): Promise<GuardedHttpServer> {
  const assets = new Map(
    Object.entries(ASSETS).map(([path, { file, type }]) => [
      path,
      { type, body: readFileSync(new URL(`./page/${file}`, import.meta.url)) },
    ]),
  );
  const snapshot = latest(options.read, (error) => options.onError?.(error));
  return startGuardedHttpServer({
    port: options.port ?? 0,
    caller: { ownPage: true },
    maxBodyBytes: 0,
    onError: options.onError,
    errorReply: (error) =>
      json(
        error.status,
        { error: { code: error.code, message: error.message } },
        error.code === 'MethodNotAllowed' ? { allow: 'GET, HEAD' } : {},
      ),
    handle: async ({ url }) => {
      if (url.pathname === '/status.json') {
        try {
          return json(200, await snapshot());
        } catch (error) {
          return json(503, {
            error: { code: 'ReadFailed', message: `could not read the status: ${(error as Error).message}` },
          });
        }
      }
      // Browsers ask for it on their own; the page has none.
      if (url.pathname === '/favicon.ico') return { status: 204, headers: SECURITY_HEADERS, body: '' };
      const asset = assets.get(url.pathname);
      if (asset === undefined)
        return json(404, { error: { code: 'NotFound', message: `Nothing at ${url.pathname}` } });
      return { status: 200, headers: { ...SECURITY_HEADERS, 'content-type': asset.type }, body: asset.body };
    },
  });
}

function json(status: number, value: unknown, headers: Record<string, string> = {}): HttpReply {
  return {
    status,
    headers: { ...SECURITY_HEADERS, ...headers, 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify(value),
  };
}

/**
 * One read shared by every caller while it runs and for FRESH_MS after it began (a failed
 * read is reported once; the next caller after it tries afresh).
 */
function latest<T>(read: () => Promise<T>, onError: (error: unknown) => void): () => Promise<T> {
  let last: { at: number; done: boolean; readonly value: Promise<T> } | undefined;
  return () => {
    const now = Date.now();
    if (last === undefined || (last.done && now - last.at >= FRESH_MS)) {
      const current = { at: now, done: false, value: read() };
      current.value.then(
        () => (current.done = true),
        (error: unknown) => {
          current.done = true;
          current.at = 0;
          onError(error);
        },
      );
      last = current;
    }
    return last.value;
  };
}
