/**
 * A mock's sessions ({@link SessionHost}): what a session's core is made from (this mock's options
 * with the session's data source), the memory its data is estimated to take (charged against the
 * sessions' budget, `app/sessions.ts`), and the requests that name one.
 *
 * @module
 */
import { type ControlAccess, checkControlAccess } from '../control/access.js';
import type { DataSource } from '../control/data.js';
import type { CheckedSessionSource, SessionControl } from '../control/route.js';
import type { HandleOptions, MockRequest, MockResponse } from '../http/message.js';
import { stripUndefined } from '../http/objects.js';
import { checkHost } from '../pipeline/host.js';
import { readRequestLine } from '../pipeline/request.js';
import { errorResponse, withRequestId } from '../pipeline/respond.js';
import { estimateSeedBytes } from '../store/seed/limits.js';
import { DEFAULT_SIZES, type MockAccount } from '../store/state.js';
import { hasTemplate } from '../store/template.js';
import { dataKey } from './data.js';
import { type MockOptions, type StartConfiguration, startConfiguration } from './options.js';
import { randomHex } from './secrets.js';
import { MockSessions } from './sessions.js';

/** What part of its estimate a session's data takes when it shares data generated before: 1/20. */
const SHARED_DATA_FRACTION = 20;

/**
 * The memory a new session's data is estimated to take (`estimateSeedBytes`): the whole estimate
 * when its data is generated, a twentieth (its own containers) when data generated before is in
 * memory and shared with it (`store/template.ts`). A scene's data is its records and the default
 * sizes around them (its records are bounded).
 */
export function sessionBytes(data: DataSource): number {
  const estimate = estimateSeedBytes('sizes' in data ? data.sizes : DEFAULT_SIZES);
  const shared = !('snapshot' in data) && !('state' in data) && hasTemplate(dataKey(data));
  return shared ? Math.ceil(estimate / SHARED_DATA_FRACTION) : estimate;
}

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
 * its start configuration, resolved once by the mock that makes it (for its memory estimate too).
 */
const IN_SESSION: unique symbol = Symbol('iacm-mock-session');

/** The options of a session's core, as the mock that owns it makes them. */
type SessionOptions = MockOptions & { [IN_SESSION]?: StartConfiguration };

/** A core's start configuration: a session's, resolved by the mock that made it; else from the options. */
export function startOf(options: MockOptions): StartConfiguration {
  return (options as SessionOptions)[IN_SESSION] ?? startConfiguration(options);
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
  readonly #make: (options: MockOptions, start: StartConfiguration) => T;

  /**
   * @param options the mock's options (a session's are made from them, `sessionOptions`).
   * @param start the mock's start configuration (its session bounds and control access).
   * @param make makes a session's core from its options and start configuration.
   * @param stop ends a session's core (its waits cancelled, its timers stopped).
   */
  constructor(
    options: MockOptions,
    start: StartConfiguration,
    make: (options: MockOptions, start: StartConfiguration) => T,
    stop: (core: T, reason: string) => void,
  ) {
    this.#options = options;
    this.#access = start.controlAccess;
    this.#make = make;
    this.#sessions = new MockSessions<T>(start.sessions, stop);
  }

  /** The registry as the control plane reaches it. */
  control(): SessionControl {
    return {
      create: (source) => {
        const options = sessionOptions(this.#options, source);
        const start = startConfiguration(options, source.data);
        const { id, core } = this.#sessions.create(
          () => this.#make(options, start),
          sessionBytes(start.data),
        );
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
    let core: T;
    try {
      core = this.#sessions.use(id);
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
    return core.handle(request, options);
  }
}
