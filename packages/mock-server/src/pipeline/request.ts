/**
 * The first stage: the request line and headers, read into the form the later stages use (the
 * method upper-cased, the path without a trailing slash, the query as a plain object). The body is
 * not touched here: the body stage reads it only for requests that get that far.
 *
 * @module
 */
import { type MockRequest, readQuery } from '../core/http.js';

/** The control plane's reserved prefix. */
export const CONTROL_PREFIX = '/__mock';

/** A request's line, as the stages read it. */
export interface RequestLine {
  /** The method, upper-case. */
  method: string;
  /** The path, without a trailing slash (except `/` itself). */
  path: string;
  /** The query parameters; a repeated parameter is a list. */
  query: Record<string, string | string[]>;
  /** Whether it is for the control plane (`/__mock` and under). */
  control: boolean;
}

/** Reads the request line of a plain request. */
export function readRequestLine(request: MockRequest): RequestLine {
  const path = request.path.length > 1 ? trimTrailingSlashes(request.path) : request.path;
  return {
    method: request.method.toUpperCase(),
    path,
    query: readQuery(request.query),
    control: path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`),
  };
}

/** The path without trailing slashes (linear; no regular expression over user input). */
function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end -= 1;
  return path.slice(0, end);
}
