/**
 * The faults stage: injected answers, delays and dropped connections for the next matching API
 * requests (WireMock-style). The waiting faults and the fault-id counter live here. A fault names a
 * `path` (a glob, matched before routing: {@link FaultBook.apply}) or an `endpoint` of the contract,
 * with an optional `match` (partial body, partial query, account: `request-match.ts`, the one-off
 * answers' matcher), matched at the one-off slot after routing, authentication and validation
 * ({@link FaultBook.applyToEndpoint}).
 *
 * @module
 */

import { codeOfStatus, type EndpointName, endpoints } from '@iacm/sdk/contract';
import * as z from 'zod';
import { type NumberRange, rangeSchema } from '../errors/ranges.js';
import { HttpError } from '../errors.js';
import { droppedResponse, type MockResponse } from '../http/message.js';
import { lazyMember, sleep, stripUndefined } from '../http/objects.js';
import { globMatch } from '../query/glob.js';
import { KEPT_ITEM_BYTES, type Ledger, unboundedLedger } from '../store/budget.js';
import {
  checkKeptBytes,
  keptTextBytes,
  MatchBody,
  type MatchedInput,
  matchHeapBytes,
  type OneOffMatch,
  readKeptText,
  requestMatches,
} from './request-match.js';

/** The documented range of a delay, ms: a fault's `delayMs`, and the `delayMs` option (0 to 120 s). */
export const FAULT_DELAY_RANGE: NumberRange = Object.freeze({ min: 0, max: 120_000, unit: 'milliseconds' });

/** The documented range of a fault's `times`: how many matching requests it applies to (1 to 1,000,000). */
export const FAULT_TIMES_RANGE: NumberRange = Object.freeze({ min: 1, max: 1_000_000, unit: 'requests' });

/** The documented range of a fault's `status`: an HTTP status an answer can have (200 to 599). */
export const FAULT_STATUS_RANGE: NumberRange = Object.freeze({ min: 200, max: 599 });

/** What a fault does to the requests it matches: an answer, a delay or a dropped connection, `times` times. */
export interface FaultAction {
  /** How many matching requests it applies to. Default 1. */
  times?: number | undefined;
  /** Answer with this status instead of the real answer. */
  status?: number | undefined;
  /** Headers of the injected answer. */
  headers?: Record<string, string> | undefined;
  /** Body of the injected answer (default: the error body for `status`). */
  body?: unknown;
  /** Wait this long first; with no `status` and no `drop`, the real answer follows. */
  delayMs?: number | undefined;
  /** Close the connection without an answer. */
  drop?: boolean | undefined;
}

/** Which requests a path fault is for: method and path, matched before routing. */
export interface PathFaultTarget {
  /** Only requests with this method (any when absent). */
  method?: string | undefined;
  /** Path to match; `*` matches any characters (`/v2/guardrails*`). */
  path: string;
  /** A path fault names no endpoint. */
  endpoint?: undefined;
  /** A path fault has no `match` (the body and query are read after routing). */
  match?: undefined;
}

/** Which requests an endpoint fault is for: endpoint `N` of the contract, and those `match` selects. */
export interface EndpointFaultTarget<N extends EndpointName = EndpointName> {
  /** The endpoint (`workspaces.search`); its method and path are the endpoint's. */
  endpoint: N;
  /** Which requests to the endpoint (partial body, partial query, account; default: all). */
  match?: OneOffMatch<N> | undefined;
  /** An endpoint fault takes no path (the endpoint has one). */
  path?: undefined;
  /** An endpoint fault takes no method (the endpoint has one). */
  method?: undefined;
}

/**
 * A fault rule: the next `times` matching requests get this answer, delay or dropped connection. It
 * names exactly one of `path` (a glob, with `method`, matched before routing) and `endpoint` (with
 * `match`, matched after routing, authentication and validation).
 */
export type FaultRule<N extends EndpointName = EndpointName> = FaultAction &
  (PathFaultTarget | EndpointFaultTarget<N>);

/** A stored fault with how many uses it has left. */
export type Fault = FaultRule & {
  /** The fault's id. */
  id: string;
  /** Uses left. */
  remaining: number;
};

