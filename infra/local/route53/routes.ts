/**
 * The local Route 53's routing table: one row per operation (method, path under the API
 * version, operation name, handler), and what the handlers share — the reply shapes and
 * the query parameters.
 */
import { InvalidInputError } from './errors.js';

export const API = '/2013-04-01';

export interface Reply {
  readonly status: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A request as a handler sees it: the path's one `{id}` (decoded), the query and the body. */
export interface RouteRequest {
  readonly id: string;
  readonly query: URLSearchParams;
  readonly body: string;
}

export interface Route {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly pattern: RegExp;
  readonly operation: string;
  readonly handle: (request: RouteRequest) => Reply;
}

/** A row of the table; `path` is under `/2013-04-01` and may hold one `{id}`. */
export function route(
  method: Route['method'],
  path: string,
  operation: string,
  handle: Route['handle'],
): Route {
  return { method, pattern: new RegExp(`^${API}${path.replace('{id}', '([^/]+)')}$`), operation, handle };
}

export function ok(body: string): Reply {
  return { status: 200, body };
}

/** 201 Created, with the new resource's `Location` as Route 53 sends it (`path` under the API version). */
export function created(body: string, path: string): Reply {
  return { status: 201, body, headers: { location: `https://route53.amazonaws.com${API}${path}` } };
}

/** A positive integer query parameter (`maxitems`, `maxresults`), or `InvalidInput`. */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new InvalidInputError(`Value '${text}' for ${name} must be a positive integer`);
  return value;
}

export function textParam(query: URLSearchParams, name: string): string | undefined {
  return query.get(name) ?? undefined;
}
