/**
 * A mock's options: what `createMockServer`, `MockCore` and `listen` take ({@link MockOptions}), their
 * documented defaults and ranges ({@link OPTION_RANGES}), and the start configuration they resolve
 * to once ({@link startConfiguration}). Every numeric option, alone or in a group (rate limit,
 * delivery policy, retention, login throttle, caps, journal and body sizes, delay, token lifetime),
 * is checked by the one range helper of `errors/ranges.ts`: a `RangeError` naming the option, its
 * range and what came (`MockOptions rateLimit.limit: expected an integer from 1 to 1000000
 * (requests), received 0`). The same ranges check the control plane's HTTP bodies.
 *
 * @module
 */

import {
  DEFAULT_TOKEN_TTL_SECONDS,
  type LoginThrottleOption,
  type LoginThrottleSetting,
  toLoginThrottle,
} from '../auth/login.js';
import type { ControlAccess } from '../control/access.js';
import { type CheckedData, checkData, type DataSource, reloadable } from '../control/data.js';
import { type AccountLimits, toAccountLimits } from '../domain/caps.js';
import { type DeliveryPolicy, toDeliveryPolicy } from '../domain/delivery-policy.js';
import { type RetentionBounds, toRetentionBounds } from '../domain/retention.js';
import type { CheckedScenario, Scenario } from '../domain/scenario.js';
import { checkOptionRange, type NumberRange, resolveOptionGroup } from '../errors/ranges.js';
import { DEFAULT_MAX_BODY_BYTES } from '../pipeline/body.js';
import { FAULT_DELAY_RANGE } from '../pipeline/faults.js';
import {
  DEFAULT_JOURNAL_BODY_BYTES,
  DEFAULT_JOURNAL_LIMIT,
  DEFAULT_JOURNAL_MAX_BYTES,
  JOURNAL_RANGES,
  type JournalBounds,
} from '../pipeline/journal.js';
import { type RateLimit, type TrustProxy, toRateLimit } from '../pipeline/rate-limit.js';
import { type BudgetOptions, toBudgetOptions } from '../store/budget.js';
import { checkSeedOption, checkSeedSizes, SIZE_GROUP } from '../store/seed/limits.js';
import type { Scene } from '../store/seed/scene.js';
import { DEFAULT_SEED, type MockState, type SeedSizes } from '../store/state.js';
import { type SessionBounds, toSessionBounds } from './sessions.js';