/**
 * The bounds of the faults stage: how many faults wait at once, the longest path pattern, how many
 * headers an injected answer has, and the largest `POST /__mock/faults` body (its route's limit).
 */
export const FAULT_LIMITS = Object.freeze({
  /** Faults waiting at once (a further `POST /__mock/faults` is a 409). */
  maxFaults: 1000,
  /** Characters of a fault's path pattern. */
  maxPathLength: 2048,
  /** Headers of an injected answer. */
  maxHeaders: 64,
  /** Bytes of a `POST /__mock/faults` body (64 KiB). */
  maxBodyBytes: 64 * 1024,
});

/** An HTTP header name (an RFC 9110 token), checked without a regular expression over user input. */
function isHeaderName(name: string): boolean {
  if (name.length === 0 || name.length > 256) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok =
      (c >= 48 && c <= 57) ||
      (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) ||
      "!#$%&'*+-.^_`|~".includes(name[i] as string);
    if (!ok) return false;
  }
  return true;
}

/** A header value without control characters (no CR/LF header injection), at most 8 KiB. */
function isHeaderValue(value: string): boolean {
  if (value.length > 8192) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 32 && c !== 9) || c === 127) return false;
  }
  return true;
}

/**
 * The headers an injected answer (a fault's, a one-off answer's, `validate: false` or not) may not
 * set, in any case: the server frames every answer itself (the node:http adapter writes the
 * `content-length` of the JSON it sends, and `connection: close` when it did not read the request's
 * body). They are the message framing of RFC 9112 §6 (`content-length`, `transfer-encoding`: both on
 * one answer is framing a client must refuse, RFC 9112 §6.1, and `fetch` fails), the hop-by-hop
 * headers RFC 9110 §7.6.1 names (`connection`, `proxy-connection`, `keep-alive`, `te`,
 * `transfer-encoding`, `upgrade`), and `trailer` (RFC 9110 §6.6.2: trailers follow only a chunked
 * body, which an answer of the mock never has). Setting one is a 400 `validation_failed` naming
 * `headers.<name>`.
 */
export const FRAMING_HEADERS: readonly string[] = Object.freeze([
  'connection',
  'content-length',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The issue of a header in {@link FRAMING_HEADERS}, after `headers.<name>: ` (the value follows as received). */
const FRAMING_HEADER_ISSUE = `expected a header other than ${FRAMING_HEADERS.join(', ')} (the mock frames each answer itself)`;

/**
 * The headers of an injected answer (a fault's, a one-off answer's): RFC 9110 names but those of
 * {@link FRAMING_HEADERS}, values without control characters (no CR/LF injection), at most
 * {@link FAULT_LIMITS} `maxHeaders` of them.
 */
export const AnswerHeaders = z
  .record(
    z
      .string()
      .refine(isHeaderName, { error: "expected a header name (letters, digits and !#$%&'*+-.^_`|~)" }),
    z.string().refine(isHeaderValue, {
      error: 'expected a header value without control characters, at most 8192 characters',
    }),
  )
  .refine((h) => Object.keys(h).length <= FAULT_LIMITS.maxHeaders, {
    error: `expected at most ${FAULT_LIMITS.maxHeaders} headers`,
  })
  .superRefine((headers, ctx) => {
    let found = 0;
    for (const name of Object.keys(headers)) {
      if (!FRAMING_HEADERS.includes(name.toLowerCase())) continue;
      ctx.addIssue({ code: 'custom', path: [name], message: FRAMING_HEADER_ISSUE });
      // Names differ only in case at most 2^17 ways: a few issues say it (and keep the 400 small).
      if (++found >= FAULT_LIMITS.maxHeaders) break;
    }
  });

const ENDPOINT_NAMES = Object.keys(endpoints) as [EndpointName, ...EndpointName[]];

/**
 * Body of `POST /__mock/faults` (and `control.addFault`'s): exactly one of `path` (with `method`)
 * and `endpoint` (with `match`); `times`, `status` and `delayMs` each within its range
 * (`FAULT_TIMES_RANGE`, `FAULT_STATUS_RANGE`, `FAULT_DELAY_RANGE`), a 400 naming the member, its
 * range and what came otherwise. (The control plane checks an endpoint name first, for a 400 naming
 * the closest names, and `match`'s members against the endpoint: `control/faults.ts`.)
 */
export const FaultBody = z
  .strictObject({
    method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).optional(),
    path: z
      .string()
      .min(1)
      .max(FAULT_LIMITS.maxPathLength)
      .startsWith('/', { error: 'expected a path starting with /' })
      .optional(),
    endpoint: z.enum(ENDPOINT_NAMES).optional(),
    match: MatchBody.optional(),
    times: rangeSchema(FAULT_TIMES_RANGE).optional(),
    status: rangeSchema(FAULT_STATUS_RANGE).optional(),
    headers: AnswerHeaders.optional(),
    body: z.unknown().optional(),
    delayMs: rangeSchema(FAULT_DELAY_RANGE).optional(),
    drop: z.boolean().optional(),
  })
  .superRefine((rule, ctx) => {
    const issue = (member: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [member], message });
    if (rule.path === undefined && rule.endpoint === undefined) {
      issue('path', 'expected a path (as /v2/guardrails*) or an endpoint (as workspaces.search)');
    }
    if (rule.endpoint !== undefined) {
      const { method, path } = endpoints[rule.endpoint];
      if (rule.path !== undefined) {
        issue('path', `expected a path or an endpoint, not both (${rule.endpoint} is ${method} ${path})`);
      }
      if (rule.method !== undefined) {
        issue('method', `expected no method with an endpoint (${rule.endpoint} is ${method} ${path})`);
      }
    } else if (rule.match !== undefined) {
      issue(
        'match',
        'expected match only with an endpoint (a path fault applies before the body and query are read): give endpoint instead of path',
      );
    }
    // The default body is the error shape: a success or redirect status needs a body of its own.
    if (rule.status !== undefined && rule.status < 400 && rule.body === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['body'],
        message: `a fault with status ${rule.status} needs a body (the default body is an error body, for 400 to 599)`,
      });
    }
  });

