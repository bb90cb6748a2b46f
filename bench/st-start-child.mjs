/**
 * ST's measuring process, run fresh each time (as a vitest worker starts a test file), cold:
 * - `msw`: `import('msw/node')` only, the baseline;
 * - `import`: `msw/node`, then `@iacm/mock-server`, each import timed;
 * - `anatomy`: the mock's import in the order its graph loads it (`msw/node`, `#msw-http`, `zod/mini`,
 *   `zod`, `@iacm/sdk/contract`, `@iacm/webhook-receiver`, then `@iacm/mock-server` itself), each step
 *   timed: where the import's time goes;
 * - `first`: `msw/node`, `@iacm/mock-server` and `@iacm/sdk` imported, `createMockServer({ scene })`
 *   with a scene of 5 workspaces, `setupServer(...mock.handlers).listen()`, and the first page of
 *   workspaces through `IacmClient` (its login first): the time from the first import to that answer.
 */
import { DIST, dependencyUrl, url } from './lib/paths.mjs';
import { childMain } from './lib/processes.mjs';

const BASE = 'http://localhost:4010';

/** Imports each of `specifiers` in turn; the time each took, ms, and all of them. */
async function timedImports(specifiers) {
  const steps = {};
  const start = performance.now();
  let last = start;
  for (const [name, specifier] of specifiers) {
    await import(specifier);
    const now = performance.now();
    steps[name] = now - last;
    last = now;
  }
  return { steps, totalMs: last - start };
}

await childMain(async ({ subject }) => {
  const mswNode = ['msw/node', dependencyUrl('mock', 'msw/node')];
  const mock = ['@iacm/mock-server', url(DIST.mock)];
  if (subject === 'msw') return timedImports([mswNode]);
  if (subject === 'import') return timedImports([mswNode, mock]);
  if (subject === 'anatomy') {
    return timedImports([
      mswNode,
      // What `#msw-http` loads on Node (msw 2's `msw/core/http`; msw 3's `msw/http`).
      ['#msw-http', new URL('./msw-http-node.js', url(DIST.mock)).href],
      ['zod/mini', dependencyUrl('sdk', 'zod/mini')],
      ['zod', dependencyUrl('mock', 'zod')],
      ['@iacm/sdk/contract', dependencyUrl('mock', '@iacm/sdk/contract')],
      ['@iacm/webhook-receiver', dependencyUrl('mock', '@iacm/webhook-receiver')],
      mock,
    ]);
  }
  if (subject !== 'first') throw new Error(`unknown subject ${subject}`);
  const t0 = performance.now();
  const { setupServer } = await import(mswNode[1]);
  const { createMockServer, scene } = await import(mock[1]);
  const { IacmClient } = await import(url(DIST.sdk));
  const imported = performance.now();
  const workspaces = ['payments-prod', 'payments-dev', 'web-staging', 'web-prod', 'data-lake'].map((name) =>
    scene.workspace({ name }),
  );
  const server = createMockServer({
    baseUrl: BASE,
    scene: scene.define({ accounts: [scene.account({ workspaces })] }),
  });
  const msw = setupServer(...server.handlers);
  msw.listen({ onUnhandledRequest: 'error' });
  const [primary] = server.control.accounts();
  const client = new IacmClient({
    baseUrl: BASE,
    auth: { accessKey: primary.accessKey, secretKey: primary.secretKey },
  });
  const page = await client.workspaces.search({});
  const answered = performance.now();
  msw.close();
  const count = Array.isArray(page) ? page.length : (page?.data?.length ?? page?.items?.length);
  if (count !== 5) throw new Error(`the first page held ${JSON.stringify(count)} workspaces, not 5`);
  return { importMs: imported - t0, firstAnswerMs: answered - t0, createToAnswerMs: answered - imported };
});