/** Options of a mock server core. */
export interface MockOptions {
  /**
   * Seed of the generated data: an integer (a safe one, -(2^53 - 1) to 2^53 - 1) or a text of 1 to
   * 200 characters, as `POST /__mock/seed` takes. Default 1. Else a `RangeError`.
   */
  seed?: number | string;
  /**
   * Sizes of the generated data (merged with the defaults), each within its range: `accounts` 1 to
   * 50, `workspaces` 0 to 100,000, `runsPerWorkspace` 0 to 100, `rules` 0 to 10,000, `stacks` 0 to
   * 100,000, `events` 0 to 1,000,000, `integrations` 1 to 1,000, and all of them together within
   * about 1.5 GB of memory (as `POST /__mock/seed` and the CLI's size flags). Out of range: a
   * `RangeError` naming the size.
   */
  sizes?: Partial<SeedSizes>;
  /**
   * Start from this snapshot instead of generating data. Checked as `control.setState` and `PUT
   * /__mock/state` check one: an `HttpError` 400 naming the first bad record and field.
   */
  state?: MockState;
  /**
   * Start from this scene (`docs/testing-with-the-mock.md`, "Scenes"): the accounts, workspaces and
   * runs, rules, stacks and findings, events and webhook integrations it names, exactly, and what it
   * leaves out generated from its seed (the `seed` option when the scene has none). `reset()` returns
   * to it. Checked whole first: an `HttpError` 400 naming the path, what was expected and what came.
   * Not with `state` or `sizes`.
   */
  scene?: Scene;
  /**
   * Start from this scenario (`docs/testing-with-the-mock.md`, "Scenarios"): its scene is the start
   * data (as the `scene` option), and its timeline plays on the mock's clock from its now at the start.
   * `reset()` loads the scene again and plays the timeline again from the clock's now after the reset.
   * Checked whole first: an `HttpError` 400 naming the path (`scenario.timeline[3].at: ...`). Not with
   * `scene`, `state` or `sizes`.
   */
  scenario?: Scenario;
  /**
   * Called while data is generated (at the start, and again on `reset()` and `seed()`), for a
   * progress display: `done` of `total` workspaces and events are generated (as `generateState`'s
   * `onProgress`: every 5,000, then `total` of `total`). Data already in memory (the same seed and
   * sizes, a reset) is not generated again: told once, `total` of `total`. Not called for a snapshot
   * (`state`).
   */
  onSeedProgress?: (done: number, total: number) => void;
  /** Key pair of the primary account, replacing the generated one. */
  primaryKeys?: { accessKey: string; secretKey: string };
  /** The clock, epoch milliseconds. Default `Date.now`. */
  clock?: () => number;
  /** Lifetime of a login token, seconds: 1 to 31,536,000 (a year). Default 3600. */
  tokenTtlSeconds?: number;
  /** How many requests the journal keeps (oldest dropped first): 0 to 1,000,000. Default 500. */
  journalLimit?: number;
  /**
   * How many bytes of memory the journal's entries take at most (oldest dropped first): each entry is
   * kept as JSON text and counted as 2 bytes per character plus a fixed overhead, at least what it
   * takes in the heap. 0 to 1 GiB; default 16 MiB.
   */
  journalMaxBytes?: number;
  /**
   * The largest request body the journal keeps, in characters of its redacted JSON text; larger ones
   * are written as `[too large to keep: ...]`. 0 to 16 MiB; default 64 KiB.
   */
  journalBodyBytes?: number;
  /** A delay added to every API answer, milliseconds: 0 to 120,000. Default 0. */
  delayMs?: number;
  /** The `fetch` webhook deliveries use. Default: the global `fetch`. */
  webhookFetch?: typeof fetch;
  /**
   * Delivery retries: `attempts` (1 to 10, default 5), `baseDelayMs` (the first delay, doubled each
   * time, with seeded jitter; 100 to 60,000, default 1,000), `maxDelayMs` (the longest delay, which also
   * caps a `Retry-After`; 100 to 600,000, default 60,000), `maxTotalMs` (all retries of one delivery;
   * 1,000 to 3,600,000, default 600,000), `timeoutMs` (per attempt; 100 to 120,000, default 10,000).
   * Out of range: a `RangeError` naming the member.
   */
  deliveryPolicy?: Partial<DeliveryPolicy>;
  /**
   * Retention bounds, oldest dropped first: `eventsPerAccount` (1,100,000), `outboxPerAccount`
   * (1,000), `deliveryAttempts` (10,000), `waitingRetries` (10,000). Out of range: a `RangeError`
   * naming the bound.
   */
  retention?: Partial<RetentionBounds>;
  /**
   * Per-account caps on what the API adds, each a 409 `conflict` naming it past its limit:
   * `rulesPerAccount` (10,000), `ruleBytesPerAccount` (128 MiB), `notificationsPerAccount` (20,000). A
   * loaded state that holds more is kept whole. Out of range: a `RangeError` naming the cap.
   */
  limits?: Partial<AccountLimits>;
  /** A rate limit per client address; off by default. `true` is the service's 500 per 60 s. */
  rateLimit?: boolean | { limit: number; windowSeconds: number };
  /** The largest API request body, bytes (413 beyond, before it is read in full): 1 to 256 MiB. Default 1 MiB. */
  maxBodyBytes?: number;
  /**
   * Failed logins per access key: after `maxFailures` (20) in `windowSeconds` (60) of the mock's
   * clock, 429 with Retry-After; at most `maxKeys` (10,000) keys tracked. `false`: off.
   */
  loginThrottle?: LoginThrottleOption;
  /**
   * Proxies trusted to name the client (for the rate limit) by `X-Forwarded-For`: `true` one, a
   * number that many (0 to 100). Default `false`: the client is the socket address.
   */
  trustProxy?: TrustProxy;
  /**
   * The key login tokens are signed with (HS256). By default each mock draws a random one from
   * `crypto.getRandomValues` when it is created and keeps it across `reset()` (it is never part of a
   * snapshot). **Unsafe outside tests:** anyone who knows the key can forge a token for any account.
   * Give one only to get byte-identical tokens across runs.
   */
  unsafeTokenSigningKey?: string;
  /**
   * Serve the control plane over HTTP (`/__mock`). Default `true`; with `false` every `/__mock` path
   * answers 404 (the in-process `control` methods still work).
   */
  control?: boolean;
  /**
   * A bearer token every `/__mock` request over HTTP must carry (`Authorization: Bearer <token>`;
   * 403 otherwise). Default: none. `listen` requires one (or `control: false`) on a non-loopback bind.
   */
  controlToken?: string;
  /**
   * Give every account a random key pair (from `crypto.getRandomValues`) instead of the seed's or a
   * snapshot's (`state`, `setState`, `PUT /__mock/state`: a snapshot saved from a loopback mock holds
   * the public demo pairs), kept across resets and reseeds (`primaryKeys` still wins for the primary
   * account). `listen` turns it on for a non-loopback bind. Default `false`: the seeded pairs are
   * documented test fixtures.
   */
  randomKeyPairs?: boolean;
  /**
   * With `randomKeyPairs`, a snapshot keeps its own key pairs (the CLI's `--keep-state-keys`): whoever
   * has the snapshot can log in. Default `false`.
   */
  keepStateKeys?: boolean;
  /**
   * Sessions (`POST /__mock/sessions`, `control.createSession`): `max`, the most at a time (0 to 1,000;
   * default 32; 409 `conflict` past it), and `idleMs`, the wall-clock time after its last request that
   * a session is ended (1,000 to 604,800,000; default 1,800,000, 30 minutes). Out of range: a
   * `RangeError` naming the bound.
   */
  sessions?: Partial<SessionBounds>;
  /**
   * The memory budget (`docs/security.md`, "The memory budget"): `bytes`, what the mock keeps at run
   * time beyond its start data, by the heap's measure, its sessions included (1 MiB to 64 GiB; default
   * half the heap limit where the runtime tells it: Node, Bun, Deno; else 256 MiB); `sessionBytes`, what one session
   * keeps of it (0 to `bytes`; default a quarter of `bytes`). Every store charges what it keeps when
   * it keeps it: past the budget a write is a 409 `budget_exceeded` naming the store and the option,
   * and the journal, the event log and the attempt log drop their oldest entries instead. Out of
   * range: a `RangeError` naming the member. `control.budget()` answers what is used.
   */
  budget?: Partial<BudgetOptions>;
}