/** A fault rule as {@link FaultBody} parsed it. */
export type CheckedFaultRule = z.output<typeof FaultBody>;

/**
 * What a fault keeps takes by the heap's measure, bytes: its `match` as {@link matchHeapBytes}
 * counts it (two bytes a character of its JSON, 64 a value), its answer's `body` and `headers` as a
 * one-off answer's are counted (two bytes a character of their JSON text: the body is kept as that
 * text, `FaultBook`); nothing for what the rule does not have. What {@link FaultBook.add} charges
 * against the faults' budget (`MATCH_LIMITS.maxTotalBytes`).
 */
export function faultHeapBytes(rule: Pick<CheckedFaultRule, 'match' | 'body' | 'headers'>): number {
  return (
    matchHeapBytes(rule.match) +
    keptTextBytes(rule.body === undefined ? undefined : JSON.stringify(rule.body)) +
    keptTextBytes(rule.headers === undefined ? undefined : JSON.stringify(rule.headers))
  );
}

/** The options of a {@link FaultBook}. */
export interface FaultBookOptions {
  /** A delay added to every API answer, milliseconds (the `delayMs` option). Default 0. */
  delayMs?: number | undefined;
  /**
   * The memory budget's `faults` ledger, charged what each waiting fault keeps
   * ({@link faultHeapBytes}). Default: one without a limit (a book made alone).
   */
  ledger?: Ledger | undefined;
}

/**
 * The faults waiting to be injected, and the counter of fault ids. What each waiting fault keeps is
 * charged to the memory budget (`faults`, refusing: a 409 `budget_exceeded` past it) and released at
 * its last use, or when the faults are cleared or reset.
 */
export class FaultBook {
  /** The waiting faults, each without its `body` (kept apart as its JSON text). */
  readonly #faults: Fault[] = [];
  /** Each waiting fault's answer body as its JSON text (as a one-off answer's), parsed for each use. */
  readonly #bodyText = new WeakMap<Fault, string>();
  /** What each waiting fault takes by the heap's measure ({@link faultHeapBytes}). */
  readonly #keptBytes = new WeakMap<Fault, number>();
  /** What the waiting faults' `match`es, bodies and headers take together, bytes. */
  #bytes = 0;
  readonly #delayMs: number;
  /** The budget's `faults` ledger: what the waiting faults keep ({@link faultHeapBytes}). */
  readonly #ledger: Ledger;
  #count = 0;

