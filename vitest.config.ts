import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Tests run against the packages' sources; the built output is checked by publint, attw and smoke tests. */
const alias = {
  '@iacm/sdk/openapi': here('./packages/sdk/src/openapi/index.ts'),
  '@iacm/sdk/contract': here('./packages/sdk/src/contract/index.ts'),
  '@iacm/sdk': here('./packages/sdk/src/index.ts'),
  '@iacm/mock-server/node': here('./packages/mock-server/src/node.ts'),
  '@iacm/mock-server': here('./packages/mock-server/src/index.ts'),
  '@iacm/webhook-receiver/node': here('./packages/webhook-receiver/src/node.ts'),
  '@iacm/webhook-receiver': here('./packages/webhook-receiver/src/index.ts'),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'sdk',
          include: ['packages/sdk/test/**/*.test.ts'],
          typecheck: { enabled: true, include: ['packages/sdk/test/**/*.test-d.ts'] },
        },
      },
      {
        resolve: { alias },
        test: { name: 'mock-server', include: ['packages/mock-server/test/**/*.test.ts'] },
      },
      {
        resolve: { alias },
        test: { name: 'webhook-receiver', include: ['packages/webhook-receiver/test/**/*.test.ts'] },
      },
      { resolve: { alias }, test: { name: 'integration', include: ['tests/**/*.test.ts'] } },
      {
        resolve: { alias },
        test: { name: 'examples', include: ['examples/**/*.test.ts'], exclude: ['**/node_modules/**'] },
      },
    ],
  },
});
