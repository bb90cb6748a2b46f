/**
 * Control routes of waits: `GET` and `POST /__mock/journal/wait` (`control.waitFor`) and
 * `GET /__mock/deliveries/next` (`control.nextDelivery`), bounded long polls; and the one check of a
 * wait's inputs, in process (timeouts up to 10 minutes) and over HTTP (up to 30 seconds).
 *
 * A wait that times out answers 408 `request_timeout` in the standard error shape (its message lists
 * what did arrive): the client's own time limit ran out, nothing failed on the server, so a client's
 * generic "retry on 5xx" does not resend it, and no gateway is blamed (504). 409 past 100 waits, or
 * when a wait's `match` would take the pending waits' `match`es past 16 MiB by the heap's measure
 * (`WAIT_LIMITS.maxMatchBytes`).
 *
 * @module
 */
import { type EndpointDefinition, endpointList, NOTIFICATION_TYPES, RUN_STATUSES } from '@iacm/sdk/contract';
import * as z from 'zod';
import { type NumberRange, rangeSchema } from '../errors/ranges.js';
import { parseOr400, validationError } from '../errors.js';
import { clip } from '../http/objects.js';
import { checkEndpointName } from '../pipeline/endpoint-name.js';
import { keptJson, MatchBody, matchIssues, type OneOffMatch } from '../pipeline/request-match.js';
import {
  type CheckedNextDelivery,
  type CheckedWaitFor,
  type CheckedWaitForRun,
  HTTP_WAIT_TIMEOUT_RANGE,
  WAIT_LIMITS,
  WAIT_TIMEOUT_RANGE,
} from '../pipeline/waiters.js';
import { queryNumber } from './journal.js';

/** A request id as the journal gives them (`req_0000000007`). A fixed pattern, never built from input. */
const REQUEST_ID = /^req_\d{1,16}$/;

/** Text of `since` (a keyword or a request id). */
const SinceText = z.string().min(1).max(64);

/** The members of a wait for journal entries, with `timeout` in `range`. */
function waitForSchema(range: NumberRange) {
  return z.strictObject({
    endpoint: z.unknown(),
    match: MatchBody.optional(),
    since: z
      .union([SinceText, z.object({ requestId: SinceText }), z.object({ id: SinceText })], {
        error: "expected 'now', 'start', a request id (req_0000000007) or an entry that has one",
      })
      .optional(),
    timeout: rangeSchema(range).optional(),
  });
}

const IN_PROCESS_WAIT_FOR = waitForSchema(WAIT_TIMEOUT_RANGE);
const HTTP_WAIT_FOR = waitForSchema(HTTP_WAIT_TIMEOUT_RANGE);

/**
 * Checks a wait for journal entries (`control.waitFor`'s name and options, `POST /__mock/journal/wait`'s
 * body, `GET /__mock/journal/wait`'s query): the endpoint name (400 naming the closest), `match`
 * against the endpoint's members, `since`, and `timeout` within `range`. One 400 names the field.
 * `match` is taken as JSON within the JSON bounds, in process too, and copied ({@link keptJson}): a
 * tree the mock owns, that the pending waits' budget measures (`WAIT_LIMITS.maxMatchBytes`).
 */
export function checkWaitFor(
  raw: unknown,
  over: 'process' | 'http' = 'process',
  location: 'body' | 'query' = 'body',
): CheckedWaitFor {
  const given = parseOr400(over === 'http' ? HTTP_WAIT_FOR : IN_PROCESS_WAIT_FOR, raw, location);
  const endpoint = checkEndpointName(given.endpoint, location);
  const definition = endpointList.find((d) => d.name === endpoint) as EndpointDefinition;
  // Within the JSON bounds and copied first (a hand-built value may have cycles), then checked.
  const { match } = keptJson({ match: given.match }) as { match?: OneOffMatch };
  const issues = matchIssues(definition, match as typeof given.match);
  if (issues.length > 0) throw validationError(issues);
  const since =
    given.since === undefined
      ? 'now'
      : typeof given.since === 'string'
        ? given.since
        : 'requestId' in given.since
          ? given.since.requestId
          : given.since.id;
  if (since !== 'now' && since !== 'start' && !REQUEST_ID.test(since)) {
    const received = JSON.stringify(clip(since, 40));
    const expected = "'now', 'start' or a request id (req_0000000007)";
    throw validationError([
      {
        location,
        path: 'since',
        message: `${location}.since: expected ${expected}, received ${received}`,
        expected,
        received,
      },
    ]);
  }
  return {
    endpoint,
    match,
    since,
    timeoutMs: given.timeout ?? WAIT_LIMITS.defaultTimeoutMs,
  };
}