  /**
   * Creates an empty book; `delayMs` is a delay added to every API answer (the `delayMs` option),
   * `ledger` the memory budget's `faults` ledger (default: one without a limit).
   */
  constructor(options: FaultBookOptions = {}) {
    this.#delayMs = options.delayMs ?? 0;
    this.#ledger = options.ledger ?? unboundedLedger('faults');
  }

  /** What the waiting faults' `match`es, bodies and headers take together, bytes ({@link faultHeapBytes}). */
  get bytes(): number {
    return this.#bytes;
  }

  /** How many faults are waiting. */
  get size(): number {
    return this.#faults.length;
  }

  /**
   * Adds a rule checked by {@link FaultBody} (by the route, or by `control.addFault`: a JSON value,
   * `match` a tree); answers the stored fault. 409 when {@link FAULT_LIMITS} `maxFaults` are waiting
   * already, or when what it keeps ({@link faultHeapBytes}: its `match`, its answer's `body` and
   * `headers`) would take the waiting faults past `MATCH_LIMITS.maxTotalBytes` by the heap's measure
   * (the one-off answers' budget, checked the same way); then 409 `budget_exceeded` when the memory
   * budget has no room for it. Nothing is kept (and no id is used) then.
   */
  add(parsed: CheckedFaultRule): Fault {
    if (this.#faults.length >= FAULT_LIMITS.maxFaults) {
      throw new HttpError(
        409,
        'conflict',
        `${FAULT_LIMITS.maxFaults} faults are waiting already, the most the mock keeps: remove some (DELETE /__mock/faults) first`,
      );
    }
    const bytes = faultHeapBytes(parsed);
    checkKeptBytes(
      this.#bytes,
      bytes,
      `the waiting faults' matches and answers (this one's: ${bytes} bytes)`,
      "a match's JSON at two bytes a character, its values at 64 bytes each; an answer's body and headers at two bytes a character of their JSON",
      'DELETE /__mock/faults, control.clearFaults()',
    );
    // The memory budget after the book's own bounds, before anything is kept (a 409 changes nothing).
    this.#ledger.charge(bytes + KEPT_ITEM_BYTES);
    const { body, ...rest } = stripUndefined(parsed);
    const fault = {
      ...rest,
      id: `fault_${++this.#count}`,
      remaining: parsed.times ?? 1,
    } as unknown as Fault;
    this.#faults.push(fault);
    if (body !== undefined) this.#bodyText.set(fault, JSON.stringify(body));
    this.#keptBytes.set(fault, bytes);
    this.#bytes += bytes;
    return this.#copyOf(fault);
  }

  /**
   * Copies of the faults still waiting (the kept ones never change). Reading is bounded as keeping
   * is: a listed fault's `match` is copied and its `body` parsed from its kept text only when, and
   * each time, it is read (as JSON writes it, one fault at a time), not for the whole list at once.
   */
  list(): Fault[] {
    return this.#faults.map((fault) => this.#listed(fault));
  }

