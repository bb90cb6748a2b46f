/**
 * The mock server delivering to real receivers: every adapter, every credential method, and the
 * mock's integration rules (test before create, 401/403 statuses, retries, URL as entered,
 * credentials kept secret).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockCore } from '@iacm/mock-server';
import {
  type CredentialsOption,
  createWebhookReceiver,
  type WebhookNotification,
} from '@iacm/webhook-receiver';
import { afterEach, describe, expect, it } from 'vitest';
import { adapters, type Running } from './servers.js';

const running: Running[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.close();
});

const methods: Array<{ name: string; integration: unknown; receiver: CredentialsOption }> = [
  {
    name: 'basic',
    integration: { basic: { username: 'hook-user', password: 'p@ss:wörd-1' } },
    receiver: { type: 'basic', username: 'hook-user', password: 'p@ss:wörd-1' },
  },
  {
    name: 'header',
    integration: { authorization: 'Api-Key s3cr3t-value' },
    receiver: { type: 'header', value: 'Api-Key s3cr3t-value' },
  },
  { name: 'none', integration: undefined, receiver: 'none' },
];

function mock() {
  return new MockCore({
    sizes: { workspaces: 10, events: 50 },
    deliveryPolicy: { attempts: 3, baseDelayMs: 100, timeoutMs: 2000 },
  });
}

describe('the mock delivers to the receiver through each adapter', () => {
  for (const adapter of Object.keys(adapters)) {
    it.each(methods)(
      `${adapter}, $name credentials: the handler gets the typed payload`,
      async ({ integration, receiver }) => {
        const got: WebhookNotification[] = [];
        const hook = createWebhookReceiver({ credentials: receiver });
        hook.onAny((notification) => {
          got.push(notification);
        });
        const server = await (adapters[adapter] as (r: typeof hook) => Promise<Running>)(hook);
        running.push(server);
        const core = mock();
        const created = await core.control.webhooks.create({
          nickname: `${adapter} hook`,
          url: server.url,
          ...(integration ? { credentials: integration } : {}),
        });
        expect(created.status).toBe('active');
        expect(got.map((n) => n.kind)).toEqual(['test']);

        const stack = [...core.store.accounts.values()][0]?.explorer.stacks[0];
        core.control.recordFinding(stack?.id as string, {
          kind: 'Drift',
          name: 'acme-logs',
          drifts: [{ keyName: 'acl', iacValue: 'private', providerValue: 'public-read' }],
        });
        // Deliveries run concurrently: wait for each so the order below is the order sent.
        await core.control.flushDeliveries();
        core.control.notify({ notificationType: 'GhostResource' });
        await core.control.flushDeliveries();
        expect(got.map((n) => n.kind)).toEqual(['test', 'Drift', 'GhostResource']);
        const drift = got[1];
        if (drift?.kind !== 'Drift') throw new Error('expected a Drift notification');
        expect(drift.payload.samples[0]?.drifts[0]).toMatchObject({
          keyName: 'acl',
          providerValue: 'public-read',
        });
        expect(
          core.control.webhooks.deliveries(created.id).map((d) => [d.kind, d.status, d.outcome]),
        ).toEqual([
          ['Drift', 200, 'delivered'],
          ['GhostResource', 200, 'delivered'],
        ]);
      },
    );
  }
});

/** A plain endpoint that answers what the test says and records what came. */
async function endpoint(answer: (n: number) => number) {
  const seen: Array<{ url: string; headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      res.writeHead(answer(seen.length)).end();
    });
  }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  running.push({ url, server, close: () => new Promise((r) => server.close(() => r())) });
  return { url, seen };
}

