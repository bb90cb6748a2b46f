/**
 * A mock's sessions ({@link SessionHost}): what a session's core is made from (this mock's options
 * with the session's data source, and its share of the mock's memory budget, `store/budget.ts`), and
 * the requests that name one.
 *
 * @module
 */
import { type ControlAccess, checkControlAccess } from '../control/access.js';
import type { CheckedSessionSource, SessionControl, SessionCreated } from '../control/route.js';
import type { HandleOptions, MockRequest, MockResponse } from '../http/message.js';
import { stripUndefined } from '../http/objects.js';
import { checkHost } from '../pipeline/host.js';
import { readRequestLine } from '../pipeline/request.js';
import { errorResponse, withRequestId } from '../pipeline/respond.js';
import { MemoryBudget } from '../store/budget.js';
import type { MockAccount } from '../store/state.js';
import { type PreparedData, prepareData, sessionBytes } from './data.js';
import { type MockOptions, type StartConfiguration, startConfiguration } from './options.js';
import { randomHex } from './secrets.js';
import { MockSessions, type SessionUse } from './sessions.js';

/**
 * A session's options: the mock's (control access, bounds, policies, clock...) without its data
 * source, its signing key or its sessions, and the session's seed (default: the `seed` and `sizes`
 * options). Its data, checked already, is given to its start configuration as it is.
 */
export function sessionOptions(options: MockOptions, source: CheckedSessionSource): MockOptions {
  const {
    seed,
    sizes,
    state: _state,
    scene: _scene,
    scenario: _scenario,
    onSeedProgress: _progress,
    unsafeTokenSigningKey: _key,
    sessions: _sessions,
    ...shared
  } = options;
  if (source.data === undefined) return stripUndefined({ ...shared, seed, sizes });
  return stripUndefined({ ...shared, seed: source.seed });
}

/**
 * Marks the options of a session's core (package-private: a session does not make sessions), with
 * its start configuration, resolved once by the mock that makes it (for its memory estimate too),
 * and its share of the mock's memory budget.
 */
const IN_SESSION: unique symbol = Symbol('iacm-mock-session');

/** What the mock that owns a session makes its core with. */
export interface SessionStart {
  /** The session's start configuration. */
  readonly start: StartConfiguration;
  /** The session's share of the mock's memory budget: everything the session keeps is charged to it. */
  readonly budget: MemoryBudget;
  /** Its start data made ready in slices (`prepareData`), for its core's first load to take. */
  readonly prepared?: PreparedData | undefined;
}

/** The options of a session's core, as the mock that owns it makes them. */
type SessionOptions = MockOptions & { [IN_SESSION]?: SessionStart };

/** A core's start configuration: a session's, resolved by the mock that made it; else from the options. */
export function startOf(options: MockOptions): StartConfiguration {
  return (options as SessionOptions)[IN_SESSION]?.start ?? startConfiguration(options);
}

/** A session core's start data made ready by its mock (`prepareData`), else `undefined`. */
export function preparedOf(options: MockOptions): PreparedData | undefined {
  return (options as SessionOptions)[IN_SESSION]?.prepared;
}

/**
 * A core's memory budget: a session's, its share of the mock's (made by the mock that made it); else
 * a budget of its own, as the options say (`budget.bytes`).
 */
export function budgetOf(options: MockOptions, start: StartConfiguration): MemoryBudget {
  return (options as SessionOptions)[IN_SESSION]?.budget ?? new MemoryBudget(start.budget.bytes);
}

/**
 * The sessions of a mock made with `options`, or `undefined` for a session's own core. `make` makes a
 * session's core from its options (its start configuration inside them, read back by {@link startOf}).
 */
export function sessionHostOf<T extends SessionCore>(
  options: MockOptions,
  start: StartConfiguration,
  budget: MemoryBudget,
  make: (options: MockOptions) => T,
  stop: (core: T, reason: string) => void,
): SessionHost<T> | undefined {
  if ((options as SessionOptions)[IN_SESSION]) return undefined;
  return new SessionHost<T>(
    options,
    start,
    budget,
    (own, owned) => make({ ...own, [IN_SESSION]: owned } as SessionOptions),
    stop,
  );
}

