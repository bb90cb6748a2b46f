/**
 * The programs a consumer project of the packed tarballs runs: each is what a user would write, in
 * plain JavaScript (ESM `.mjs`, CJS `.cjs`), run by the Node line under test.
 */

/** The part of the SDK program after its imports (the same for ESM and CJS). */
const sdkBody = `
const mock = await listen({ port: 0, sizes: { workspaces: 12 } });
try {
  const [primary] = mock.control.accounts();
  // Configuration from the environment, as a deployed program would have it.
  process.env.IACM_BASE_URL = mock.url;
  process.env.IACM_ACCESS_KEY = primary.accessKey;
  process.env.IACM_SECRET_KEY = primary.secretKey;
  const client = new IacmClient({ logLevel: 'off' });
  const all = await client.workspaces.search({ pageSize: 5 }).toArray({ limit: 100 });
  let refused = false;
  try { await client.workspaces.search({ pageSize: 0 }); } catch (e) { refused = e instanceof RequestValidationError; }
  const core = new MockCore({ sizes: { workspaces: 3 } });
  const health = await core.handle({ method: 'GET', path: '/v2/health' });
  const credentials = { type: 'header', value: 'Api-Key k' };
  const delivery = createTestDelivery({ notification: generateNotification('Drift'), credentials });
  const receiver = createWebhookReceiver({ credentials });
  const verified = await receiver.verify({ method: 'POST', headers: delivery.headers, body: delivery.body });
  const openapi = buildOpenApiDocument();
  console.log(JSON.stringify({
    count: all.length,
    refused,
    endpoints: Object.keys(endpoints).length,
    health: health.status,
    webhook: verified.ok,
    openapi: openapi.openapi,
    node: typeof createNodeMiddleware,
  }));
} finally {
  await mock.close();
}`;

/** Every entry point of the three packages, ESM. */
export const sdkEsm = `import { IacmClient, RequestValidationError } from '@iacm/sdk';
import { endpoints } from '@iacm/sdk/contract';
import { buildOpenApiDocument } from '@iacm/sdk/openapi';
import { MockCore } from '@iacm/mock-server';
import { listen } from '@iacm/mock-server/node';
import { createTestDelivery, createWebhookReceiver, generateNotification } from '@iacm/webhook-receiver';
import { createNodeMiddleware } from '@iacm/webhook-receiver/node';
${sdkBody}
`;

/** Every entry point of the three packages, CJS. */
export const sdkCjs = `const { IacmClient, RequestValidationError } = require('@iacm/sdk');
const { endpoints } = require('@iacm/sdk/contract');
const { buildOpenApiDocument } = require('@iacm/sdk/openapi');
const { MockCore } = require('@iacm/mock-server');
const { listen } = require('@iacm/mock-server/node');
const { createTestDelivery, createWebhookReceiver, generateNotification } = require('@iacm/webhook-receiver');
const { createNodeMiddleware } = require('@iacm/webhook-receiver/node');
(async () => {
${sdkBody}
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

/** The standalone mock and the SDK without msw installed: `./node` needs none of it. */
export const withoutMsw = (format: 'esm' | 'cjs') => {
  const body = `
  const mock = await listen({ port: 0, sizes: { workspaces: 4 } });
  try {
    const [primary] = mock.control.accounts();
    const client = new IacmClient({ baseUrl: mock.url, auth: { accessKey: primary.accessKey, secretKey: primary.secretKey }, logLevel: 'off' });
    const all = await client.workspaces.search({ pageSize: 2 }).toArray({ limit: 10 });
    console.log(JSON.stringify({ count: all.length }));
  } finally {
    await mock.close();
  }`;
  return format === 'esm'
    ? `import { IacmClient } from '@iacm/sdk';\nimport { listen } from '@iacm/mock-server/node';\n${body}\n`
    : `const { IacmClient } = require('@iacm/sdk');\nconst { listen } = require('@iacm/mock-server/node');\n(async () => {${body}\n})().catch((error) => { console.error(error); process.exit(1); });\n`;
};

/**
 * A user's first use of `createMockServer` with msw/node, in ESM or CJS; prints the error's name and
 * message when one is thrown.
 */
export const firstMockCall = (format: 'esm' | 'cjs') => {
  const body = `
  try {
    const mock = createMockServer({ baseUrl: 'https://iacm.example.test' });
    const server = setupServer(...mock.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    const [account] = mock.control.accounts();
    const client = new IacmClient({ baseUrl: 'https://iacm.example.test', auth: { accessKey: account.accessKey, secretKey: account.secretKey }, logLevel: 'off' });
    const page = await client.workspaces.search({ pageSize: 2 });
    server.close();
    console.log(JSON.stringify({ ok: page.length }));
  } catch (error) {
    console.log(JSON.stringify({ name: error.name, message: error.message }));
  }`;
  return format === 'esm'
    ? `import { createMockServer } from '@iacm/mock-server';\nimport { IacmClient } from '@iacm/sdk';\nimport { setupServer } from 'msw/node';\n${body}\n`
    : `const { createMockServer } = require('@iacm/mock-server');\nconst { IacmClient } = require('@iacm/sdk');\nconst { setupServer } = require('msw/node');\n(async () => {${body}\n})();\n`;
};

/** A user's vitest suite: the SDK against `createMockServer` through msw's `setupServer`. */
export const vitestSuite = {
  'vitest.config.mjs': `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { include: ['vitest/**/*.test.mjs'] } });
