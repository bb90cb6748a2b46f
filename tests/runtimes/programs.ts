/**
 * What the runtime tests run (`pnpm test:runtimes`): a program for Bun and Deno, and two Cloudflare
 * Workers with their workerd configuration. Plain JavaScript, as a user would write it, importing the
 * packages installed from the packed tarballs.
 */

/** The credentials the receivers of these tests accept (a test value, not a secret). */
export const WEBHOOK_AUTHORIZATION = 'Bearer runtimes-test-token';

/**
 * One program for Bun and Deno (ESM): the SDK against the in-process mock (`createMockServer` with
 * msw's `setupServer`), paging through three pages, a 404 read as `NotFoundError`, the mock's fetch
 * handler without msw (`handleFetchRequest`), and the receiver's fetch handler verifying a test
 * delivery (and refusing one with other credentials). It prints one JSON line.
 */
export const runtimeProgram = `import { APIError, IacmClient, NotFoundError } from '@iacm/sdk';
import { createMockServer, handleFetchRequest, MockCore } from '@iacm/mock-server';
import {
  createFetchHandler,
  createTestDelivery,
  createWebhookReceiver,
  generateNotification,
} from '@iacm/webhook-receiver';
import { setupServer } from 'msw/node';

const runtime =
  typeof Bun !== 'undefined'
    ? \`bun \${Bun.version}\`
    : typeof Deno !== 'undefined'
      ? \`deno \${Deno.version.deno}\`
      : \`node \${process.versions.node}\`;
const BASE = 'http://iacm.runtime.test';
const mock = createMockServer({ baseUrl: BASE, seed: 7, sizes: { workspaces: 12 } });
const server = setupServer(...mock.handlers);
server.listen({ onUnhandledRequest: 'error' });
try {
  const [primary] = mock.control.accounts();
  const client = new IacmClient({
    baseUrl: BASE,
    auth: { accessKey: primary.accessKey, secretKey: primary.secretKey },
    logLevel: 'off',
  });
  const ids = [];
  for await (const workspace of client.workspaces.search({ pageSize: 5 })) ids.push(workspace.id);
  const pages = mock.control.calls('workspaces.search').map((call) => call.status);
  let error;
  try {
    await client.workspaces.delete('0123456789abcdef01234567');
  } catch (e) {
    error = {
      name: e.name,
      notFound: e instanceof NotFoundError,
      apiError: e instanceof APIError,
      status: e.status,
      code: e.code,
      endpoint: e.endpoint,
    };
  }
  const core = new MockCore({ sizes: { workspaces: 3 } });
  const health = (await handleFetchRequest(core, new Request(\`\${BASE}/v2/health\`))).status;

  const credentials = { type: 'header', value: '${WEBHOOK_AUTHORIZATION}' };
  const receiver = createWebhookReceiver({ credentials });
  const received = [];
  receiver.on('Drift', (payload) => received.push(payload.samples.length));
  const handler = createFetchHandler(receiver);
  const post = (delivery) => handler(new Request('http://hooks.runtime.test/webhooks', delivery));
  const notification = generateNotification('Drift');
  const good = await post(createTestDelivery({ notification, credentials }));
  const wrong = { type: 'header', value: 'Bearer not-the-token' };
  const refused = await post(createTestDelivery({ notification, credentials: wrong }));
  console.log(
    JSON.stringify({
      runtime,
      workspaces: { count: ids.length, distinct: new Set(ids).size, pages },
      error,
      health,
      webhook: { good: good.status, refused: refused.status, received },
    }),
  );
} finally {
  server.close();
}
// msw's root entry (which @iacm/mock-server's imports) opens a BroadcastChannel when it loads and
// unrefs it on Node only; Deno's BroadcastChannel has no unref, so the program would never end.
if (typeof Deno !== 'undefined') Deno.exit(0);
`;

/** What {@link runtimeProgram} prints, but for the runtime's name and version. */
export const runtimeExpected = {
  workspaces: { count: 12, distinct: 12, pages: [200, 200, 200] },
  error: {
    name: 'NotFoundError',
    notFound: true,
    apiError: true,
    status: 404,
    code: 'not_found',
    endpoint: 'workspaces.delete',
  },
  health: 204,
  webhook: { good: 200, refused: 401, received: [2] },
};

/**
 * A Worker receiving webhooks with the receiver's fetch handler; `GET /received` answers what its
 * handlers were given (the Worker's own memory: one isolate in this workerd). Its credentials come
 * from the `WEBHOOK_AUTHORIZATION` binding.
 */
