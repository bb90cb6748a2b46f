/**
 * `@iacm/mock-server/vitest-setup`: a vitest `globalSetup` that starts one standalone mock for the
 * whole run (on a free port of `127.0.0.1`) and hands its URL to every worker, where
 * `useMockSession()` (of `@iacm/mock-server/vitest`) gives each test file a session of its own. Node
 * only (it listens with `node:http`).
 *
 * ```ts
 * // vitest.config.ts
 * export default defineConfig({ test: { globalSetup: ['@iacm/mock-server/vitest-setup'] } });
 * ```
 *
 * With options, a setup file of your own: `export default mockGlobalSetup({ sizes: { workspaces: 50 } })`.
 *
 * @packageDocumentation
 */
import { type ListenOptions, listen } from './adapters/node.js';
import { PROVIDED_MOCK_TOKEN, PROVIDED_MOCK_URL } from './control/remote-wire.js';

declare module 'vitest' {
  /** What the mock's global setup provides to the workers (read by `useMockSession()`). */
  export interface ProvidedContext {
    /** The URL of the run's standalone mock. */
    iacmMockUrl: string;
    /** Its control token, when it was started with one. */
    iacmMockControlToken: string | undefined;
  }
}

/** What a vitest global setup is given: the part this setup uses. */
export interface MockGlobalSetupProject {
  /** Hands a value to the workers (`inject(key)`). */
  provide(key: 'iacmMockUrl' | 'iacmMockControlToken', value: string | undefined): void;
}

/**
 * A vitest `globalSetup` function: starts one standalone mock with `options` (`listen`'s, `port`
 * default 0: a free port), provides its URL (and control token) to the workers, and closes it when
 * the run ends.
 *
 * @param options `listen`'s options; `port` defaults to 0 here.
 * @example
 * ```ts
 * // vitest.global-setup.ts, named in the config's test.globalSetup
 * import { mockGlobalSetup } from '@iacm/mock-server/vitest-setup';
 * export default mockGlobalSetup({ sizes: { workspaces: 50 }, sessions: { max: 64 } });
 * ```
 */
export function mockGlobalSetup(
  options: ListenOptions = {},
): (project: MockGlobalSetupProject) => Promise<() => Promise<void>> {
  return async (project) => {
    const running = await listen({ port: 0, ...options });
    project.provide(PROVIDED_MOCK_URL, running.url);
    project.provide(PROVIDED_MOCK_TOKEN, options.controlToken);
    return async () => {
      await running.close();
    };
  };
}

/** The global setup with the mock's default options: `globalSetup: ['@iacm/mock-server/vitest-setup']`. */
const setup: (project: MockGlobalSetupProject) => Promise<() => Promise<void>> = mockGlobalSetup();
export default setup;
