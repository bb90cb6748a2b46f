import type { RequestOptions } from './core/options.js';
import { type ClientOptions, resolveOptions } from './core/options.js';
import { APIPromise } from './core/pagination.js';
import { Transport } from './core/transport.js';
import { Auth, EventCenter, Guardrails, IacExplorer, Workspaces } from './resources/index.js';

/** A pipeline handed from `withOptions` to the constructor it calls (set and cleared synchronously). */
let adopting: Transport | undefined;

/**
 * The client of the IaC management service API: one method per endpoint, grouped by resource.
 * Requests are validated before they are sent and answers after they arrive, against the same
 * contract the mock server enforces.
 *
 * @example
 * const client = new IacmClient({ baseUrl: 'http://127.0.0.1:4010', auth: { accessKey, secretKey } });
 * for await (const workspace of client.workspaces.search({ filters: { labels: ['prod'] } })) {
 *   console.log(workspace.workspaceName);
 * }
 */
export class IacmClient {
  /** Workspaces and their runs. */
  readonly workspaces: Workspaces;
  /** Guardrail rules. */
  readonly guardrails: Guardrails;
  /** IaC explorer queries. */
  readonly iacExplorer: IacExplorer;
  /** The event center. */
  readonly eventCenter: EventCenter;
  /** Login. */
  readonly auth: Auth;

  readonly #options: ClientOptions;
  readonly #transport: Transport;

  /**
   * Creates a client. Defaults: `timeout` 60000 ms, `maxRetries` 2, `validation` `'strict'`,
   * `logLevel` `'warn'`, `logger` `console`, `fetch` the global one (looked up at each request),
   * `sleep` (the wait between retries) a `setTimeout`. `IACM_BASE_URL`, `IACM_TOKEN`,
   * `IACM_ACCESS_KEY` and `IACM_SECRET_KEY` fill `baseUrl` and `auth`, and `IACM_LOG` fills
   * `logLevel`, when the options leave them out. Unknown options, and an unknown `IACM_LOG` value,
   * are refused with the list of valid ones.
   */
  constructor(options: ClientOptions = {}) {
    this.#options = { ...options };
    this.#transport = adopting ?? new Transport(resolveOptions(options));
    adopting = undefined;
    this.workspaces = new Workspaces(this.#transport);
    this.guardrails = new Guardrails(this.#transport);
    this.iacExplorer = new IacExplorer(this.#transport);
    this.eventCenter = new EventCenter(this.#transport);
    this.auth = new Auth(this.#transport);
  }

  /**
   * A new client with some options changed. It shares this client's cached login token unless
   * `auth` or `baseUrl` changes.
   */
  withOptions(options: ClientOptions): IacmClient {
    const merged: ClientOptions = {
      ...this.#options,
      ...options,
      headers: { ...this.#options.headers, ...options.headers },
      hooks: { ...this.#options.hooks, ...options.hooks },
    };
    const resolved = resolveOptions(merged);
    const shareTokens = options.auth === undefined && options.baseUrl === undefined;
    adopting = new Transport(resolved, shareTokens ? this.#transport.tokens : undefined);
    return new IacmClient(merged);
  }

  /** Checks that the service is up (`GET /v2/health`, 204). Resolves when it is; throws an API or connection error otherwise. */
  health(options?: RequestOptions): APIPromise<void> {
    return new APIPromise(async () => {
      const result = await this.#transport.call('health', {}, options);
      return { ...result, data: undefined };
    });
  }
}