describe("the mock's integrations", () => {
  it('creates nothing when the endpoint test fails, and says to check the URL and the credential', async () => {
    const core = mock();
    const { url } = await endpoint(() => 401);
    await expect(
      core.control.webhooks.create({ nickname: 'x', url, credentials: { authorization: 'Bearer wrong' } }),
    ).rejects.toThrow(/invalid webhook URL.*401.*check the URL and the credential value/);
    await expect(
      core.control.webhooks.create({ nickname: 'x', url: 'http://127.0.0.1:1/nothing' }),
    ).rejects.toThrow(/invalid webhook URL/);
    expect(core.control.webhooks.list()).toEqual([]);
    const res = await core.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      path: '/__mock/integrations/webhook',
      body: { nickname: 'x', url },
    });
    expect(res.status).toBe(422);
  });

  it('refuses both credential methods at once', async () => {
    const core = mock();
    const res = await core.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      path: '/__mock/integrations/webhook',
      body: {
        nickname: 'x',
        url: 'http://127.0.0.1:9/',
        credentials: { basic: { username: 'a', password: 'b' }, authorization: 'Bearer c' },
      },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toMatch(/mutually exclusive/);
  });

  it('sets invalid credentials on 401 and missing write permission on 403, without retrying', async () => {
    const core = mock();
    let status = 200;
    const { url, seen } = await endpoint(() => status);
    const integration = await core.control.webhooks.create({ nickname: 'x', url });
    status = 401;
    core.control.notify({ notificationType: 'Drift' });
    await core.control.flushDeliveries();
    expect(core.control.webhooks.list()[0]?.status).toBe('invalid_credentials');
    status = 403;
    core.control.notify({ notificationType: 'Drift' });
    await core.control.flushDeliveries();
    expect(core.control.webhooks.list()[0]?.status).toBe('missing_write_permission');
    expect(seen).toHaveLength(3);
    expect(core.control.webhooks.deliveries(integration.id).map((d) => d.outcome)).toEqual([
      'failed',
      'failed',
    ]);
  });

  it('retries a 5xx, then records exactly one successful delivery', async () => {
    const core = mock();
    const answers = [200, 503, 500, 200];
    const { url, seen } = await endpoint((n) => answers[n - 1] ?? 200);
    const integration = await core.control.webhooks.create({ nickname: 'x', url });
    core.control.notify({ notificationType: 'UnmanagedResource' });
    await core.control.flushDeliveries();
    const attempts = core.control.webhooks.deliveries(integration.id);
    expect(attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [1, 503, 'retrying'],
      [2, 500, 'retrying'],
      [3, 200, 'delivered'],
    ]);
    expect(attempts.filter((a) => a.outcome === 'delivered')).toHaveLength(1);
    expect(seen).toHaveLength(4);
    expect(core.control.webhooks.list()[0]?.status).toBe('active');
  });

  it('marks the integration failing once the retries are used up', async () => {
    const core = mock();
    const { url } = await endpoint((n) => (n === 1 ? 200 : 502));
    await core.control.webhooks.create({ nickname: 'x', url });
    core.control.notify({ notificationType: 'Drift' });
    await core.control.flushDeliveries();
    expect(core.control.webhooks.deliveries().map((d) => d.outcome)).toEqual([
      'retrying',
      'retrying',
      'failed',
    ]);
    expect(core.control.webhooks.list()[0]?.status).toBe('failing');
  });

  it('posts to the URL exactly as entered, query string included, with the header verbatim', async () => {
    const core = mock();
    const { url, seen } = await endpoint(() => 200);
    await core.control.webhooks.create({
      nickname: 'x',
      url: `${url}/hooks/iac?token=abc&team=platform%20ops`,
      credentials: { authorization: 'Custom  two-spaces' },
    });
    expect(seen[0]?.url).toBe('/hooks/iac?token=abc&team=platform%20ops');
    expect(seen[0]?.headers.authorization).toBe('Custom  two-spaces');
    expect(seen[0]?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]?.body ?? '{}')).toHaveProperty('text');
  });

  it('keeps credentials on a rename and switches the method when they are replaced', async () => {
    const core = mock();
    const { url, seen } = await endpoint(() => 200);
    const created = await core.control.webhooks.create({
      nickname: 'old',
      url,
      credentials: { basic: { username: 'u', password: 'pw-123' } },
    });
    const renamed = await core.control.webhooks.update(created.id, { nickname: 'new name' });
    expect(renamed).toMatchObject({ nickname: 'new name', credentials: { method: 'basic' } });
    await core.control.webhooks.test(created.id);
    expect(seen[1]?.headers.authorization).toBe(`Basic ${btoa('u:pw-123')}`);
    await expect(
      core.control.webhooks.update(created.id, { credentials: { authorization: 'Bearer t' } }),
    ).rejects.toThrow(/replaceCredentials/);
    const switched = await core.control.webhooks.update(created.id, {
      replaceCredentials: true,
      credentials: { authorization: 'Bearer t-456' },
    });
    expect(switched.credentials).toEqual({ method: 'authorization' });
    await core.control.webhooks.test(created.id);
    expect(seen[2]?.headers.authorization).toBe('Bearer t-456');
    const back = await core.control.webhooks.update(created.id, {
      replaceCredentials: true,
      credentials: { basic: { username: 'v', password: 'pw-789' } },
    });
    expect(back.credentials).toEqual({ method: 'basic' });
    await core.control.webhooks.test(created.id);
    expect(seen[3]?.headers.authorization).toBe(`Basic ${btoa('v:pw-789')}`);
  });

  it('never shows a credential in a listing, the journal, the deliveries or the state snapshot', async () => {
    const core = mock();
    const { url } = await endpoint(() => 200);
    const secrets = ['pw-very-secret', 'Bearer tok-very-secret', btoa('user:pw-very-secret')];
    const created = await core.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      path: '/__mock/integrations/webhook',
      body: { nickname: 'x', url, credentials: { basic: { username: 'user', password: 'pw-very-secret' } } },
    });
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    await core.handle({
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      path: `/__mock/integrations/webhook/${id}`,
      body: { replaceCredentials: true, credentials: { authorization: 'Bearer tok-very-secret' } },
    });
    const tested = await core.handle({
      method: 'POST',
      path: `/__mock/integrations/webhook/${id}/test`,
      headers: { 'content-type': 'application/json' },
    });
    expect(tested.status).toBe(200);
    const everything = JSON.stringify([
      created.body,
      (await core.handle({ method: 'GET', path: '/__mock/integrations/webhook' })).body,
      (await core.handle({ method: 'GET', path: `/__mock/integrations/webhook/${id}/deliveries` })).body,
      core.control.journal(),
      await core.control.getState(),
    ]);
    for (const secret of secrets) expect(everything).not.toContain(secret);
  });

  it('delivers a violation of a rule through its notification configuration', async () => {
    const core = mock();
    const { url, seen } = await endpoint(() => 200);
    await core.control.webhooks.create({ nickname: 'x', url });
    const account = [...core.store.accounts.values()][0];
    for (const rule of account?.rules.values() ?? [])
      account?.rules.set(rule.id, { ...rule, isEnabled: false });
    const [login] = core.accounts();
    const token = (
      (
        await core.handle({
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          path: '/v2/login',
          body: { accessKey: login?.accessKey, secretKey: login?.secretKey },
        })
      ).body as { accessToken: string }
    ).accessToken;
    const created = await core.handle({
      method: 'POST',
      path: '/v2/guardrails',
      headers: { authorization: `Bearer ${token}` },
      body: {
        createdBy: 'eeeeeeeeeeeeeeeeeeeeeeee',
        name: 'No deletes',
        type: 'resource',
        scope: {
          workspaces: { include: ['*'], exclude: [] },
          repositories: { include: [], exclude: [] },
          branches: { include: [], exclude: [] },
          labels: { include: [], exclude: [] },
        },
        criteria: {
          resource: {
            actions: ['delete'],
            regions: { include: [], exclude: [] },
            assetTypes: { include: [], exclude: [] },
          },
        },
        severity: 1,
      },
    });
    expect(created.status).toBe(200);
    const workspace = [...(account?.workspaces.values() ?? [])][0];
    core.control.simulateRun(workspace?.id as string, {
      changes: [
        { address: 'aws_instance.a', assetType: 'aws_instance', region: 'us-east-1', actions: ['delete'] },
      ],
    });
    await core.control.flushDeliveries();
    expect(seen).toHaveLength(2);
    expect(JSON.parse(seen[1]?.body ?? '{}')).toMatchObject({
      notificationType: 'InsightDetected',
      integrationName: 'Guardrail: No deletes',
    });
  });
});
