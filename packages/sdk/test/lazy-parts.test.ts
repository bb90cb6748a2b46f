/**
 * What a client loads, and when, besides the schema groups (`lazy-schemas.test.ts`): a client with
 * validation off loads none of the contract's zod modules, a call answered successfully does not
 * load what reads error answers (`core/answer-error.ts`), an error answer does and becomes the same
 * error as before, and when that part cannot be loaded the call fails with a clear error (the
 * answer's body released) and the next call tries again. A projected search is still read with its
 * projected schema, now loaded with the schema groups.
 */
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ids, workspaceSummary } from './fixtures.js';

/** The modules watched, by name: each one's first import is noted, and it fails when asked. */
const WATCHED = {
  zod: '../src/contract/zod.js',
  primitives: '../src/contract/primitives.js',
  answerError: '../src/core/answer-error.js',
};

const state = { imported: [] as string[], fail: undefined as string | undefined };

/** A fresh copy of the SDK (nothing loaded yet) with a client whose fetch answers `status` and `body`. */
async function freshClient(answer: { status: number; body: unknown }, validation?: 'strict' | 'off') {
  vi.resetModules();
  for (const [name, path] of Object.entries(WATCHED)) {
    vi.doMock(path, async (original) => {
      state.imported.push(name);
      if (state.fail === name) throw new Error(`failed to fetch dynamically imported module: ${path}`);
      return original();
    });
  }
  const sdk = await import('../src/index.js');
  const bodies: Response[] = [];
  const fetch = async () => {
    const response = new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
    });
    bodies.push(response);
    return response;
  };
  const client = new sdk.IacmClient({
    baseUrl: 'https://iacm.test',
    auth: { token: 't' },
    fetch,
    maxRetries: 0,
    ...(validation ? { validation } : {}),
  });
  return { client, sdk, bodies };
}

const notFound = { status: 404, code: 'not_found', message: 'no workspace ws_1', requestId: 'req_1' };

beforeEach(() => {
  state.imported.length = 0;
  state.fail = undefined;
});

afterAll(() => {
  for (const path of Object.values(WATCHED)) vi.doUnmock(path);
});

describe('parts a call loads only when it needs them', () => {
  it('a client with validation off loads none of the contract zod modules', async () => {
    const { client } = await freshClient({ status: 200, body: [workspaceSummary] }, 'off');
    await expect(client.workspaces.search()).resolves.toHaveLength(1);
    expect(state.imported).toEqual([]);
  });

  it('a call answered successfully does not load what reads error answers', async () => {
    const { client } = await freshClient({ status: 200, body: [workspaceSummary] });
    await expect(client.workspaces.search()).resolves.toHaveLength(1);
    expect(state.imported).not.toContain('answerError');
  });

  it('an error answer loads it and becomes the same error, body and headers redacted as before', async () => {
    const { client, sdk } = await freshClient({ status: 404, body: { ...notFound, secretKey: 'iacm_sk_1' } });
    const failure = await client.workspaces.delete(ids.workspace).catch((error: unknown) => error);
    expect(state.imported).toContain('answerError');
    expect(failure).toBeInstanceOf(sdk.NotFoundError);
    expect((failure as Error).message).toBe('workspaces.delete: 404 not_found: no workspace ws_1');
    const error = failure as InstanceType<typeof sdk.NotFoundError>;
    expect(error.status).toBe(404);
    expect(error.code).toBe('not_found');
    expect(error.requestId).toBe('req_1');
    expect((error.body as Record<string, unknown>).secretKey).toBe('[redacted]');
  });

  it('an error answer whose reader cannot be loaded fails with a clear error; the next call tries again', async () => {
    state.fail = 'answerError';
    const { client, sdk, bodies } = await freshClient({ status: 404, body: notFound });
    const failure = await client.workspaces.delete(ids.workspace).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(sdk.IacmError);
    expect(failure).not.toBeInstanceOf(sdk.APIError);
    expect((failure as Error).message).toMatch(
      /^workspaces\.delete: the service answered 404, and the SDK could not load what reads its error answers \(.*\); deploy every chunk of the SDK's build$/,
    );
    expect((failure as Error).cause).toBeInstanceOf(Error);
    // The answer's body is released, not left unread.
    expect(bodies[0]?.bodyUsed).toBe(true);
    state.fail = undefined;
    await expect(client.workspaces.delete(ids.workspace)).rejects.toBeInstanceOf(sdk.NotFoundError);
  });

  it('a projected search is read with its projected schema (loaded with the schemas)', async () => {
    const { client } = await freshClient({
      status: 200,
      body: [{ id: workspaceSummary.id, workspaceName: 'a' }],
    });
    await expect(client.workspaces.search({ projection: ['workspaceName'] })).resolves.toEqual([
      { id: workspaceSummary.id, workspaceName: 'a' },
    ]);
    const broken = await freshClient({ status: 200, body: [{ workspaceName: 'a' }] });
    await expect(broken.client.workspaces.search({ projection: ['workspaceName'] })).rejects.toThrow(
      /does not match the contract at \[0\]\.id/,
    );
  });
});
