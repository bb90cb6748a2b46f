/**
 * The one-off slot: after rate limit, faults, routing, authentication and validation, before the
 * operation, a request may be answered by
 * - `Prefer: code=<status>` (Prism's convention): one of its endpoint's documented errors, with the
 *   standard error body, for that request only (`prefer.ts`); or
 * - a one-off answer set through the control plane (`control.respond`, `POST /__mock/responses`),
 *   checked against the contract's strict schemas when it is set ({@link checkOneOff}) and matched by
 *   endpoint, partial body, partial query and account ({@link OneOffBook}).
 *
 * The slot needs what the stages before it produced: the endpoint's name, the caller's account and
 * the parsed input.
 *
 * @module
 */

import {
  type API_ERRORS,
  checkJsonBounds,
  type EndpointDefinition,
  type EndpointName,
  type Endpoints,
  type ErrorBody,
  ErrorBody as ErrorBodySchema,
  endpointErrorStatuses,
  endpointList,
  endpoints,
  type FieldIssue,
  fieldIssuesFromZod,
  limitIssues,
  readHeader,
  responseSchemaFor,
  type StrictSchema,
  strictEndpointSchemas,
  strictSchema,
} from '@iacm/sdk/contract';
import * as z from 'zod';
import type { ZodMiniType } from 'zod/mini';
import { constantTimeEqual } from '../auth/jwt.js';
import { rangeSchema } from '../errors/ranges.js';
import { HttpError, parseOr400, validationError } from '../errors.js';
import type { MockRequest, MockResponse } from '../http/message.js';
import { lazyMember } from '../http/objects.js';
import { KEPT_ITEM_BYTES, type Ledger, unboundedLedger } from '../store/budget.js';
import type { AccountStore } from '../store/store.js';
import { checkEndpointName } from './endpoint-name.js';
import { AnswerHeaders, codeFor, FAULT_STATUS_RANGE, FAULT_TIMES_RANGE } from './faults.js';
import {
  CONTROL_TOKEN_HEADER,
  PREFER_IGNORED_HEADER,
  type PreferAccess,
  type PreferHeaderRule,
  preferredCode,
  preferredError,
} from './prefer.js';
import {
  checkKeptBytes,
  jsonText,
  keptTextBytes,
  MATCH_LIMITS,
  MatchBody,
  type MatchedInput,
  matchHeapBytes,
  matchIssues,
  type OneOffMatch,
  requestMatches,
} from './request-match.js';

// The matcher's home is `request-match.ts` (shared with endpoint faults); re-exported for its users.
export type { OneOffMatch } from './request-match.js';

import type { ResolvedRoute } from './route.js';

/**
 * The bounds of one-off answers: how many wait at once, how large one may be (its JSON, with its
 * `match`: the `POST /__mock/responses` route's limit), and how many bytes all of them take.
 */
export const ONE_OFF_LIMITS = Object.freeze({
  /** One-off answers waiting at once (a further one is a 409). */
  maxAnswers: 1000,
  /** Bytes of one one-off answer as JSON (`POST /__mock/responses`'s body limit; 413 beyond): 1 MiB. */
  maxBodyBytes: 1024 * 1024,
  /**
   * Bytes all waiting one-off answers take together by the heap's measure (a further one is a 409):
   * 64 MiB. A body's JSON text counts two bytes a character; a `match` also 64 bytes a value.
   */
  maxTotalBytes: MATCH_LIMITS.maxTotalBytes,
  /** Characters of `match.accountId`. */
  maxAccountIdLength: MATCH_LIMITS.maxAccountIdLength,
});

/** An HTTP status of the API error table (`API_ERRORS`): what a checked one-off error answer may have. */
export type ApiErrorStatus = (typeof API_ERRORS)[keyof typeof API_ERRORS]['status'];

/**
 * The body of a one-off success answer of endpoint `N`: what the contract's strict answer schema
 * gives (`strictEndpointSchemas(N).response`: documented members and enumeration values only); for
 * an endpoint with `projection`, items may lack members (checked in full at run time unless the
 * answer's `match.body.projection` names the members); `undefined` for a 204 endpoint.
 */
export type OneOffSuccessBody<N extends EndpointName> = Endpoints[N]['successStatus'] extends 204
  ? undefined
  : Endpoints[N]['projection'] extends true
    ? z.output<StrictSchema<Endpoints[N]['response']>> extends ReadonlyArray<infer Item>
      ? Array<Item extends { id: infer Id } ? { id: Id } & Partial<Item> : Partial<Item>>
      : never
    : z.output<StrictSchema<Endpoints[N]['response']>>;