/** The members of a wait for a delivery attempt, with `timeout` in `range`. */
function nextDeliverySchema(range: NumberRange) {
  return z.strictObject({
    kind: z.enum([...NOTIFICATION_TYPES, 'test']).optional(),
    integrationId: z.string().min(1).max(64).optional(),
    nickname: z.string().min(1).max(256).optional(),
    since: z.enum(['now', 'start']).optional(),
    timeout: rangeSchema(range).optional(),
  });
}

const IN_PROCESS_NEXT_DELIVERY = nextDeliverySchema(WAIT_TIMEOUT_RANGE);
const HTTP_NEXT_DELIVERY = nextDeliverySchema(HTTP_WAIT_TIMEOUT_RANGE);

/**
 * Checks a wait for a delivery attempt (`control.nextDelivery`'s options, `GET /__mock/deliveries/next`'s
 * query): `kind` (a notification type or `test`), `integrationId`, `nickname`, `since` and `timeout`.
 */
export function checkNextDelivery(
  raw: unknown,
  over: 'process' | 'http' = 'process',
  location: 'body' | 'query' = 'body',
): CheckedNextDelivery {
  const given = parseOr400(
    over === 'http' ? HTTP_NEXT_DELIVERY : IN_PROCESS_NEXT_DELIVERY,
    raw ?? {},
    location,
  );
  return {
    kind: given.kind,
    integrationId: given.integrationId,
    nickname: given.nickname,
    since: given.since ?? 'now',
    timeoutMs: given.timeout ?? WAIT_LIMITS.defaultTimeoutMs,
  };
}

/** The members of a wait for a run's status, with `timeout` in `range`. */
function waitForRunSchema(range: NumberRange) {
  const status = z.enum(RUN_STATUSES);
  return z.strictObject({
    workspaceId: z.string().min(1).max(64),
    status: z.union([status, z.array(status).min(1).max(RUN_STATUSES.length)], {
      error: `expected a run status (${RUN_STATUSES.join(', ')}) or a list of them`,
    }),
    runId: z.string().min(1).max(64).optional(),
    timeout: rangeSchema(range).optional(),
  });
}

const IN_PROCESS_WAIT_FOR_RUN = waitForRunSchema(WAIT_TIMEOUT_RANGE);
const HTTP_WAIT_FOR_RUN = waitForRunSchema(HTTP_WAIT_TIMEOUT_RANGE);

/**
 * Checks a wait for a run's status (`control.waitForRun`'s workspace id and options,
 * `POST /__mock/runs/wait`'s body): the workspace id, `status` (a run status or a list of them),
 * `runId` and `timeout` within the range of `over`. One 400 names the field.
 */
export function checkWaitForRun(raw: unknown, over: 'process' | 'http' = 'process'): CheckedWaitForRun {
  const given = parseOr400(over === 'http' ? HTTP_WAIT_FOR_RUN : IN_PROCESS_WAIT_FOR_RUN, raw ?? {}, 'body');
  return {
    workspaceId: given.workspaceId,
    statuses: typeof given.status === 'string' ? [given.status] : [...new Set(given.status)],
    runId: given.runId,
    timeoutMs: given.timeout ?? WAIT_LIMITS.defaultTimeoutMs,
  };
}

/** A query parameter given once, as text. */
const QueryText = z.string();

/** The query of `GET /__mock/journal/wait`. */
export const JournalWaitQuery = z.strictObject({
  endpoint: QueryText.optional(),
  since: QueryText.optional(),
  timeout: QueryText.optional(),
  accountId: QueryText.optional(),
});

/** The query of `GET /__mock/deliveries/next`. */
export const NextDeliveryQuery = z.strictObject({
  kind: QueryText.optional(),
  integrationId: QueryText.optional(),
  nickname: QueryText.optional(),
  since: QueryText.optional(),
  timeout: QueryText.optional(),
});

/** The query's members that are given, `timeout` as the number its text says. */
export function fromQuery(query: Record<string, string | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) out[name] = name === 'timeout' ? queryNumber(value) : value;
  }
  return out;
}

/** The body of `POST /__mock/waits/cancel` (`control.cancelWaits(reason)`): the reason their rejections name. */
export const CancelWaitsBody = z.strictObject({ reason: z.string().min(1).max(200).optional() });
