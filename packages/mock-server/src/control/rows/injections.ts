/**
 * The rows of what a test makes the mock do: faults, one-off answers, the rate limit, the mock's
 * clock. Rows of the control table (`../table.ts`); `../declare.ts` says what a row holds.
 *
 * @module
 */
import type { EndpointName } from '@iacm/sdk/contract';
import type { Fault, FaultRule } from '../../pipeline/faults.js';
import { FAULT_LIMITS } from '../../pipeline/faults.js';
import { checkOneOff, ONE_OFF_LIMITS, type OneOff, type OneOffAnswer } from '../../pipeline/one-off.js';
import { SERVICE_RATE_LIMIT } from '../../pipeline/rate-limit.js';
import { ClockBody } from '../clock.js';
import { answers, capability } from '../declare.js';
import { checkFault } from '../faults.js';
import { RateLimitBody } from '../rate-limit.js';

/** An instant as `POST /__mock/clock` takes it: a Date or text `Date` reads as epoch ms; anything else as given (and checked). */
function epochOf(instant: unknown): unknown {
  if (instant instanceof Date) return instant.getTime();
  if (typeof instant !== 'string') return instant;
  const at = Date.parse(instant);
  return Number.isNaN(at) ? instant : at;
}

/** The rows of what a test makes the mock do: faults, one-off answers, the rate limit, the mock's clock. */
export const INJECTION_ROWS = {
  /**
   * Adds a fault (`POST /__mock/faults`); returns it with its id. It names exactly one of `path` (a
   * glob, with `method`: applied before routing) and `endpoint` (with `match`, the one-off answers'
   * matcher: applied after routing, authentication and validation). An unknown endpoint is a 400
   * naming `endpoint` and the closest names.
   */
  addFault: capability<<N extends EndpointName>(rule: FaultRule<N>) => Fault>()({
    route: {
      method: 'POST',
      path: '/__mock/faults',
      summary: 'inject a fault (status, delay, dropped connection) on a path or an endpoint',
      body: checkFault,
      status: 201,
      maxBodyBytes: FAULT_LIMITS.maxBodyBytes,
    },
    call: { sync: true, params: ['rule'], args: (rule) => ({ body: rule }) },
    resetStage: 'faults',
    docs: { about: 'inject a fault (below)' },
    writes: ['faults'],
    option: { option: 'delayMs', flag: '--delay <ms>' },
  }),
  /** The faults still waiting. */
  faults: capability<() => Fault[]>()({
    route: { method: 'GET', path: '/__mock/faults', summary: 'faults still waiting' },
    call: { sync: true, args: () => ({}) },
    docs: { about: 'faults still waiting' },
    writes: [],
  }),
  /** Removes every fault. */
  clearFaults: capability<() => void>()({
    route: { method: 'DELETE', path: '/__mock/faults', summary: 'remove all faults', status: 204 },
    call: { sync: true, args: () => ({}) },
    resetStage: 'faults',
    docs: { about: 'remove all faults' },
    writes: ['faults'],
  }),
  /**
   * Sets a one-off answer of endpoint `name` (`POST /__mock/responses`): the next `times` (default 1)
   * requests to it that `match` selects (partial body, partial query, `accountId`) get `status`
   * (default: the success status) with `body` and `headers`, after authentication and validation,
   * instead of the operation. The body is typed by the endpoint and checked against the contract's
   * strict schemas (the endpoint's answer for its success status; the error body for one of its
   * documented errors), unless `validate: false`; a bad one is a 400 naming the path. 409 past
   * `ONE_OFF_LIMITS`. `reset()` removes them (with the faults).
   */
  respond: capability<<N extends EndpointName>(name: N, answer: OneOffAnswer<N>) => OneOff>()({
    route: {
      method: 'POST',
      path: '/__mock/responses',
      summary: 'set a one-off answer of an endpoint, checked against the strict contract',
      body: checkOneOff,
      status: 201,
      maxBodyBytes: ONE_OFF_LIMITS.maxBodyBytes,
    },
    call: {
      sync: true,
      params: ['name', 'answer'],
      args: (name, answer) => ({ body: { ...answer, endpoint: name } }),
      docs: 'control.respond(name, a)',
    },
    resetStage: 'faults',
    docs: {
      about:
        'set a one-off answer of an endpoint, checked against the strict contract ([One-off answers](#one-off-answers))',
    },
    writes: ['oneOff'],
  }),
  /** The one-off answers still waiting, oldest first. */
  responses: capability<() => OneOff[]>()({
    route: { method: 'GET', path: '/__mock/responses', summary: 'one-off answers still waiting' },
    call: { sync: true, args: () => ({}) },
    docs: { about: 'one-off answers still waiting' },
    writes: [],
  }),
  /** Removes every one-off answer. */
  clearResponses: capability<() => void>()({
    route: {
      method: 'DELETE',
      path: '/__mock/responses',
      summary: 'remove all one-off answers',
      status: 204,
    },
    call: { sync: true, args: () => ({}) },
    resetStage: 'faults',
    docs: { about: 'remove all one-off answers' },
    writes: ['oneOff'],
  }),
  /**
   * Turns the rate limit on (`true` = 500 per 60 s, or a custom limit: `limit` 1 to 1,000,000,
   * `windowSeconds` 1 to 86,400) or off (`false`); 400 naming the member out of range.
   */
  setRateLimit: capability<(limit: boolean | { limit?: number; windowSeconds?: number }) => void>()({
    route: {
      method: 'POST',
      path: '/__mock/rate-limit',
      summary: "the service's rate limit, off by default: { enabled, limit?, windowSeconds? }",
      body: RateLimitBody,
    },
    call: {
      sync: true,
      params: ['limit'],
      args: (limit) => ({
        body: typeof limit === 'object' && limit !== null ? { enabled: true, ...limit } : { enabled: limit },
      }),
      result: () => undefined,
      docs: 'control.setRateLimit(...)',
    },
    answer: answers<{ enabled: boolean; limit?: number; windowSeconds?: number }>(),
    resetStage: 'rateLimit',
    docs: {
      about:
        'the service\'s rate limit (500 per 60 s per client: the socket address, or with `--trust-proxy`/`trustProxy` the last `X-Forwarded-For` entry; "local" in-process), off by default; over it → 429 with `Retry-After`',
    },
    writes: ['rateLimit'],
    option: {
      option: 'rateLimit',
      flag: '--rate-limit',
      help: `enforce the service's rate limit (${SERVICE_RATE_LIMIT.limit} requests per ${SERVICE_RATE_LIMIT.windowSeconds} s per client)`,
    },
  }),
  /** The mock's clock: read, stop, move or resume it (`control.clock.*`, `GET`/`POST /__mock/clock`). */
  clock: {
    /** The current instant of the mock's clock, epoch milliseconds (`GET /__mock/clock` answers it as ISO 8601). */
    now: capability<() => number>()({
      route: { method: 'GET', path: '/__mock/clock', summary: "the mock's clock" },
      call: {
        sync: true,
        args: () => ({}),
        result: (answer: { now: string }) => Date.parse(answer.now),
        docs: 'control.clock.now()',
      },
      docs: { about: "the mock's clock: `{ now }` (ISO 8601; in process, epoch milliseconds)" },
      writes: [],
      option: {
        option: 'clock',
        flag: '--clock <real|manual>',
        help: "real (default): the mock's clock runs; manual: it stands at the start instant\nuntil POST /__mock/clock moves it (timed runs and scenarios then wait for it)",
      },
    }),
    /** `POST /__mock/clock`: stops, moves or resumes the clock (`control.clock.set`, `advance`, `resume`). */
    move: capability()({
      route: {
        method: 'POST',
        path: '/__mock/clock',
        summary: "stop, move or resume the mock's clock: { now } | { advanceMs } | { resume: true }",
        body: ClockBody,
      },
      answer: answers<{ now: string }>(),
      resetStage: 'clock',
      docs: {
        about:
          'one request for the three: `{ now }` stops it at an instant, `{ advanceMs }` moves it, `{ resume: true }` lets it run; answers `{ now }`',
        call: '`control.clock.set`, `advance`, `resume`',
      },
      writes: ['clock', 'data', 'scenario', 'timedRuns', 'webhooks'],
    }),
    /**
     * Stops the clock at an instant (epoch ms, ISO 8601 or a Date) from 1970-01-01T00:00:00.000Z to
     * 9999-12-31T23:59:59.999Z; an `HttpError` 400 naming `now`, the range and what came otherwise.
     * The steps that became due apply (timed runs, a scenario), then the delivery retries.
     */
    set: capability<(instant: number | string | Date) => void>()({
      via: 'clock.move',
      call: {
        sync: true,
        params: ['instant'],
        // A Date as its epoch ms; text `Date` reads (any ISO 8601 form, as `MockCore.clock.set` takes) too.
        args: (instant) => ({ body: { now: epochOf(instant) } }),
        result: () => undefined,
      },
      resetStage: 'clock',
      docs: {
        about:
          'stop the clock at an instant (ISO 8601, epoch ms or a `Date` in process); the steps that became due apply',
        request: '`POST /__mock/clock` `{ now }`',
      },
      writes: ['clock'],
    }),
    /**
     * Moves the clock by `ms` milliseconds, at most 315,360,000,000 (10 years) either way, to an instant
     * within its range; an `HttpError` 400 naming `advanceMs` otherwise.
     */
    advance: capability<(ms: number) => void>()({
      via: 'clock.move',
      call: {
        sync: true,
        params: ['ms'],
        args: (ms) => ({ body: { advanceMs: ms } }),
        result: () => undefined,
      },
      resetStage: 'clock',
      docs: {
        about:
          'move the clock by `advanceMs` (either way, at most 10 years); the steps that became due apply, then the delivery retries',
        request: '`POST /__mock/clock` `{ advanceMs }`',
      },
      writes: ['clock'],
    }),
    /** Lets the clock run from the underlying clock again. */
    resume: capability<() => void>()({
      via: 'clock.move',
      call: { sync: true, args: () => ({ body: { resume: true } }), result: () => undefined },
      resetStage: 'clock',
      docs: {
        about: 'let the clock run from the underlying clock again',
        request: '`POST /__mock/clock` `{ resume: true }`',
      },
      writes: ['clock'],
    }),
  },
} as const;