`,
  'vitest/mock.test.mjs': `import { createMockServer } from '@iacm/mock-server';
import { IacmClient, InternalServerError, NotFoundError } from '@iacm/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const BASE_URL = 'https://iacm.example.test';
const mock = createMockServer({ baseUrl: BASE_URL, seed: 7, sizes: { workspaces: 9 } });
const server = setupServer(...mock.handlers);
const [account] = mock.control.accounts();
let client;

beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  client = new IacmClient({ baseUrl: BASE_URL, auth: { accessKey: account.accessKey, secretKey: account.secretKey }, maxRetries: 0, logLevel: 'off' });
});
afterEach(async () => {
  await mock.control.reset();
  mock.control.clearFaults();
});
afterAll(() => server.close());

describe('the SDK against createMockServer through msw', () => {
  it('logs in and pages through the seeded workspaces', async () => {
    const all = await client.workspaces.search({ pageSize: 4 }).toArray({ limit: 100 });
    expect(all).toHaveLength(9);
    expect(mock.control.journal().some((entry) => entry.path === '/v2/login')).toBe(true);
  });

  it('answers an injected fault with the typed error', async () => {
    mock.control.addFault({ method: 'POST', path: '/v2/workspaces/search', status: 500 });
    await expect(client.workspaces.search({})).rejects.toBeInstanceOf(InternalServerError);
    mock.control.addFault({ method: 'POST', path: '/v2/workspaces/search', status: 404 });
    await expect(client.workspaces.search({})).rejects.toBeInstanceOf(NotFoundError);
  });

  it('journals the calls it answered', async () => {
    await client.workspaces.search({ pageSize: 1 });
    const searches = mock.control.journal().filter((entry) => entry.path === '/v2/workspaces/search');
    expect(searches.length).toBeGreaterThan(0);
    expect(searches.some((entry) => entry.status === 200)).toBe(true);
  });
});
`,
};

/**
 * A user's Jest suite (CommonJS, in Jest's workers): one test passes, one fails on purpose with an
 * SDK error, whose message must reach the report (Jest sends failures from its workers to the parent).
 */
export const jestSuite = {
  'jest.config.cjs': `module.exports = { testEnvironment: 'node', testMatch: ['<rootDir>/jest/**/*.test.js'], transform: {} };
`,
  'jest/setup.js': `const { createMockServer } = require('@iacm/mock-server');
const { IacmClient } = require('@iacm/sdk');
const { setupServer } = require('msw/node');

