/**
 * Cloudflare Workers, through workerd (the Workers runtime, pinned in tools/runtimes): two Workers
 * bundled with esbuild from the packed tarballs installed with npm, served by one workerd, against the
 * standalone mock's CLI run by Node. One Worker receives webhooks with the receiver's fetch handler
 * (the deliveries come from the mock), the other calls the mock with the SDK.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createConsumer, envFor, runOk, startAndStop, writeFiles } from '../packed/lib.js';
import { expectCleanStop } from '../packed/suite.js';
import { pinned, requireTools, startWorkerd, timed, tools, workerdDate } from './lib.js';
import { receiverWorker, sdkWorker, WEBHOOK_AUTHORIZATION, workerdConfig } from './programs.js';

/** The primary account's key pair of the CLI (the public demo pair it prints). */
const DEMO_KEYS = { accessKey: 'iacm_ak_demo', secretKey: 'iacm_sk_demo' };
const JSON_HEADERS = { 'content-type': 'application/json' };

describe('the packed tarballs in Cloudflare Workers (workerd)', () => {
  const prepared = inject('prepared');
  const dir = join(prepared.workDir, 'runtimes-workerd');
  const workers = join(dir, 'workers');
  const env = envFor(prepared.nodeBins['20'] as string);

  beforeAll(async () => {
    requireTools();
    // No msw: the Workers import the SDK and the receiver; the mock's CLI needs none.
    await timed('npm install of the tarballs (workerd project)', () =>
      createConsumer(dir, prepared, {}, env),
    );
    writeFiles(workers, { 'receiver.mjs': receiverWorker, 'sdk.mjs': sdkWorker });
    // As Wrangler bundles a Worker: ESM, for the browser platform with the workerd and worker conditions
    // (a `node:` import would fail here, or in workerd without the nodejs_compat flag).
    await timed('esbuild: bundle both Workers', () =>
      runOk(
        tools.esbuild,
        [
          'receiver.mjs',
          'sdk.mjs',
          '--bundle',
          '--format=esm',
          '--platform=browser',
          '--conditions=workerd,worker',
          '--outdir=dist',
          '--log-level=warning',
        ],
        { cwd: workers, env },
      ),
    );
  }, 180_000);

  /**
   * Starts the standalone mock with Node (`node node_modules/.bin/iacm-mock --port 0`), then workerd
   * serving both Workers (the SDK Worker's bindings point at the mock), runs `use`, and stops both.
   */
  async function withMockAndWorkers<T>(
    label: string,
    use: (mockUrl: string, worker: (name: 'receiver' | 'sdk') => string) => Promise<T>,
  ) {
    const stop = { signal: 'SIGTERM', target: 'pid' } as const;
    const cli = await timed(label, () =>
      startAndStop(dir, env, ['node_modules/.bin/iacm-mock', '--port', '0'], stop, {
        command: 'node',
        during: async (mockUrl) => {
          writeFileSync(
            join(workers, 'config.capnp'),
            workerdConfig(mockUrl, DEMO_KEYS.accessKey, DEMO_KEYS.secretKey),
          );
          const workerd = await startWorkerd(workers, 'config.capnp', ['receiver', 'sdk'], env);
          try {
            const result = await use(mockUrl, (name) => `http://127.0.0.1:${workerd.ports[name]}`);
            return { result, workerd: workerd.output() };
          } finally {
            await workerd.stop();
          }
        },
      }),
    );
    expectCleanStop(cli, stop, 0);
    return { ...(cli.during as { result: T; workerd: string }), mock: cli.output };
  }

  it(`is the pinned workerd (${pinned.workerd})`, async () => {
    const ran = await runOk(tools.workerd, ['--version'], { cwd: dir, env });
    expect(ran.stdout.trim()).toBe(`workerd ${workerdDate(pinned.workerd)}`);
  });

  it('a Worker using the SDK logs in to the standalone mock, searches workspaces (paging) and reads a 404 as NotFoundError', async () => {
    const { result, workerd, mock } = await withMockAndWorkers(
      'workerd: SDK Worker against the mock',
      async (mockUrl, worker) => {
        const answer = await fetch(worker('sdk'));
        const body = (await answer.json().catch(() => null)) as unknown;
        const journal = async (endpoint: string) =>
          ((await (await fetch(`${mockUrl}/__mock/journal?endpoint=${endpoint}`)).json()) as unknown[])
            .length;
        return {
          status: answer.status,
          body,
          logins: await journal('auth.login'),
          searches: await journal('workspaces.search'),
        };
      },
    );
    expect(result, `workerd:\n${workerd}\nmock:\n${mock}`).toEqual({
      status: 200,
      // The CLI's primary account has 120 workspaces: one page of 5, then 5 pages of 25 by paging.
      body: { page: 5, count: 120, error: { name: 'NotFoundError', notFound: true, status: 404 } },
      logins: 1,
      searches: 6,
    });
  });

  it('a Worker using the receiver fetch handler verifies the deliveries the standalone mock sends it (and refuses other credentials)', async () => {
    const { result, workerd, mock } = await withMockAndWorkers(
      'workerd: receiver Worker gets deliveries from the mock',
      async (mockUrl, worker) => {
        const post = (path: string, body?: unknown) =>
          fetch(`${mockUrl}/__mock${path}`, {
            method: 'POST',
            headers: JSON_HEADERS,
            body: body === undefined ? null : JSON.stringify(body),
          });
        const url = `${worker('receiver')}/hooks`;
        // The mock creates an integration only if its test delivery gets a 2xx: other credentials get 401.
        const refused = await post('/integrations/webhook', {
          nickname: 'workerd, other credentials',
          url,
          credentials: { authorization: 'Bearer not-the-token' },
        });
        const created = await post('/integrations/webhook', {
          nickname: 'workerd',
          url,
          credentials: { authorization: WEBHOOK_AUTHORIZATION },
        });
        const notified = await post('/notifications', { notificationType: 'Drift' });
        const notification = (await notified.json()) as {
          id: string;
          payload: { samples: { name: string }[] };
        };
        const flushed = await post('/deliveries/flush');
        const attempts = (await (await fetch(`${mockUrl}/__mock/deliveries`)).json()) as Array<{
          notificationId: string;
          kind: string;
          status: number;
          outcome: string;
        }>;
        const received = (await (await fetch(`${worker('receiver')}/received`)).json()) as unknown;
        return {
          refused: refused.status,
          created: created.status,
          notified: notified.status,
          flushed: flushed.status,
          drift: attempts
            .filter((attempt) => attempt.notificationId === notification.id)
            .map(({ kind, status, outcome }) => ({ kind, status, outcome })),
          received,
          samples: notification.payload.samples.map((sample) => sample.name),
        };
      },
    );
    expect(result, `workerd:\n${workerd}\nmock:\n${mock}`).toEqual({
      refused: 422,
      created: 201,
      notified: 202,
      flushed: 200,
      drift: [{ kind: 'Drift', status: 200, outcome: 'delivered' }],
      received: [
        { kind: 'test', text: expect.any(String) },
        { kind: 'Drift', samples: result.samples },
      ],
      samples: expect.arrayContaining([expect.any(String)]),
    });
  });
});
