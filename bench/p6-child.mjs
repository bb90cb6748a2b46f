/**
 * P6's measuring process: imports one bundle's entry chunk, makes a first call with it, and reports
 * which chunks of the bundle were loaded (through the module hooks of p6-hooks.mjs).
 */
import { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { BENCH, DIST, url } from './lib/paths.mjs';
import { childMain } from './lib/processes.mjs';

const loaded = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (href) => loaded.add(href));
port1.unref();
register(url(join(BENCH, 'p6-hooks.mjs')), { data: { port: port2 }, transferList: [port2] });

const BASE = 'http://localhost:4010';

/** A first `client.workspaces.search()` with `validation`, answered by a fetch stub with the mock's real answer. */
async function firstSearch({ IacmClient }, validation) {
  const { MockCore } = await import(url(DIST.mockNode));
  const core = new MockCore();
  const [primary] = core.control.accounts();
  const login = await core.handle({
    method: 'POST',
    path: '/v2/login',
    body: { accessKey: primary.accessKey, secretKey: primary.secretKey },
  });
  const token = login.body.accessToken;
  const fetchStub = async (input, init) => {
    const request = new Request(input, init);
    const target = new URL(request.url);
    const answer = await core.handle({
      method: request.method,
      path: target.pathname,
      query: Object.fromEntries(target.searchParams),
      headers: Object.fromEntries(request.headers),
      body: request.body ? await request.json() : undefined,
    });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: answer.headers });
  };
  const client = new IacmClient({ baseUrl: BASE, auth: { token }, fetch: fetchStub, validation });
  const page = await client.workspaces.search();
  if (page.length !== 25) throw new Error(`the first call gave ${page.length} workspaces, expected 25`);
}

/** The first call of each subject, with what its entry exports. */
const FIRST_CALLS = {
  /** `client.workspaces.search()`, answered by a fetch stub with the mock's real answer. */
  sdk: (exports) => firstSearch(exports, 'strict'),
  /** The same with `validation: 'off'`: a client that loads neither zod nor any schema. */
  sdkOff: (exports) => firstSearch(exports, 'off'),
  /** `createMockServer()`, then a login through its MSW handler. */
  async mock({ createMockServer }) {
    const mock = createMockServer({ baseUrl: BASE });
    const [primary] = mock.control.accounts();
    const request = new Request(`${BASE}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: primary.accessKey, secretKey: primary.secretKey }),
    });
    const result = await mock.handlers[0].run({ request, requestId: 'bench-1' });
    if (result?.response?.status !== 200) throw new Error(`the login answered ${result?.response?.status}`);
  },
  /** `createWebhookReceiver()`, then the verification of a Drift delivery. */
  async receiver({ createWebhookReceiver }) {
    const { createTestDelivery, generateNotification } = await import(url(DIST.receiver));
    const credentials = { type: 'basic', username: 'bench', password: 'bench' };
    const receiver = createWebhookReceiver({ credentials });
    const delivery = createTestDelivery({ notification: generateNotification('Drift'), credentials });
    const result = await receiver.verify(delivery);
    if (!result.ok) throw new Error(`the receiver refused the delivery: ${result.error?.message}`);
  },
};

await childMain(async ({ subject, entry, outdir }) => {
  const exports = await import(url(entry));
  await FIRST_CALLS[subject](exports);
  // The hooks run on their own thread: let their last messages arrive.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const prefix = pathToFileURL(outdir).href;
  return [...loaded].filter((href) => href.startsWith(prefix)).map((href) => href.slice(prefix.length + 1));
});