/** What every one-off answer may say, beside its status, body and `validate`. */
export interface OneOffAnswerBase<N extends EndpointName> {
  /** Headers of the answer (names lower-cased; `content-type: application/json` with a body). */
  headers?: Record<string, string>;
  /** How many matching requests it answers, 1 to 1,000,000. Default 1. */
  times?: number;
  /** Which requests it answers (default: every request to the endpoint). */
  match?: OneOffMatch<N>;
}

/**
 * A one-off answer for endpoint `N`, typed by the endpoint: its success status (the default) with
 * the endpoint's answer as body (none for a 204 endpoint); or an error status of the API with the
 * error body (default: the standard error body for the status); or, with `validate: false`, any
 * status and body, unchecked.
 */
export type OneOffAnswer<N extends EndpointName = EndpointName> =
  | (OneOffAnswerBase<N> & {
      /** The endpoint's success status. */
      status?: Endpoints[N]['successStatus'];
      /** Checked against the contract's strict schemas (the default). */
      validate?: true;
    } & (OneOffSuccessBody<N> extends undefined
        ? { /** No body: the endpoint answers 204. */ body?: undefined }
        : { /** The endpoint's answer. */ body: OneOffSuccessBody<N> }))
  | (OneOffAnswerBase<N> & {
      /** One of the endpoint's documented error statuses. */
      status: ApiErrorStatus;
      /** The error body (default: the standard one for the status). */
      body?: ErrorBody;
      /** Checked against the contract's strict schemas (the default). */
      validate?: true;
    })
  | (OneOffAnswerBase<N> & {
      /** Any status from 200 to 599 (default: the success status). */
      status?: number;
      /** Any JSON body. */
      body?: unknown;
      /** Not checked against the contract. */
      validate: false;
    });

/** A waiting one-off answer, as the control plane lists it. */
export interface OneOff {
  /** Its id (`answer_1`, ...). */
  id: string;
  /** The endpoint it answers. */
  endpoint: EndpointName;
  /** The answer's status. */
  status: number;
  /** The answer's headers. */
  headers?: Record<string, string>;
  /**
   * The answer's body, as given (absent: the standard error body for an error status, or none). In a
   * listing (`control.responses()`, `GET /__mock/responses`) it is parsed from the kept text each
   * time it is read: read it once into a variable to use it several times.
   */
  body?: unknown;
  /** Which requests it answers (in a listing, a fresh copy each time it is read). */
  match?: OneOffMatch;
  /** Whether it was checked against the contract. */
  validate: boolean;
  /** How many matching requests it answers in all. */
  times: number;
  /** How many it still answers. */
  remaining: number;
}

const ENDPOINT_NAMES = Object.keys(endpoints) as [EndpointName, ...EndpointName[]];

/** The endpoint table's definitions by name. */
const DEFINITIONS: ReadonlyMap<string, EndpointDefinition> = new Map(endpointList.map((d) => [d.name, d]));

/**
 * The shape of a one-off answer (`POST /__mock/responses`'s body; `control.respond`'s answer with
 * its endpoint): `endpoint`, `status`, `body`, `headers`, `times`, `match`, `validate`.
 * `checkOneOff` checks the rest against the endpoint.
 */
export const OneOffBody = z.strictObject({
  endpoint: z.enum(ENDPOINT_NAMES),
  status: rangeSchema(FAULT_STATUS_RANGE).optional(),
  body: z.unknown().optional(),
  headers: AnswerHeaders.optional(),
  times: rangeSchema(FAULT_TIMES_RANGE).optional(),
  match: MatchBody.optional(),
  validate: z.boolean().optional(),
});

/** A one-off answer as {@link checkOneOff} answers it: checked, and its JSON text measured. */
export interface CheckedOneOff {
  /** The endpoint. */
  readonly endpoint: EndpointName;
  /** The status (the endpoint's success status when none was given). */
  readonly status: number;
  /** The headers, names lower-cased. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The body's JSON text; `undefined` for none. */
  readonly bodyText: string | undefined;
  /** What to match, as JSON. */
  readonly match: OneOffMatch | undefined;
  /** Whether it was checked against the contract. */
  readonly validate: boolean;
  /** How many matching requests it answers. */
  readonly times: number;
  /** What it takes in the heap, bytes (counted against {@link ONE_OFF_LIMITS} `maxTotalBytes`). */
  readonly bytes: number;
}

