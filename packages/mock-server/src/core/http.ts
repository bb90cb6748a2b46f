import {
  type ErrorCode,
  type FieldIssue,
  fieldIssuesFromZod,
  type IssueLocation,
  summariseIssues,
} from '@iacm/sdk/contract';
import type { z } from 'zod';

/** A plain request, as an adapter hands it to the core. */
export interface MockRequest {
  /** HTTP method, any case. */
  method: string;
  /** The path, without the query string, relative to the mock's base URL (`/v2/workspaces/search`). */
  path: string;
  /** Query parameters; a repeated parameter is a list. */
  query?: Readonly<Record<string, string | readonly string[]>> | URLSearchParams;
  /** Request headers; names in any case. */
  headers?: Readonly<Record<string, string | readonly string[] | undefined>> | Headers;
  /** The parsed JSON body, when the adapter parsed it. */
  body?: unknown;
  /** The raw body text, when the adapter did not parse it (the core parses it, answering 400 on bad JSON). */
  rawBody?: string;
}

/** A plain response, as the core hands it to an adapter. */
export interface MockResponse {
  /** HTTP status. */
  status: number;
  /** Response headers (lower-case names). */
  headers: Record<string, string>;
  /** The JSON body, or undefined for none (204). */
  body: unknown;
  /** When true the adapter closes the connection without answering (fault injection). */
  drop?: boolean;
}

/** An error answer on its way out of a handler: thrown, then turned into the error body. */
export class HttpError extends Error {
  /** HTTP status. */
  readonly status: number;
  /** Machine-readable code. */
  readonly code: ErrorCode;
  /** Field issues, for validation failures. */
  readonly issues: FieldIssue[] | undefined;
  /** Extra response headers. */
  readonly headers: Record<string, string>;

  /** Creates an error answer. */
  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { issues?: FieldIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.issues = options.issues;
    this.headers = options.headers ?? {};
  }
}

/** A 400 `validation_failed` naming every bad field. */
export function validationError(issues: FieldIssue[]): HttpError {
  return new HttpError(400, 'validation_failed', summariseIssues(issues), { issues });
}

/** Parses `input` with `schema`, or throws a 400 naming every bad field of it. */
export function parseOr400<T extends z.ZodType>(
  schema: T,
  input: unknown,
  location: IssueLocation = 'body',
): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationError(fieldIssuesFromZod(result.error, location, input));
  return result.data;
}

/** A 404 for a record that does not exist in the caller's account. */
export function notFound(kind: string, id: string): HttpError {
  const shown = id.length > 40 ? `${id.slice(0, 40)}…` : id;
  return new HttpError(404, 'not_found', `no ${kind} with id "${shown}" in this account`);
}

/** Reads a header from either header form, case-insensitively; a repeated header is joined with ", ". */
export function readHeader(headers: MockRequest['headers'], name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const lower = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== lower || value === undefined) continue;
    return typeof value === 'string' ? value : value.join(', ');
  }
  return undefined;
}

/** Reads the query into a plain object; a repeated parameter becomes a list. */
export function readQuery(query: MockRequest['query']): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (!query) return out;
  const entries: Iterable<[string, string | readonly string[]]> =
    query instanceof URLSearchParams ? query.entries() : Object.entries(query);
  for (const [key, value] of entries) {
    const values = typeof value === 'string' ? [value] : [...value];
    const existing = out[key];
    const merged =
      existing === undefined
        ? values
        : [...(typeof existing === 'string' ? [existing] : existing), ...values];
    out[key] = merged.length === 1 ? (merged[0] as string) : merged;
  }
  return out;
}

/** The 500 answer of a bug in the mock (never caused by client input; the fuzz tests check that). */
export function internalErrorResponse(requestId?: string): MockResponse {
  return {
    status: 500,
    headers: { 'content-type': 'application/json' },
    body: {
      status: 500,
      code: 'internal_error',
      message: 'the mock server failed; this is a bug in @iacm/mock-server',
      ...(requestId ? { requestId } : {}),
    },
  };
}
