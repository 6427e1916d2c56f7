/**
 * The local Route 53's routing table: one row per operation (method, path under the API
 * version, operation name, handler); a handler answers the elements of the operation's
 * `<Operation>Response`. The query parameters the handlers share are here too.
 */
import type { HttpReply } from '../http-guard.js';
import { invalidInput } from './errors.js';
import { document } from './xml-codec.js';

const API = '/2013-04-01';

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
  readonly handle: (request: RouteRequest) => HttpReply;
}

/** What an operation answers: the elements of its `<Operation>Response`, and where a created resource is. */
export interface Answer {
  readonly elements: Readonly<Record<string, unknown>>;
  /** The new resource's path under the API version: 201 Created with its `Location`, as Route 53 answers. */
  readonly created?: string;
}

/** A row of the table; `path` is under `/2013-04-01` and may hold one `{id}`. */
export function route(
  method: Route['method'],
  path: string,
  operation: string,
  answer: (request: RouteRequest) => Answer,
): Route {
  const pattern = new RegExp(`^${API}${path.replace('{id}', '([^/]+)')}$`);
  return {
    method,
    pattern,
    operation,
    handle: (request) => {
      const { elements, created } = answer(request);
      const body = document(`${operation}Response`, elements);
      if (created === undefined) return { status: 200, body };
      return { status: 201, body, headers: { location: `https://route53.amazonaws.com${API}${created}` } };
    },
  };
}

/** A positive integer query parameter (`maxitems`, `maxresults`), or `InvalidInput`. */
export function intParam(query: URLSearchParams, name: string): number | undefined {
  const text = query.get(name);
  if (text === null) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw invalidInput(`Value '${text}' for ${name} must be a positive integer`);
  return value;
}