/** The UTF-8 length of a text, bytes. */
function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** The answer's value as JSON (a copy without functions, `undefined` members or prototypes), or a 400. */
function asJson(raw: unknown): { value: unknown; bytes: number } {
  const text = jsonText(raw);
  const bytes = utf8Length(text);
  if (bytes > ONE_OFF_LIMITS.maxBodyBytes) {
    throw new HttpError(
      413,
      'payload_too_large',
      `a one-off answer is ${bytes} bytes of JSON; at most ${ONE_OFF_LIMITS.maxBodyBytes} are taken`,
    );
  }
  const value: unknown = JSON.parse(text);
  const problem = checkJsonBounds(value);
  if (problem) throw validationError([problem]);
  return { value, bytes };
}

/**
 * Checks a one-off answer (`POST /__mock/responses`'s body; `control.respond` checks the same, with
 * the endpoint): its shape ({@link OneOffBody}), its size ({@link ONE_OFF_LIMITS}), `match`'s members
 * against the endpoint's body and query; and, unless `validate: false`, its status (the success
 * status or one of the endpoint's documented errors) and its body against the contract's strict
 * schemas (`strictEndpointSchemas(endpoint).response`; `strictSchema(ErrorBody)` for an error). One
 * 400 names every bad field (`body.body[0].workspaceNme: ...`).
 */
export function checkOneOff(raw: unknown): CheckedOneOff {
  // A request without a body is checked as `{}` (as `parseControlBody` does): 400 naming `endpoint`.
  const { value } = asJson(raw === undefined ? {} : raw);
  // The endpoint first, with the closest names when it is not one (as every control input says it).
  checkEndpointName((value as { endpoint?: unknown } | null)?.endpoint, 'body');
  const given = parseOr400(OneOffBody, value);
  const definition = DEFINITIONS.get(given.endpoint) as EndpointDefinition;
  const validate = given.validate !== false;
  const status = given.status ?? definition.successStatus;
  const issues: FieldIssue[] = matchIssues(definition, given.match);
  const issue = (path: string, message: string) =>
    issues.push({ location: 'body', path, message: `body.${path}: ${message}` });
  if (validate) {
    const errors = endpointErrorStatuses(definition);
    let schema: ZodMiniType | undefined;
    if (status === definition.successStatus) {
      const strict = strictEndpointSchemas(given.endpoint).response as ZodMiniType;
      const projection = (given.match?.body as { projection?: unknown } | undefined)?.projection;
      schema =
        definition.projection && Array.isArray(projection) && projection.length > 0
          ? responseSchemaFor({ projection: definition.projection, response: strict }, given.match?.body)
          : strict;
      if (status === 204) {
        if (given.body !== undefined) issue('body', `expected no body (${given.endpoint} answers 204)`);
        schema = undefined;
      } else if (given.body === undefined) {
        issue(
          'body',
          `expected ${given.endpoint}'s answer (status ${status} needs a body), received nothing`,
        );
        schema = undefined;
      }
    } else if (errors.includes(status)) {
      schema = given.body === undefined ? undefined : strictSchema(ErrorBodySchema);
      const bodyStatus = (given.body as { status?: unknown } | undefined)?.status;
      if (schema && typeof bodyStatus === 'number' && bodyStatus !== status) {
        issue('body.status', `expected ${status} (the answer's status), received ${bodyStatus}`);
      }
    } else {
      issue(
        'status',
        `expected ${definition.successStatus} (the success status of ${given.endpoint}) or one of its documented errors: ${errors.join(', ')} (or validate: false for any status), received ${status}`,
      );
    }
    const result = schema?.safeParse(given.body);
    if (result && !result.success) {
      const prefixed = new z.ZodError(
        result.error.issues.map((i) => ({ ...i, path: ['body', ...i.path] })) as z.core.$ZodIssue[],
      );
      issues.push(...fieldIssuesFromZod(prefixed, 'body', value));
    }
  }
  if (issues.length > 0) throw validationError(limitIssues(issues));
  const headers = given.headers && lowerCased(given.headers);
  const bodyText = given.body === undefined ? undefined : JSON.stringify(given.body);
  return {
    endpoint: given.endpoint,
    status,
    headers,
    bodyText,
    match: given.match as OneOffMatch | undefined,
    validate,
    times: given.times ?? 1,
    // By the heap's measure: the body is kept as text, the match parsed (headers: a few KiB at most).
    bytes:
      keptTextBytes(bodyText) + matchHeapBytes(given.match) + keptTextBytes(JSON.stringify(headers ?? {})),
  };
}

/** A copy of headers with lower-case names. */
function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** A waiting one-off answer, as the book keeps it. */
interface Stored extends CheckedOneOff {
  readonly id: string;
  remaining: number;
}