export type { DataSource } from '../control/data.js';

/**
 * What a mock starts with, resolved once from its options: `reset()` returns every part of the state
 * to it, and nothing at run time changes it.
 */
export interface StartConfiguration {
  /** The start data. */
  readonly data: DataSource;
  /** The scenario whose scene is the start data, and whose timeline plays at the start and after each reset. */
  readonly scenario: CheckedScenario | undefined;
  /** The rate limit (`undefined`: off). */
  readonly rateLimit: RateLimit | undefined;
  /** The webhook delivery retry policy. */
  readonly deliveryPolicy: DeliveryPolicy;
  /** The retention bounds. */
  readonly retention: RetentionBounds;
  /** The per-account caps. */
  readonly limits: AccountLimits;
  /** The delay added to every API answer, milliseconds. */
  readonly delayMs: number;
  /** The journal's bounds. */
  readonly journal: Required<JournalBounds>;
  /** The largest API request body, bytes. */
  readonly maxBodyBytes: number;
  /** Who may use the control plane over HTTP. */
  readonly controlAccess: ControlAccess;
  /** The failed-login throttle (`undefined`: off). */
  readonly loginThrottle: LoginThrottleSetting | undefined;
  /** How many proxies name the client. */
  readonly trustProxy: TrustProxy;
  /** Lifetime of a login token, seconds. */
  readonly tokenTtlSeconds: number;
  /** The sessions' bounds. */
  readonly sessions: SessionBounds;
  /** The memory budget and a session's share of it. */
  readonly budget: BudgetOptions;
}

/**
 * The documented range of each numeric option that stands alone (the groups have theirs:
 * `RATE_LIMIT_RANGES`, `DELIVERY_POLICY_RANGES`, `RETENTION_RANGES`, `LOGIN_THROTTLE_RANGES`, the
 * caps' and the seed sizes'): a token lives 1 s to a year; the delay added to every answer is 0 to
 * 120 s (as a fault's); an API body is 1 byte to 256 MiB; the journal's bounds are
 * `JOURNAL_RANGES`; `trustProxy`, as a number, is 0 to 100 proxies.
 */
export const OPTION_RANGES = Object.freeze({
  tokenTtlSeconds: { min: 1, max: 31_536_000, unit: 'seconds' },
  delayMs: FAULT_DELAY_RANGE,
  maxBodyBytes: { min: 1, max: 256 * 1024 * 1024, unit: 'bytes' },
  journalLimit: JOURNAL_RANGES.limit,
  journalMaxBytes: JOURNAL_RANGES.maxBytes,
  journalBodyBytes: JOURNAL_RANGES.maxBodyBytes,
  trustProxy: { min: 0, max: 100, unit: 'proxies' },
} as const satisfies Record<string, NumberRange>);