/** What a session host needs of the core type it makes sessions of. */
interface SessionCore {
  /** The core's accounts, primary first. */
  accounts(): MockAccount[];
  /** Handles one request. */
  handle(request: MockRequest, options: HandleOptions): Promise<MockResponse>;
}

/**
 * The sessions of one mock (`X-Iacm-Mock-Session`): made from the mock's options and a checked
 * source, bounded by its `sessions` option and the sessions' memory budget, and the requests that
 * name one handed to it.
 */
export class SessionHost<T extends SessionCore> {
  readonly #sessions: MockSessions<T>;
  readonly #options: MockOptions;
  readonly #access: ControlAccess;
  readonly #make: (options: MockOptions, session: SessionStart) => T;
  readonly #budget: MemoryBudget;
  readonly #sessionBytes: number;

  /**
   * @param options the mock's options (a session's are made from them, `sessionOptions`).
   * @param start the mock's start configuration (its session bounds, control access and budget).
   * @param budget the mock's memory budget, of which each session gets its share.
   * @param make makes a session's core from its options, its start configuration and its budget.
   * @param stop ends a session's core (its waits cancelled, its timers stopped).
   * @param wall the wall clock sessions are idle by, epoch milliseconds (default `Date.now`).
   */
  constructor(
    options: MockOptions,
    start: StartConfiguration,
    budget: MemoryBudget,
    make: (options: MockOptions, session: SessionStart) => T,
    stop: (core: T, reason: string) => void,
    wall: () => number = Date.now,
  ) {
    this.#options = options;
    this.#budget = budget;
    this.#sessionBytes = start.budget.sessionBytes;
    this.#access = start.controlAccess;
    this.#make = make;
    this.#sessions = new MockSessions<T>(start.sessions, stop, wall);
  }

  /** The registry as the control plane reaches it. */
  control(): SessionControl {
    return {
      create: (source) => this.#create(source),
      list: () => this.#sessions.list(),
      end: (id) => this.#sessions.end(id),
    };
  }

  /**
   * Creates a session: refused first as its core would refuse it (past `sessions.max`, 409
   * `conflict`; data past its budget, 409 `budget_exceeded`), so that a refused session costs no
   * generation; then its data generated in slices that give the event loop a turn (`prepareData`),
   * its budget holding the data's charge meanwhile (so that sessions made at the same time count each
   * other's data); then its core made, which finds its data ready and makes only its containers.
   */
  async #create(source: CheckedSessionSource): Promise<SessionCreated> {
    const options = sessionOptions(this.#options, source);
    const start = startConfiguration(options, source.data);
    // Its share of the budget: what its core keeps (its data first) is charged to it and to the mock's.
    const budget = this.#budget.child(this.#sessionBytes, 'this session');
    try {
      this.#sessions.checkRoom();
      // What its core's first load charges (a session's core has no baseline), held while generated.
      const held = budget.ledger('data');
      held.charge(sessionBytes(start.data));
      let prepared: PreparedData | undefined;
      try {
        prepared = await prepareData(start.data);
      } finally {
        held.releaseAll();
      }
      // The core's first load takes the prepared data (the token holds nothing after).
      const { id, core } = this.#sessions.create(() => this.#make(options, { start, budget, prepared }));
      return { id, accounts: core.accounts() };
    } catch (error) {
      budget.close();
      throw error;
    }
  }

  /**
   * A request that names session `id`: handed whole to that session's core; for an unknown or ended
   * one, 404 `not_found` (after the host check, and the control access check for a `/__mock` path:
   * the header selects data, it does not authorise). Not journalled: no session holds it.
   */
  async handle(id: string, request: MockRequest, options: HandleOptions): Promise<MockResponse> {
    let use: SessionUse<T>;
    try {
      use = this.#sessions.enter(id);
    } catch (unknown) {
      const requestId = `req_session_${randomHex(4)}`;
      try {
        checkHost(request, options.allowedHosts);
        if (readRequestLine(request).control) await checkControlAccess(request, this.#access);
      } catch (error) {
        return withRequestId(errorResponse(error, requestId), requestId);
      }
      return withRequestId(errorResponse(unknown, requestId), requestId);
    }
    // The session's idle clock starts again only for a request that passed its access checks.
    let granted = false;
    try {
      const response = await use.core.handle(request, options);
      granted = response.status !== 401 && response.status !== 403;
      return response;
    } finally {
      use.done(granted);
    }
  }
}