/**
 * The one-off answers waiting, and the counter of their ids. What each waiting answer keeps
 * (`CheckedOneOff.bytes`) is charged to the memory budget (`oneOff`, refusing: a 409
 * `budget_exceeded` past it) and released at its last use, or when the answers are cleared or reset.
 */
export class OneOffBook {
  readonly #answers: Stored[] = [];
  #bytes = 0;
  #count = 0;
  /** The budget's `oneOff` ledger: what the waiting answers keep. */
  readonly #ledger: Ledger;

  /**
   * An empty book charging `ledger` (the memory budget's `oneOff` ledger; default one without a
   * limit, for a book made alone).
   */
  constructor(ledger: Ledger = unboundedLedger('oneOff')) {
    this.#ledger = ledger;
  }

  /** How many answers are waiting. */
  get size(): number {
    return this.#answers.length;
  }

  /** What the waiting answers take together by the heap's measure, bytes (`CheckedOneOff.bytes`). */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Adds an answer checked by {@link checkOneOff}; answers it as listed. 409 when
   * {@link ONE_OFF_LIMITS} `maxAnswers` wait already, or when it would take the waiting answers past
   * `maxTotalBytes`; then 409 `budget_exceeded` when the memory budget has no room for it. Nothing
   * is kept (and no id is used) then.
   */
  add(checked: CheckedOneOff): OneOff {
    if (this.#answers.length >= ONE_OFF_LIMITS.maxAnswers) {
      throw new HttpError(
        409,
        'conflict',
        `${ONE_OFF_LIMITS.maxAnswers} one-off answers are waiting already, the most the mock keeps: remove them (DELETE /__mock/responses, control.clearResponses()) first`,
      );
    }
    checkKeptBytes(
      this.#bytes,
      checked.bytes,
      'the waiting one-off answers',
      "a body's JSON at two bytes a character, a match's values at 64 bytes each",
      'DELETE /__mock/responses, control.clearResponses()',
    );
    // The memory budget after the book's own bounds, before anything is kept (a 409 changes nothing).
    this.#ledger.charge(checked.bytes + KEPT_ITEM_BYTES);
    const stored: Stored = { ...checked, id: `answer_${++this.#count}`, remaining: checked.times };
    this.#answers.push(stored);
    this.#bytes += checked.bytes;
    return listed(stored);
  }

  /**
   * The answers still waiting, oldest first (copies). Nothing kept is parsed or copied for the list:
   * each answer's `body` is parsed from its kept text, and its `match` copied, when that member is
   * read (each time: read it once into a variable to use it several times; it can be set like any
   * member). So listing them, or writing the list as JSON (`GET /__mock/responses`), holds one
   * parsed body at a time, however many answers wait.
   */
  list(): OneOff[] {
    return this.#answers.map(listedLazily);
  }

  /** Removes every waiting answer (and gives back the room they took, in the memory budget too). */
  clear(): void {
    this.#answers.length = 0;
    this.#bytes = 0;
    this.#ledger.releaseAll();
  }

  /** Removes every waiting answer and numbers ids from 1 again (`reset()`, with the faults). */
  reset(): void {
    this.clear();
    this.#count = 0;
  }

  /**
   * Takes one use of the oldest answer for `endpoint` whose `match` the request satisfies, if any:
   * its answer, with the standard error body (and `requestId`) for an error status without a body.
   */
  take(
    endpoint: EndpointName,
    accountId: string | undefined,
    input: MatchedInput,
    requestId: string,
  ): MockResponse | undefined {
    const index = this.#answers.findIndex(
      (a) => a.endpoint === endpoint && requestMatches(a.match, accountId, input),
    );
    const answer = this.#answers[index];
    if (!answer) return undefined;
    answer.remaining -= 1;
    if (answer.remaining <= 0) {
      this.#answers.splice(index, 1);
      this.#bytes -= answer.bytes;
      this.#ledger.release(answer.bytes + KEPT_ITEM_BYTES);
    }
    const body =
      answer.bodyText !== undefined
        ? JSON.parse(answer.bodyText)
        : answer.status >= 400
          ? {
              status: answer.status,
              code: codeFor(answer.status),
              message: `one-off answer set by the mock's control plane (status ${answer.status})`,
              requestId,
            }
          : undefined;
    return {
      status: answer.status,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...answer.headers },
      body,
    };
  }
}

/**
 * A stored answer as {@link OneOffBook.list} lists it: as {@link listed}, its `body` parsed from its
 * text and its `match` copied each time they are read (enumerable members, which can be set).
 */