/** An option that stands alone, checked against {@link OPTION_RANGES}; its default when absent. */
function numberOption(options: MockOptions, name: keyof typeof OPTION_RANGES, fallback: number): number {
  const value = options[name];
  return value === undefined || typeof value === 'boolean'
    ? fallback
    : checkOptionRange(`MockOptions ${name}`, value, OPTION_RANGES[name]);
}

/**
 * The data the `seed` and `sizes` options ask for, checked as `POST /__mock/seed` checks them: the
 * seed (`SEED_RANGE` or a text of `SEED_TEXT_LENGTH`), each size within `SIZE_RANGES`, then all of
 * them within the memory budget; a `RangeError` naming the option otherwise (`MockOptions
 * sizes.accounts: expected an integer from 1 to 50, received 0`), as every numeric option's.
 */
function seededData(options: MockOptions): CheckedData {
  const seed = options.seed === undefined ? DEFAULT_SEED : checkSeedOption('MockOptions seed', options.seed);
  const sizes = resolveOptionGroup(SIZE_GROUP, options.sizes, 'MockOptions sizes', 'size');
  const problem = checkSeedSizes(sizes);
  if (problem) throw new RangeError(`MockOptions ${problem.field}: ${problem.message}`);
  return { source: { seed, sizes } };
}

/**
 * The start data, checked by the one check of data (`control/data.ts`): the `scenario` (its scene's
 * seed from the `seed` option when it has none), the `state` snapshot, the `scene` (seeded so too),
 * or the seed and sizes. One form at a time: a `RangeError` naming the options given together.
 */
function startData(options: MockOptions): CheckedData {
  const seedOption = () =>
    options.seed === undefined ? undefined : checkSeedOption('MockOptions seed', options.seed);
  if (options.scenario !== undefined) {
    if (options.scene !== undefined || options.state !== undefined || options.sizes !== undefined) {
      throw new RangeError(
        'MockOptions scenario: expected a scenario alone, without scene, state or sizes (its scene says what the data holds)',
      );
    }
    return checkData('scenario', options.scenario, { seed: seedOption() });
  }
  if (options.scene !== undefined) {
    if (options.state !== undefined || options.sizes !== undefined) {
      throw new RangeError(
        'MockOptions scene: expected a scene alone, without state or sizes (a scene says what it holds)',
      );
    }
    return checkData('scene', options.scene, { seed: seedOption() });
  }
  return options.state ? reloadable(checkData('snapshot', options.state)) : seededData(options);
}

/** Who may use the control plane over HTTP, as the options say (`control`, `controlToken`). */
export function controlAccessOf(options: Pick<MockOptions, 'control' | 'controlToken'>): ControlAccess {
  return { enabled: options.control !== false, token: options.controlToken };
}

/**
 * What a mock starts with, resolved once from its options: every option checked against its range;
 * the data from `given` when it was checked already (a session's), else from the options.
 * @throws RangeError naming the first option out of its range; an `HttpError` 400 for a `state` that
 * is not a snapshot.
 */
export function startConfiguration(options: MockOptions, given?: CheckedData): StartConfiguration {
  const trustProxy = options.trustProxy ?? false;
  const data = given ? reloadable(given) : startData(options);
  return Object.freeze({
    data: data.source,
    scenario: data.scenario,
    rateLimit: toRateLimit(options.rateLimit),
    deliveryPolicy: toDeliveryPolicy(options.deliveryPolicy),
    retention: toRetentionBounds(options.retention),
    limits: toAccountLimits(options.limits),
    delayMs: numberOption(options, 'delayMs', 0),
    journal: {
      limit: numberOption(options, 'journalLimit', DEFAULT_JOURNAL_LIMIT),
      maxBytes: numberOption(options, 'journalMaxBytes', DEFAULT_JOURNAL_MAX_BYTES),
      maxBodyBytes: numberOption(options, 'journalBodyBytes', DEFAULT_JOURNAL_BODY_BYTES),
    },
    maxBodyBytes: numberOption(options, 'maxBodyBytes', DEFAULT_MAX_BODY_BYTES),
    controlAccess: controlAccessOf(options),
    loginThrottle: toLoginThrottle(options.loginThrottle),
    trustProxy: typeof trustProxy === 'boolean' ? trustProxy : numberOption(options, 'trustProxy', 0),
    tokenTtlSeconds: numberOption(options, 'tokenTtlSeconds', DEFAULT_TOKEN_TTL_SECONDS),
    sessions: toSessionBounds(options.sessions),
    budget: toBudgetOptions(options.budget),
  });
}
