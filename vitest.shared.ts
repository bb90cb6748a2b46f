import { fileURLToPath } from 'node:url';
import type { TestProjectInlineConfiguration } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Tests run against the packages' sources; the built output is checked by publint, attw and smoke tests. */
export const alias = {
  '@iacm/sdk/openapi': here('./packages/sdk/src/openapi/index.ts'),
  '@iacm/sdk/contract': here('./packages/sdk/src/contract/index.ts'),
  '@iacm/sdk': here('./packages/sdk/src/index.ts'),
  '@iacm/mock-server/node': here('./packages/mock-server/src/node.ts'),
  '@iacm/mock-server/vitest': here('./packages/mock-server/src/vitest.ts'),
  '@iacm/mock-server/remote': here('./packages/mock-server/src/remote.ts'),
  '@iacm/mock-server/vitest-setup': here('./packages/mock-server/src/vitest-setup.ts'),
  '@iacm/mock-server': here('./packages/mock-server/src/index.ts'),
  '@iacm/webhook-receiver/node': here('./packages/webhook-receiver/src/node.ts'),
  '@iacm/webhook-receiver': here('./packages/webhook-receiver/src/index.ts'),
};

/**
 * Timeouts: a test or hook that takes this long has hung. They only catch hangs, never measure speed
 * (at least 30 s, so that a busy 2-core machine cannot fail a correct test).
 */
export const hangBounds = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  /** `expect.poll` gives up after this long (vitest's default is 1 s). */
  expect: { poll: { timeout: 30_000 } },
};

/** Test files that need more than Node and npm, or minutes: each runs in its own script. */
export const separateSuites = {
  /** `pnpm test:scale`: real-account volumes (100k workspaces, 1M events). */
  scale: ['packages/*/test/scale/**/*.test.ts'],
  /** `pnpm test:browser`: needs Chromium (Debian's `chromium`). */
  browser: ['tests/browser/**/*.test.ts'],
};

/** One vitest project over the packages' sources, with the hang bounds: `test` names and selects it. */
export function project(
  test: NonNullable<TestProjectInlineConfiguration['test']>,
): TestProjectInlineConfiguration {
  return { resolve: { alias }, test: { ...hangBounds, ...test } };
}