  /** A fault as {@link list} lists it: its small members copied, its `match` and `body` read lazily. */
  #listed(fault: Fault): Fault {
    const { match, ...rest } = fault;
    const copy = structuredClone(rest) as Fault;
    if (match !== undefined) lazyMember(copy, 'match', () => structuredClone(match));
    const text = this.#bodyText.get(fault);
    if (text !== undefined) lazyMember(copy, 'body', () => readKeptText(text));
    return copy;
  }

  /** Removes every fault (and gives back the room they took, in the memory budget too). */
  clear(): void {
    this.#faults.length = 0;
    this.#bytes = 0;
    this.#ledger.releaseAll();
  }

  /**
   * Takes one use of the first path fault matching the request, if any. `*` in a fault's path matches
   * any characters; no regular expression is built from the pattern (a user's): {@link globMatch}.
   */
  take(method: string, path: string): Fault | undefined {
    return this.#use(
      this.#faults.findIndex(
        (f) =>
          f.path !== undefined && (f.method === undefined || f.method === method) && globMatch(f.path, path),
      ),
    );
  }

  /**
   * Takes one use of the first endpoint fault for `endpoint` whose `match` the request satisfies
   * (its account, its parsed query and body), if any.
   */
  takeEndpoint(
    endpoint: EndpointName,
    accountId: string | undefined,
    input: MatchedInput,
  ): Fault | undefined {
    return this.#use(
      this.#faults.findIndex((f) => f.endpoint === endpoint && requestMatches(f.match, accountId, input)),
    );
  }

  /**
   * Takes one use of the fault at `index` (none for -1), removing it (and the room it took) at its
   * last use; answers it with its body, parsed afresh from its text for this use.
   */
  #use(index: number): Fault | undefined {
    const fault = this.#faults[index];
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) {
      this.#faults.splice(index, 1);
      const bytes = this.#keptBytes.get(fault) ?? 0;
      this.#bytes -= bytes;
      this.#ledger.release(bytes + KEPT_ITEM_BYTES);
    }
    return this.#withBody({ ...fault }, fault);
  }

  /** A copy of a kept fault, its `match` and `headers` copied too, its `body` parsed from its text. */
  #copyOf(fault: Fault): Fault {
    return this.#withBody(structuredClone(fault), fault);
  }

  /** `copy` (of `fault`) with the body `fault` keeps as text, parsed; as it is when it has none. */
  #withBody(copy: Fault, fault: Fault): Fault {
    const text = this.#bodyText.get(fault);
    if (text !== undefined) copy.body = readKeptText(text);
    return copy;
  }

  /** Whether no fault waits and no delay is added: then neither stage has anything to do. */
  get idle(): boolean {
    return this.#faults.length === 0 && !this.#delayMs;
  }

  /**
   * The faults stage: takes the fault matching the request, waits its delay, and answers its
   * injected answer (a status, or a dropped connection); else waits the delay added to every answer
   * and answers `undefined`, letting the request go on.
   */
  async apply(method: string, path: string, requestId: string): Promise<MockResponse | undefined> {
    const fault = this.take(method, path);
    const injected = fault && (await injectedAnswer(fault, requestId));
    if (injected) return injected;
    if (this.#delayMs) await sleep(this.#delayMs);
    return undefined;
  }

  /**
   * The endpoint faults, at the one-off slot (after routing, authentication and validation): takes
   * the endpoint fault matching the request, waits its delay, and answers its injected answer (a
   * status, or a dropped connection); else `undefined`, letting the request go on (the delay added
   * to every answer was waited at the faults stage).
   */
  async applyToEndpoint(
    endpoint: EndpointName,
    accountId: string | undefined,
    input: MatchedInput,
    requestId: string,
  ): Promise<MockResponse | undefined> {
    const fault = this.takeEndpoint(endpoint, accountId, input);
    return fault && injectedAnswer(fault, requestId);
  }

  /** Removes every fault and numbers fault ids from 1 again. */
  reset(): void {
    this.clear();
    this.#count = 0;
  }
}

/**
 * What a fault taken for a request does: waits its delay, then answers its dropped connection or its
 * status (with its body, or the error body for the status); `undefined` when it only delays.
 */
async function injectedAnswer(fault: Fault, requestId: string): Promise<MockResponse | undefined> {
  if (fault.delayMs) await sleep(fault.delayMs);
  if (fault.drop) return droppedResponse();
  if (fault.status === undefined) return undefined;
  const body =
    fault.body !== undefined
      ? fault.body
      : {
          status: fault.status,
          code: codeFor(fault.status),
          message: `fault injected by the mock's control plane (status ${fault.status})`,
          requestId,
        };
  return {
    status: fault.status,
    headers: { 'content-type': 'application/json', ...lower(fault.headers) },
    body,
  };
}

/**
 * The error code of an injected answer's default body (a fault's, an unchecked one-off answer's): the
 * API's code for that status, else a generic one. The fault-only codes, `request_timeout` (408) and
 * `fault` (any other status the API error table lacks), are not API error codes: only an injected
 * answer has them (test/errors.test.ts keeps every other code in the mock paired with its status by
 * the contract's table).
 */
export function codeFor(status: number): string {
  return (
    codeOfStatus(status) ?? (status === 408 ? 'request_timeout' : status >= 500 ? 'internal_error' : 'fault')
  );
}

function lower(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
}