function listedLazily(stored: Stored): OneOff {
  const answer: OneOff = {
    id: stored.id,
    endpoint: stored.endpoint,
    status: stored.status,
    ...(stored.headers ? { headers: { ...stored.headers } } : {}),
    validate: stored.validate,
    times: stored.times,
    remaining: stored.remaining,
  };
  const { bodyText, match } = stored;
  if (bodyText !== undefined) lazyMember(answer, 'body', () => JSON.parse(bodyText));
  if (match) lazyMember(answer, 'match', () => structuredClone(match));
  return answer;
}

/** A stored answer as listed. */
function listed(stored: Stored): OneOff {
  return {
    id: stored.id,
    endpoint: stored.endpoint,
    status: stored.status,
    ...(stored.headers ? { headers: { ...stored.headers } } : {}),
    ...(stored.bodyText !== undefined ? { body: JSON.parse(stored.bodyText) } : {}),
    ...(stored.match ? { match: structuredClone(stored.match) } : {}),
    validate: stored.validate,
    times: stored.times,
    remaining: stored.remaining,
  };
}

/**
 * The one-off slot's state and rule: the waiting one-off answers ({@link OneOffBook}) and who may
 * use `Prefer: code=` ({@link PreferAccess}). A request from the process itself (`MockCore.handle`
 * without `preferHeader`, MSW) may always; one over HTTP (the node:http adapter passes `'control'`)
 * may on an open control plane or with the control token in `X-Iacm-Mock-Control-Token` (compared in
 * constant time), and is otherwise answered as if it had no `Prefer`, with `x-iacm-mock-prefer:
 * ignored ...` on its answer.
 */
export class OneOffStage {
  /** The waiting one-off answers. */
  readonly book: OneOffBook;
  readonly #access: PreferAccess;
  /** Requests whose `Prefer: code=` was ignored, to say so on their answer. */
  readonly #ignored = new WeakSet<MockRequest>();

  /**
   * A slot with the control plane's access (for `Prefer` over HTTP), its one-off answers charged to
   * `ledger` (the memory budget's `oneOff` ledger; default one without a limit).
   */
  constructor(access: PreferAccess, ledger?: Ledger) {
    this.#access = access;
    this.book = new OneOffBook(ledger);
  }

  /**
   * The slot: the error `Prefer: code=` asks for (thrown), or the first matching one-off answer, or
   * `undefined` to go on to the operation. Answered at once (not a promise) for a request without
   * `Prefer: code=`, which has nothing to wait for.
   */
  apply(
    request: MockRequest,
    route: ResolvedRoute,
    account: AccountStore | undefined,
    input: MatchedInput,
    requestId: string,
    rule: PreferHeaderRule = 'always',
  ): Promise<MockResponse | undefined> | MockResponse | undefined {
    const code = preferredCode(request.headers);
    // Without `Prefer: code=` nothing waits: the one-off answer, if any, at once.
    if (code === undefined) return this.book.take(route.name, account?.account.id, input, requestId);
    return this.#applyPreferred(request, route, account, input, requestId, rule, code);
  }

  async #applyPreferred(
    request: MockRequest,
    route: ResolvedRoute,
    account: AccountStore | undefined,
    input: MatchedInput,
    requestId: string,
    rule: PreferHeaderRule,
    code: string,
  ): Promise<MockResponse | undefined> {
    if (await this.#mayPrefer(request, rule)) {
      const error = preferredError(route, code);
      if (error) throw error;
    } else this.#ignored.add(request);
    return this.book.take(route.name, account?.account.id, input, requestId);
  }

  /**
   * Says on the answer of a request whose `Prefer: code=` was ignored that it was (and why); answers
   * why, for the journal (`JournalEntry.preferIgnored`), or `undefined` when it was not ignored.
   */
  markAnswer(request: MockRequest, response: MockResponse): string | undefined {
    if (!this.#ignored.has(request)) return undefined;
    const reason =
      'over HTTP, Prefer: code= needs an open control plane or the X-Iacm-Mock-Control-Token header';
    if (!response.drop) response.headers[PREFER_IGNORED_HEADER] = `ignored: ${reason}`;
    return reason;
  }

  /** Removes every waiting one-off answer. */
  reset(): void {
    this.book.reset();
  }

  async #mayPrefer(request: MockRequest, rule: PreferHeaderRule): Promise<boolean> {
    if (rule === 'always' || this.#access.open) return true;
    const { token } = this.#access;
    const given = readHeader(request.headers, CONTROL_TOKEN_HEADER);
    return token !== undefined && given !== undefined && (await constantTimeEqual(given, token));
  }
}
