/**
 * A mock's sessions ({@link SessionHost}): what a session's core is made from (this mock's options
 * with the session's data source), the memory its data is estimated to take (charged against the
 * sessions' budget, `app/sessions.ts`), and the requests that name one.
 *
 * @module
 */
import { type ControlAccess, checkControlAccess } from '../control/access.js';
import type { CheckedSessionSource, SessionControl } from '../control/route.js';
import type { HandleOptions, MockRequest, MockResponse } from '../http/message.js';
import { stripUndefined } from '../http/objects.js';
import { checkHost } from '../pipeline/host.js';
import { readRequestLine } from '../pipeline/request.js';
import { errorResponse, withRequestId } from '../pipeline/respond.js';
import type { MockAccount } from '../store/state.js';
import { sessionBytes } from './data.js';
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
 * and how its data is charged when it replaces it.
 */
const IN_SESSION: unique symbol = Symbol('iacm-mock-session');

/**
 * Charges a session's data against the sessions' budget when the session replaces it (`bytes`, its
 * estimate, in the place of the data's before); `force` for a reset back to its start data.
 * @throws HttpError 409 past the budget (nothing changes).
 */
export type DataCharge = (bytes: number, force?: boolean) => void;

/** What the mock that owns a session makes its core with. */
export interface SessionStart {
  /** The session's start configuration. */
  readonly start: StartConfiguration;
  /** Charges its data when it is replaced. */
  readonly charge: DataCharge;
}

/** The options of a session's core, as the mock that owns it makes them. */
type SessionOptions = MockOptions & { [IN_SESSION]?: SessionStart };

/** A core's start configuration: a session's, resolved by the mock that made it; else from the options. */
export function startOf(options: MockOptions): StartConfiguration {
  return (options as SessionOptions)[IN_SESSION]?.start ?? startConfiguration(options);
}

/** How a session's core charges its data when it replaces it; `undefined` outside a session. */
export function chargeOf(options: MockOptions): DataCharge | undefined {
  return (options as SessionOptions)[IN_SESSION]?.charge;
}

/**
 * The sessions of a mock made with `options`, or `undefined` for a session's own core. `make` makes a
 * session's core from its options (its start configuration inside them, read back by {@link startOf}).
 */
export function sessionHostOf<T extends SessionCore>(
  options: MockOptions,
  start: StartConfiguration,
  make: (options: MockOptions) => T,
  stop: (core: T, reason: string) => void,
): SessionHost<T> | undefined {
  if ((options as SessionOptions)[IN_SESSION]) return undefined;
  return new SessionHost<T>(
    options,
    start,
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

  /**
   * @param options the mock's options (a session's are made from them, `sessionOptions`).
   * @param start the mock's start configuration (its session bounds and control access).
   * @param make makes a session's core from its options, its start configuration and its data charge.
   * @param stop ends a session's core (its waits cancelled, its timers stopped).
   * @param wall the wall clock sessions are idle by, epoch milliseconds (default `Date.now`).
   */
  constructor(
    options: MockOptions,
    start: StartConfiguration,
    make: (options: MockOptions, session: SessionStart) => T,
    stop: (core: T, reason: string) => void,
    wall: () => number = Date.now,
  ) {
    this.#options = options;
    this.#access = start.controlAccess;
    this.#make = make;
    this.#sessions = new MockSessions<T>(start.sessions, stop, wall);
  }

  /** The registry as the control plane reaches it. */
  control(): SessionControl {
    return {
      create: (source) => {
        const options = sessionOptions(this.#options, source);
        const start = startConfiguration(options, source.data);
        // The session's id is known once it is made: its charges before that (its start) are the create's.
        let made: string | undefined;
        const charge: DataCharge = (bytes, force) => {
          if (made !== undefined) this.#sessions.recharge(made, bytes, force);
        };
        const { id, core } = this.#sessions.create(
          () => this.#make(options, { start, charge }),
          sessionBytes(start.data),
        );
        made = id;
        return { id, accounts: core.accounts() };
      },
      list: () => this.#sessions.list(),
      end: (id) => this.#sessions.end(id),
    };
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