const BASE_URL = 'https://iacm.example.test';
exports.useMock = () => {
  const mock = createMockServer({ baseUrl: BASE_URL, sizes: { workspaces: 6 } });
  const server = setupServer(...mock.handlers);
  const [account] = mock.control.accounts();
  const ctx = { mock };
  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' });
    ctx.client = new IacmClient({ baseUrl: BASE_URL, auth: { accessKey: account.accessKey, secretKey: account.secretKey }, maxRetries: 0, logLevel: 'off' });
  });
  afterAll(() => server.close());
  return ctx;
};
`,
  'jest/pass.test.js': `const { useMock } = require('./setup.js');
const ctx = useMock();
test('the SDK pages through the mock', async () => {
  const all = await ctx.client.workspaces.search({ pageSize: 4 }).toArray({ limit: 100 });
  expect(all).toHaveLength(6);
});
`,
  'jest/fail.test.js': `const { useMock } = require('./setup.js');
const ctx = useMock();
test('fails on purpose with an SDK error', async () => {
  ctx.mock.control.addFault({ method: 'POST', path: '/v2/workspaces/search', status: 404 });
  await ctx.client.workspaces.search({});
});
`,
};

/** An Express app with the webhook receiver mounted, sent a good and a badly authenticated delivery. */
export const expressReceiver = `import express from 'express';
import { createTestDelivery, createWebhookReceiver, generateNotification } from '@iacm/webhook-receiver';
import { createExpressMiddleware } from '@iacm/webhook-receiver/node';

const credentials = { type: 'header', value: 'Bearer s3cret' };
const receiver = createWebhookReceiver({ credentials });
const drifted = [];
receiver.on('Drift', (payload) => drifted.push(...payload.samples.map((sample) => sample.name)));

const app = express();
app.use('/webhooks', createExpressMiddleware(receiver)); // before express.json()
app.use(express.json());
app.post('/other', (req, res) => res.json({ echoed: req.body }));
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = 'http://127.0.0.1:' + server.address().port;
try {
  const delivery = createTestDelivery({ notification: generateNotification('Drift'), credentials });
  const good = await fetch(url + '/webhooks', delivery);
  const bad = await fetch(url + '/webhooks', { ...delivery, headers: { ...delivery.headers, authorization: 'Bearer wrong' } });
  const other = await fetch(url + '/other', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
  console.log(JSON.stringify({ good: good.status, bad: bad.status, drifted: drifted.length, other: await other.json() }));
} finally {
  server.close();
  server.closeAllConnections();
}
`;

/** A TypeScript consumer of the types (checked with `tsc`, `skipLibCheck: false`). */
export const typesConsumer = `import { IacmClient, type WorkspaceSearchParams } from '@iacm/sdk';
import { endpoints, type WorkspaceSummary } from '@iacm/sdk/contract';
import { createMockServer, type MockServer } from '@iacm/mock-server';
import { createWebhookReceiver, type WebhookNotification } from '@iacm/webhook-receiver';
import { setupServer } from 'msw/node';
const client = new IacmClient({ baseUrl: 'http://127.0.0.1:4010', auth: { token: 't' } });
const params: WorkspaceSearchParams = { sort: { lastRunTime: { order: -1 } } };
export const page: Promise<WorkspaceSummary[]> = client.workspaces.search(params);
export const count: number = Object.keys(endpoints).length;
export const mock: MockServer = createMockServer();
export const server = setupServer(...mock.handlers);
export const receiver = createWebhookReceiver({ credentials: 'none' });
export type N = WebhookNotification;
// @ts-expect-error not a sortable field
client.workspaces.search({ sort: { nope: { order: 1 } } });
`;

/** A TypeScript consumer of the standalone server only, in a project without msw. */
export const typesWithoutMsw = `import { IacmClient } from '@iacm/sdk';
import { listen, type RunningMockServer } from '@iacm/mock-server/node';
import { createNodeMiddleware } from '@iacm/webhook-receiver/node';
import { createWebhookReceiver } from '@iacm/webhook-receiver';
export const running: Promise<RunningMockServer> = listen({ port: 0 });
export const client = new IacmClient({ baseUrl: 'http://127.0.0.1:4010', auth: { token: 't' } });
export const middleware = createNodeMiddleware(createWebhookReceiver({ credentials: 'none' }));
`;
