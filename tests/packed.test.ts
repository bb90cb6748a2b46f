import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { listen } from '@iacm/mock-server/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The packed tarballs of the three packages, installed with npm into fresh consumer projects, as a
 * user would: ESM, CJS and TypeScript (moduleResolution node16 and bundler).
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const packages = ['sdk', 'mock-server', 'webhook-receiver'] as const;
let consumer: string;
let mock: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  const packDir = mkdtempSync(join(tmpdir(), 'iacm-pack-'));
  for (const name of packages) {
    execFileSync('pnpm', ['pack', '--pack-destination', packDir], {
      cwd: join(root, 'packages', name),
      stdio: 'pipe',
    });
  }
  const tarballs = readdirSync(packDir);
  const tarball = (name: string) =>
    join(packDir, tarballs.find((f) => f.startsWith(`iacm-${name}-`)) as string);
  const deps = Object.fromEntries(packages.map((name) => [`@iacm/${name}`, `file:${tarball(name)}`]));
  consumer = mkdtempSync(join(tmpdir(), 'iacm-consumer-'));
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({
      name: 'consumer',
      private: true,
      dependencies: deps,
      overrides: Object.fromEntries(packages.map((n) => [`@iacm/${n}`, `$@iacm/${n}`])),
    }),
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: consumer,
    stdio: 'pipe',
  });
  mock = await listen({ port: 0, sizes: { workspaces: 12 } });
}, 240_000);

afterAll(() => mock?.close());

/** Runs a consumer program (asynchronously: the mock answers from this process). */
async function run(args: string[]): Promise<unknown> {
  const [primary] = mock.control.accounts();
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    cwd: consumer,
    env: {
      ...process.env,
      IACM_BASE_URL: mock.url,
      IACM_ACCESS_KEY: primary?.accessKey,
      IACM_SECRET_KEY: primary?.secretKey,
    },
  });
  return JSON.parse(stdout);
}

const program = (load: string) => `${load}
(async () => {
  const client = new IacmClient({ logLevel: 'off' });
  const all = await client.workspaces.search({ pageSize: 5 }).toArray({ limit: 100 });
  let refused = false;
  try { await client.workspaces.search({ pageSize: 0 }); } catch (e) { refused = e instanceof RequestValidationError; }
  const core = new MockCore({ sizes: { workspaces: 3 } });
  const health = await core.handle({ method: 'GET', path: '/v2/health' });
  const delivery = createTestDelivery({ notification: generateNotification('Drift'), credentials: { type: 'header', value: 'Api-Key k' } });
  const receiver = createWebhookReceiver({ credentials: { type: 'header', value: 'Api-Key k' } });
  const verified = await receiver.verify({ method: 'POST', headers: delivery.headers, body: delivery.body });
  console.log(JSON.stringify({ count: all.length, refused, endpoints: Object.keys(endpoints).length, health: health.status, webhook: verified.ok, listen: typeof listen, node: typeof createNodeMiddleware }));
})().catch((e) => { console.error(e); process.exit(1); });`;

const expected = {
  count: 12,
  refused: true,
  endpoints: 17,
  health: 204,
  webhook: true,
  listen: 'function',
  node: 'function',
};

describe('the packed tarballs', () => {
  it('work from an ESM consumer', async () => {
    const load = `import { IacmClient, RequestValidationError } from '@iacm/sdk';
import { endpoints } from '@iacm/sdk/contract';
import { MockCore } from '@iacm/mock-server';
import { listen } from '@iacm/mock-server/node';
import { createTestDelivery, createWebhookReceiver, generateNotification } from '@iacm/webhook-receiver';
import { createNodeMiddleware } from '@iacm/webhook-receiver/node';`;
    expect(await run(['--input-type=module', '-e', program(load)])).toEqual(expected);
  });

  it('work from a CJS consumer', async () => {
    const load = `const { IacmClient, RequestValidationError } = require('@iacm/sdk');
const { endpoints } = require('@iacm/sdk/contract');
const { MockCore } = require('@iacm/mock-server');
const { listen } = require('@iacm/mock-server/node');
const { createTestDelivery, createWebhookReceiver, generateNotification } = require('@iacm/webhook-receiver');
const { createNodeMiddleware } = require('@iacm/webhook-receiver/node');`;
    expect(await run(['-e', program(load)])).toEqual(expected);
  });

  it.each([
    ['node16', 'Node16', 'Node16'],
    ['bundler', 'ESNext', 'Bundler'],
  ])(
    'type-check from a TypeScript consumer (moduleResolution %s)',
    (name, module, resolution) => {
      const dir = join(consumer, `ts-${name}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module,
            moduleResolution: resolution,
            target: 'ES2022',
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: [],
            lib: ['ES2022', 'DOM'],
          },
          include: ['index.ts'],
        }),
      );
      writeFileSync(
        join(dir, 'index.ts'),
        `import { IacmClient, type WorkspaceSearchParams } from '@iacm/sdk';
import { endpoints, type WorkspaceSummary } from '@iacm/sdk/contract';
import { createMockServer, type MockServer } from '@iacm/mock-server';
import { createWebhookReceiver, type WebhookNotification } from '@iacm/webhook-receiver';
const client = new IacmClient({ baseUrl: 'http://127.0.0.1:4010', auth: { token: 't' } });
const params: WorkspaceSearchParams = { sort: { lastRunTime: { order: -1 } } };
export const page: Promise<WorkspaceSummary[]> = client.workspaces.search(params);
export const count: number = Object.keys(endpoints).length;
export const mock: MockServer = createMockServer();
export const receiver = createWebhookReceiver({ credentials: 'none' });
export type N = WebhookNotification;
// @ts-expect-error not a sortable field
client.workspaces.search({ sort: { nope: { order: 1 } } });
`,
      );
      const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      const out = (() => {
        try {
          return execFileSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
        } catch (error) {
          return (error as { stdout: string }).stdout;
        }
      })();
      expect(out).toBe('');
    },
    60_000,
  );
});