export const receiverWorker = `import { createFetchHandler, createWebhookReceiver } from '@iacm/webhook-receiver';

let handler;
const received = [];

export default {
  async fetch(request, env) {
    if (new URL(request.url).pathname === '/received') return Response.json(received);
    if (!handler) {
      const receiver = createWebhookReceiver({
        credentials: { type: 'header', value: env.WEBHOOK_AUTHORIZATION },
      });
      receiver.on('test', (payload) => {
        received.push({ kind: 'test', text: payload.text });
      });
      receiver.on('Drift', (payload) => {
        received.push({ kind: 'Drift', samples: payload.samples.map((sample) => sample.name) });
      });
      handler = createFetchHandler(receiver);
    }
    return handler(request);
  },
};
`;

/**
 * A Worker using the SDK against the standalone mock (its URL and key pair from bindings): one
 * page, every workspace by paging, and a 404 read as `NotFoundError`.
 */
export const sdkWorker = `import { IacmClient, NotFoundError } from '@iacm/sdk';

export default {
  async fetch(request, env) {
    const client = new IacmClient({
      baseUrl: env.IACM_BASE_URL,
      auth: { accessKey: env.IACM_ACCESS_KEY, secretKey: env.IACM_SECRET_KEY },
      logLevel: 'off',
    });
    const page = await client.workspaces.search({ pageSize: 5 });
    let count = 0;
    for await (const _workspace of client.workspaces.search({ pageSize: 25 })) count += 1;
    let error;
    try {
      await client.workspaces.delete('0123456789abcdef01234567');
    } catch (e) {
      error = { name: e.name, notFound: e instanceof NotFoundError, status: e.status };
    }
    return Response.json({ page: page.length, count, error });
  },
};
`;

/** The workerd compatibility date of both Workers. */
export const COMPATIBILITY_DATE = '2026-11-01';

/**
 * The workerd configuration (Cap'n Proto text) of the two Workers, each on its own socket on a port
 * the system picks (workerd reports it on its control descriptor). Their global outbound, the
 * `internet` service, is a network that allows local addresses too: workerd's default allows public
 * addresses only, and the mock listens on 127.0.0.1.
 */
export function workerdConfig(mockUrl: string, accessKey: string, secretKey: string): string {
  const text = (value: string) => JSON.stringify(value);
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "receiver", worker = .receiverWorker),
    (name = "sdk", worker = .sdkWorker),
    (name = "internet", network = (allow = ["public", "local"])),
  ],
  sockets = [
    (name = "receiver", address = "127.0.0.1:0", http = (), service = "receiver"),
    (name = "sdk", address = "127.0.0.1:0", http = (), service = "sdk"),
  ],
);

const receiverWorker :Workerd.Worker = (
  modules = [(name = "receiver.js", esModule = embed "dist/receiver.js")],
  compatibilityDate = ${text(COMPATIBILITY_DATE)},
  bindings = [(name = "WEBHOOK_AUTHORIZATION", text = ${text(WEBHOOK_AUTHORIZATION)})],
);

const sdkWorker :Workerd.Worker = (
  modules = [(name = "sdk.js", esModule = embed "dist/sdk.js")],
  compatibilityDate = ${text(COMPATIBILITY_DATE)},
  bindings = [
    (name = "IACM_BASE_URL", text = ${text(mockUrl)}),
    (name = "IACM_ACCESS_KEY", text = ${text(accessKey)}),
    (name = "IACM_SECRET_KEY", text = ${text(secretKey)}),
  ],
);
`;
}

/**
 * The standalone mock's typed control client (`@iacm/mock-server/remote`, no msw, no \`node:\`) in Bun
 * and Deno: a session made and ended, a fault added and listed, a bad fault refused with a
 * `MockControlError`, the session's journal read in the in-process shape. The mock's URL comes in
 * `MOCK_URL`. It prints one JSON line.
 */
export const remoteProgram = `import { connect, MockControlError } from '@iacm/mock-server/remote';

const url = typeof Deno !== 'undefined' ? Deno.env.get('MOCK_URL') : process.env.MOCK_URL;
const root = connect(url);
const session = await root.createSession({ sizes: { workspaces: 4 } });
const remote = connect(url, { session: session.id });
await remote.addFault({ endpoint: 'workspaces.search', status: 503, times: 1 });
const faults = (await remote.faults()).map((fault) => fault.status);
let refused;
try {
  await remote.addFault({ endpoint: 'workspaces.serch', status: 500 });
} catch (error) {
  refused = { controlError: error instanceof MockControlError, status: error.status, code: error.code };
}
const calls = await remote.calls('workspaces.search');
await root.endSession(session.id);
console.log(JSON.stringify({ accounts: session.accounts.length, faults, refused, calls }));
`;

/** What {@link remoteProgram} prints. */
export const remoteExpected = {
  accounts: 3,
  faults: [503],
  refused: { controlError: true, status: 400, code: 'validation_failed' },
  calls: [],
};
