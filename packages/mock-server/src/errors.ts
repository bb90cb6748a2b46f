/**
 * The mock server's error answers: thrown by any layer, turned into the error body by the core. The
 * bottom layer: this module imports only the contract and zod.
 */
import {
  type ErrorCode,
  type FieldIssue,
  fieldIssuesFromZod,
  type IssueLocation,
  summariseIssues,
} from '@iacm/sdk/contract';
import type * as z from 'zod';
import { clip } from './http/objects.js';

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
  const shown = clip(id, 40);
  return new HttpError(404, 'not_found', `no ${kind} with id "${shown}" in this account`);
}

/**
 * The one 429 answer (the rate limit's and the login throttle's): `rate_limited`, with `Retry-After`
 * in whole seconds (at least 1) for a wait of `waitMs`; `reason` says what was exceeded and gets the
 * seconds to name them (`rate limit of 5 requests per 60 s exceeded; retry after 12 s`).
 */
export function rateLimited(waitMs: number, reason: (retryAfterSeconds: number) => string): HttpError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new HttpError(429, 'rate_limited', reason(seconds), {
    headers: { 'retry-after': String(seconds) },
  });
}
