/**
 * The standalone server (`listen()`, what `iacm-mock` runs): `GET /` tells a browser or curl what
 * this server is, how to log in and where the OpenAPI document is, without showing any key; and
 * `onRequest` sees every finished request, the request log's source.
 */
import { readFileSync } from 'node:fs';
import { endpointList } from '@iacm/sdk/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { DOCS_URL, landingDocument } from '../packages/mock-server/src/adapters/landing.js';
import { listen, type RunningMockServer } from '../packages/mock-server/src/adapters/node.js';
import { CONTROL_ROUTES } from '../packages/mock-server/src/control/routes.js';

const servers: RunningMockServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(options: Parameters<typeof listen>[0] = {}) {
  const server = await listen({ port: 0, ...options });
  servers.push(server);
  return server;
}

/** Every key (access and secret) of every account: none may appear on the landing page. */
function keysOf(server: RunningMockServer): string[] {
  return server.core.accounts().flatMap((account) => [account.accessKey, account.secretKey]);
}

describe('GET /', () => {
  it('answers curl (Accept: */*) with JSON: the routes, how to log in, the OpenAPI document', async () => {
    const server = await start({ primaryKeys: { accessKey: 'ak-landing', secretKey: 'sk-landing' } });
    const res = await fetch(`${server.url}/`, { headers: { accept: '*/*' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body.openapi).toBe(`${server.url}/openapi.json`);
    expect(body.login.request).toBe(`POST ${server.url}/v2/login`);
    expect(body.login.keys).toContain(`${server.url}/__mock/accounts`);
    expect(body.routes).toHaveLength(endpointList.length);
    expect(body.routes).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/v2/login', auth: false }),
    );
    for (const key of keysOf(server)) expect(text).not.toContain(key);
    // The links it gives work.
    expect((await fetch(body.openapi)).status).toBe(200);
  });

  it('answers a browser (Accept: text/html) with an HTML page with the same, and no key', async () => {
    const server = await start({ primaryKeys: { accessKey: 'ak-landing', secretKey: 'sk-landing' } });
    const res = await fetch(`${server.url}/`, {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('href="/openapi.json"');
    expect(html).toContain('href="/__mock/accounts"');
    expect(html).toContain('POST /v2/login');
    for (const endpoint of endpointList) expect(html).toContain(endpoint.path);
    for (const key of keysOf(server)) expect(html).not.toContain(key);
  });

  it('leaves other paths to the API (an unknown route is still 404)', async () => {
    const server = await start();
    const res = await fetch(`${server.url}/nothing-here`);
    expect(res.status).toBe(404);
  });
});

describe('the control plane GET / lists', () => {
  const listed = landingDocument('http://mock.test').controlPlane.routes.map((r) => r.route);
  const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

  /** Whether the control plane has a route for this method and path (it may still refuse the body). */
  async function answers(server: RunningMockServer, method: string, path: string): Promise<boolean> {
    const res = await fetch(`${server.url}${path}`, { method });
    const text = await res.text();
    if (res.status === 405) return false;
    return !(res.status === 404 && JSON.parse(text).code === 'route_not_found');
  }

  it('are exactly what the control plane answers: each listed route, no other method on their paths', async () => {
    const server = await start({ sizes: { workspaces: 3, events: 30 } });
    const paths = [...new Set(listed.map((route) => route.split(' ')[1] as string))];
    const answered: string[] = [];
    for (const template of paths) {
      const path = template.replaceAll('{id}', 'landing-test-id');
      for (const method of methods) {
        if (await answers(server, method, path)) answered.push(`${method} ${template}`);
      }
    }
    expect(answered.sort()).toEqual([...listed].sort());
  });

  it('are the control table of routes, each once, with what it does', () => {
    const table = CONTROL_ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(table.length).toBeGreaterThan(10);
    expect(listed).toEqual(table);
    expect(new Set(listed).size).toBe(listed.length);
    for (const route of landingDocument('http://mock.test').controlPlane.routes) {
      expect(route.summary.length).toBeGreaterThan(0);
    }
  });

  it("link the guide at the package's repository (docs/ is not in the published package)", async () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../packages/mock-server/package.json', import.meta.url), 'utf8'),
    ) as { repository: { url: string } };
    const repository = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(DOCS_URL).toBe(`${repository}/blob/main/docs/mock-server.md`);
    const server = await start();
    const json = await (await fetch(`${server.url}/`)).json();
    expect(json.controlPlane.docs).toBe(DOCS_URL);
    const html = await (await fetch(`${server.url}/`, { headers: { accept: 'text/html' } })).text();
    expect(html).toContain(`href="${DOCS_URL}"`);
    expect(`${JSON.stringify(json)}${html}`).not.toMatch(/(?<!main\/)docs\/mock-server\.md/);
  });
});

describe('onRequest', () => {
  it('sees each finished request: method, target as sent, status; a dropped connection has no status', async () => {
    const seen: Array<{ method: string; url: string; status: number | undefined }> = [];
    const server = await start({
      onRequest: ({ method, url, status, durationMs }) => {
        expect(durationMs).toBeGreaterThanOrEqual(0);
        seen.push({ method, url, status });
      },
    });
    await fetch(`${server.url}/v2/health?x=1`); // unknown query member: 400
    await fetch(`${server.url}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"accessKey":"nope","secretKey":"nope"}',
    });
    server.control.addFault({ path: '/v2/health', drop: true });
    await fetch(`${server.url}/v2/health`).catch(() => undefined);
    await expect.poll(() => seen.length, { timeout: 30_000 }).toBe(3);
    expect(seen).toEqual([
      { method: 'GET', url: '/v2/health?x=1', status: 400 },
      { method: 'POST', url: '/v2/login', status: 401 },
      { method: 'GET', url: '/v2/health', status: undefined },
    ]);
  });

  it('a throwing onRequest does not affect the answers', async () => {
    const server = await start({
      onRequest: () => {
        throw new Error('log failed');
      },
    });
    expect((await fetch(`${server.url}/v2/health`)).status).toBe(204);
    expect((await fetch(`${server.url}/v2/health`)).status).toBe(204);
  });
});

describe('a login with unknown keys', () => {
  it('says where the valid key pairs are, and never echoes the keys sent', async () => {
    const server = await start();
    const res = await fetch(`${server.url}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: 'iacm_ak_wrongAK', secretKey: 'iacm_sk_wrongSK' }),
    });
    expect(res.status).toBe(401);
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body.code).toBe('invalid_credentials');
    expect(body.message).toContain('GET /__mock/accounts');
    expect(body.message).toContain('iacm-mock prints');
    expect(text).not.toContain('wrongAK');
    expect(text).not.toContain('wrongSK');
  });
});
