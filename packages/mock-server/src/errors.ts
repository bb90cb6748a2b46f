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
  zodIssues,
} from '@iacm/sdk/contract';
import type * as z from 'zod';
import { memberSuggestions } from './errors/suggest.js';
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

/** The most problems a check beyond a schema lists in its issues (the others are counted). */
export const MAX_LISTED_PROBLEMS = 20;

/** A problem a check beyond a schema found (a reference, a combination): its dotted path, what was expected, what came. */
export type Problem = readonly [path: string, message: string, received: string];

/**
 * Problems as body issues named under `root` (`scene.accounts[0].stacks[0].workspace: expected ...,
 * received ...`); a message already named under `root` (`root.` or `root:` first) is kept whole. At
 * most {@link MAX_LISTED_PROBLEMS}, then one issue counting the others. {@link validationError} makes
 * them the 400.
 */
export function problemIssues(problems: readonly Problem[], root: string): FieldIssue[] {
  const label = (path: string) => `${root}${path ? `.${path}` : ''}`;
  const whole = (message: string) => message.startsWith(`${root}.`) || message.startsWith(`${root}:`);
  const issues: FieldIssue[] = problems.slice(0, MAX_LISTED_PROBLEMS).map(([path, message, received]) => ({
    location: 'body',
    path,
    message: whole(message) ? message : `${label(path)}: ${message}, received ${received}`,
    received,
  }));
  if (problems.length > MAX_LISTED_PROBLEMS) {
    const more = problems.length - MAX_LISTED_PROBLEMS;
    issues.push({
      location: 'body',
      path: '',
      message: `${root}: ${more} more problem${more > 1 ? 's' : ''} not listed`,
      received: `${more} more`,
      omitted: more,
    });
  }
  return issues;
}

/**
 * The 400 of data whose shape its schema refused: every issue zod found (at most
 * {@link MAX_LISTED_PROBLEMS}, then a count), its path under the body, its message under `root`
 * (`scene.accounts[0].workspaces[0].colour: unknown member "colour"; ...`).
 */
export function shapeError(error: z.ZodError, input: unknown, root: string, schema?: z.ZodType): HttpError {
  const label = (where: string) => `${root}${where ? `.${where}` : ''}`;
  const suggestions = schema ? memberSuggestions(error, schema) : undefined;
  const issues = zodIssues(error, input, { label, max: MAX_LISTED_PROBLEMS }).map((issue) => {
    const meant = suggestions?.get(issue.path);
    return {
      location: 'body' as const,
      ...issue,
      ...(meant === undefined ? {} : { message: `${issue.message} (did you mean "${meant}"?)` }),
    };
  });
  return listedError(issues);
}

/** How many characters of each issue's message {@link listedError} keeps in its message. */
const LISTED_MESSAGE_CHARS = 300;

/**
 * A 400 `validation_failed` whose message lists every issue (each cut to 300 characters, at most
 * {@link MAX_LISTED_PROBLEMS}, then how many more), not only the first: for data a user wrote whole
 * (a scene, a scenario, a snapshot), where fixing one problem at a time would take a run per problem.
 */
export function listedError(issues: FieldIssue[]): HttpError {
  if (issues.length <= 1) return validationError(issues);
  const cutMessage = (text: string) =>
    text.length > LISTED_MESSAGE_CHARS ? `${text.slice(0, LISTED_MESSAGE_CHARS)}…` : text;
  const listed = issues.filter((issue) => issue.omitted === undefined);
  const omitted = issues.reduce((sum, issue) => sum + (issue.omitted ?? 0), 0);
  const [first, ...rest] = listed.map((issue) => cutMessage(issue.message));
  const others = rest.length + omitted;
  const unlisted = omitted > 0 ? `${rest.length > 0 ? '; ' : ''}${omitted} not listed` : '';
  const message = others === 0 ? `${first}` : `${first} (and ${others} more: ${rest.join('; ')}${unlisted})`;
  return new HttpError(400, 'validation_failed', message, { issues });
}

/**
 * A 400 `validation_failed` of a part of a larger body, moved under the part's `path` there: each
 * issue's path named under it, and, given `rename`, each message's root renamed (a scenario's scene:
 * `scene.accounts[0]...` becomes `scenario.scene.accounts[0]...`). Any other error is answered as it is.
 */
export function nestedError(
  error: unknown,
  path: string,
  rename?: { readonly from: string; readonly to: string },
): unknown {
  if (!(error instanceof HttpError) || error.code !== 'validation_failed') return error;
  const renamed = (message: string) =>
    rename && (message.startsWith(`${rename.from}.`) || message.startsWith(`${rename.from}:`))
      ? `${rename.to}${message.slice(rename.from.length)}`
      : message;
  const issues: FieldIssue[] = (error.issues ?? []).map((issue) => ({
    ...issue,
    location: issue.location ?? 'body',
    received: issue.received ?? '',
    path: issue.path ? `${path}.${issue.path}` : path,
    message: renamed(issue.message),
  }));
  if (issues.length === 0) {
    issues.push({ location: 'body', path, message: renamed(error.message), received: path });
  }
  return validationError(issues);
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
