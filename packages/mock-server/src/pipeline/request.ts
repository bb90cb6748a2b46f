/**
 * The first stage: the request line and headers, read into the form the later stages use (the
 * method upper-cased, the path without a trailing slash, the query as a record without a
 * prototype). The body is not touched here: the body stage reads it only for requests that get
 * that far.
 *
 * @module
 */
import type { MockRequest } from '../http/message.js';

/** The control plane's reserved prefix. */
export const CONTROL_PREFIX = '/__mock';

/** A request's line, as the stages read it. */
export interface RequestLine {
  /** The method, upper-case. */
  method: string;
  /** The path, without a trailing slash (except `/` itself). */
  path: string;
  /** The query parameters, a record without a prototype; a repeated parameter is a list. */
  query: Record<string, string | string[]>;
  /** Whether it is for the control plane (`/__mock` and under). */
  control: boolean;
}

/**
 * Reads a request's query parameters (a `URLSearchParams`, or a record whose values are a value
 * or a list) into a record **without a prototype** (`Object.create(null)`): a parameter named
 * `__proto__`, `constructor` or `toString` is an ordinary member, never a property inherited from
 * `Object.prototype`. A parameter given once (or as a list of one) is a string; one given more than
 * once is the list of its values, in order (a record's `undefined` or empty list is no parameter). Whether a list is allowed is the route stage's
 * question: it answers 400 for a repeated parameter its endpoint does not take as a list.
 */
export function parseQuery(query: MockRequest['query']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  if (!query) return out;
  const add = (name: string, values: readonly string[]) => {
    const existing = out[name];
    if (existing === undefined) {
      out[name] = values.length === 1 ? (values[0] as string) : [...values];
    } else if (typeof existing === 'string') {
      out[name] = [existing, ...values];
    } else {
      existing.push(...values);
    }
  };
  if (query instanceof URLSearchParams) {
    for (const [name, value] of query) add(name, [value]);
    return out;
  }
  for (const name of Object.keys(query)) {
    const value: unknown = Object.getOwnPropertyDescriptor(query, name)?.value;
    if (value === undefined || value === null) continue;
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    if (values.length > 0) add(name, values);
  }
  return out;
}

/** Reads the request line of a plain request. */
export function readRequestLine(request: MockRequest): RequestLine {
  const path = request.path.length > 1 ? trimTrailingSlashes(request.path) : request.path;
  return {
    method: request.method.toUpperCase(),
    path,
    query: parseQuery(request.query),
    control: path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`),
  };
}

/** The path without trailing slashes (linear; no regular expression over user input). */
function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end -= 1;
  return path.slice(0, end);
}
