import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  IacmClient,
  IacmError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
} from '@iacm/sdk';
import { type EndpointName, endpointList } from '@iacm/sdk/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startMock } from './helpers.js';

let env: Awaited<ReturnType<typeof startMock>>;
beforeAll(async () => {
  env = await startMock();
});
afterAll(() => env.close());
beforeEach(async () => {
  await env.mock.control.reset();
  env.mock.control.clearFaults();
  env.mock.control.clearJournal();
  env.lines.length = 0;
});

const MISSING = 'ffffffffffffffffffffffff';
const rule = {
  createdBy: 'cccccccccccccccccccccccc',
  name: 'SDK rule',
  type: 'cost' as const,
  scope: {
    workspaces: { include: ['*'], exclude: [] },
    repositories: { include: [], exclude: [] },
    branches: { include: ['main'], exclude: [] },
    labels: { include: [], exclude: [] },
  },
  criteria: { cost: { thresholdAmount: 50 } },
  severity: 1 as const,
};

/** Every endpoint: a call that succeeds and a call that fails, with the error class it must throw. */
const matrix: Record<
  EndpointName,
  {
    ok: (c: IacmClient, ids: { workspace: string; rule: string }) => Promise<unknown>;
    fail: (c: IacmClient) => Promise<unknown>;
    error: typeof APIError;
  }
> = {
  'auth.login': {
    ok: (c) => c.auth.login({ accessKey: env.primary.accessKey, secretKey: env.primary.secretKey }),
    fail: (c) => c.auth.login({ accessKey: env.primary.accessKey, secretKey: 'wrong' }),
    error: AuthenticationError,
  },
  health: {
    ok: (c) => c.health(),
    fail: (c) =>
      c
        .withOptions({ maxRetries: 0 })
        .health()
        .then(() => env.mock.control.addFault({ path: '/v2/health', status: 503 })),
    error: InternalServerError,
  },
  'workspaces.search': {
    ok: (c) => c.workspaces.search({ pageSize: 5 }),
    fail: (c) => c.workspaces.search({}, { validation: 'off', headers: { authorization: 'Bearer broken' } }),
    error: AuthenticationError,
  },
  'workspaces.delete': {
    ok: (c, ids) => c.workspaces.delete(ids.workspace),
    fail: (c) => c.workspaces.delete(MISSING),
    error: NotFoundError,
  },
  'workspaces.setLabels': {
    ok: (c, ids) => c.workspaces.setLabels(ids.workspace, ['a']),
    fail: (c) => c.workspaces.setLabels(MISSING, ['a']),
    error: NotFoundError,
  },
  'workspaces.runs.search': {
    ok: (c, ids) => c.workspaces.runs.search(ids.workspace),
    fail: (c) => c.workspaces.runs.search(MISSING),
    error: NotFoundError,
  },
  'guardrails.search': {
    ok: (c) => c.guardrails.search({ filters: { type: ['cost'] } }),
    fail: (c) => c.guardrails.search({ pageSize: 9999 }, { validation: 'off' }),
    error: BadRequestError,
  },
  'guardrails.create': {
    ok: (c) => c.guardrails.create(rule),
    fail: (c) => c.guardrails.create({ ...rule, accountId: env.other.id }),
    error: PermissionDeniedError,
  },
  'guardrails.update': {
    ok: (c, ids) => c.guardrails.update(ids.rule, { name: 'renamed' }),
    fail: (c) => c.guardrails.update(MISSING, { name: 'x' }),
    error: NotFoundError,
  },
  'guardrails.delete': {
    ok: (c, ids) => c.guardrails.delete(ids.rule),
    fail: (c) => c.guardrails.delete(MISSING),
    error: NotFoundError,
  },
  'iacExplorer.stacks': {
    ok: (c) => c.iacExplorer.stacks({ pageSize: 5 }),
    fail: (c) => c.iacExplorer.stacks({ page: 1, pageNumber: 2 }, { validation: 'off' }),
    error: BadRequestError,
  },
  'iacExplorer.backends': {
    ok: (c) => c.iacExplorer.backends(),
    fail: (c) => c.iacExplorer.backends({ pageSize: 0 }, { validation: 'off' }),
    error: BadRequestError,
  },
  'iacExplorer.repositories': {
    ok: (c) => c.iacExplorer.repositories(),
    fail: (c) => c.iacExplorer.repositories({ freeTextSearch: 5 as never }, { validation: 'off' }),
    error: BadRequestError,
  },
  'iacExplorer.modules': {
    ok: (c) => c.iacExplorer.modules({ sortArr: [{ field: 'usageCount', sort: 'desc' }] }),
    fail: (c) => c.iacExplorer.modules({ sort: [], sortArr: [] }, { validation: 'off' }),
    error: BadRequestError,
  },
  'iacExplorer.providers': {
    ok: (c) => c.iacExplorer.providers(),
    fail: (c) =>
      c.iacExplorer.providers({ screenFilters: { providerType: 'aws' as never } }, { validation: 'off' }),
    error: BadRequestError,
  },
  'eventCenter.query': {
    ok: (c) => c.eventCenter.query({ size: 10, facets: [{ field: 'integrationId' }] }),
    fail: (c) => c.eventCenter.query({ size: 151 }, { validation: 'off' }),
    error: BadRequestError,
  },
  'eventCenter.facets': {
    ok: (c) => c.eventCenter.facets({ field: 'eventType' }),
    fail: (c) => c.eventCenter.facets({ field: 'colour' as never }, { validation: 'off' }),
    error: BadRequestError,
  },
};

describe('every endpoint through the SDK', () => {
  it('has a case for every endpoint of the table', () => {
    expect(Object.keys(matrix).sort()).toEqual(endpointList.map((e) => e.name).sort());
  });

  it.each(endpointList.map((e) => [e.name as EndpointName] as const))(
    '%s answers, and maps its error answer to the right class',
    async (name) => {
      const client = env.client();
      const workspace = (await client.workspaces.search({ pageSize: 1 }))[0]?.id as string;
      const ruleId = (await client.guardrails.create(rule)).ruleId;
      await matrix[name].ok(client, { workspace, rule: ruleId });
      if (name === 'health') {
        env.mock.control.addFault({ path: '/v2/health', status: 503, times: 5 });
        await expect(client.withOptions({ maxRetries: 0 }).health()).rejects.toBeInstanceOf(
          InternalServerError,
        );
        return;
      }
      const error = await matrix[name].fail(client).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(matrix[name].error);
      expect(error).toBeInstanceOf(APIError);
      expect(error).toBeInstanceOf(IacmError);
      const api = error as APIError;
      expect(api.requestId).toMatch(/^req_/);
      expect(api.code).toBeTruthy();
      expect(api.headers['content-type']).toBe('application/json');
    },
  );
});

describe('pagination', () => {
  it('awaits one page and iterates every item across pages, stopping at a short page', async () => {
    const client = env.client();
    const page = await client.workspaces.search({ pageSize: 7 });
    expect(page).toHaveLength(7);
    const all: string[] = [];
    for await (const w of client.workspaces.search({ pageSize: 7, sort: { workspaceName: { order: 1 } } }))
      all.push(w.id);
    expect(all).toHaveLength(60);
    expect(new Set(all).size).toBe(60);
    expect(env.count('POST', '/v2/workspaces/search')).toBe(1 + Math.ceil(61 / 7));
  });

  it('iterates explorer queries by total and the event center by continuation token', async () => {
    const client = env.client();
    const first = await client.iacExplorer.stacks({ pageSize: 4 });
    const stacks = [];
    for await (const s of client.iacExplorer.stacks({ pageSize: 4 })) stacks.push(s);
    expect(stacks).toHaveLength(first.total);
    const events = await client.eventCenter.query({ size: 150 }).toArray({ limit: 10_000 });
    expect(events).toHaveLength(400);
    expect(new Set(events.map((e) => e.id)).size).toBe(400);
  });

  it('toArray needs a limit and stops fetching once it has enough', async () => {
    const client = env.client();
    env.mock.control.clearJournal();
    const refused = await client.workspaces
      .search()
      .toArray(undefined as never)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(IacmError);
    expect((refused as IacmError).message).toBe(
      'toArray: limit expects a whole number, 0 or more (the most items to collect, so that a large ' +
        'account cannot exhaust memory), received no limit',
    );
    // Refused before any request.
    expect(env.count('POST', '/v2/workspaces/search')).toBe(0);
    const ten = await client.workspaces.search({ pageSize: 5 }).toArray({ limit: 10 });
    expect(ten).toHaveLength(10);
    expect(env.count('POST', '/v2/workspaces/search')).toBe(2);
  });

  it('stops an iteration when its signal aborts', async () => {
    const client = env.client();
    const controller = new AbortController();
    const seen: string[] = [];
    const run = async () => {
      for await (const w of client.workspaces.search({ pageSize: 5 }, { signal: controller.signal })) {
        seen.push(w.id);
        if (seen.length === 5) controller.abort();
      }
    };
    await expect(run()).rejects.toBeInstanceOf(APIUserAbortError);
    expect(seen).toHaveLength(5);
  });

  it('gives the raw response and request id with withResponse', async () => {
    const { data, response, requestId } = await env
      .client()
      .workspaces.search({ pageSize: 2 })
      .withResponse();
    expect(data).toHaveLength(2);
    expect(response.status).toBe(200);
    expect(requestId).toBe(response.headers.get('x-request-id'));
  });

  it('types and trims projected items', async () => {
    const items = await env.client().workspaces.search({ projection: ['workspaceName'], pageSize: 3 });
    for (const item of items) expect(Object.keys(item).sort()).toEqual(['id', 'workspaceName']);
  });
});

describe('retries', () => {
  it('retries a 429 after its Retry-After, and the hook sees it', async () => {
    const retries: Array<{ delayMs: number; attempt: number }> = [];
    // While the client waits out each Retry-After, another client's health check goes and comes back:
    // the waits show in the journal's order (a request between the attempts), not on a stopwatch.
    const other = env.client();
    const between: Array<Promise<unknown>> = [];
    const client = env.client({
      hooks: {
        onRetry: (info) => {
          retries.push({ delayMs: info.delayMs, attempt: info.attempt });
          between.push(other.health());
        },
      },
    });
    await client.health();
    env.mock.control.addFault({
      method: 'POST',
      path: '/v2/workspaces/search',
      status: 429,
      headers: { 'Retry-After': '0.2' },
      times: 2,
    });
    const page = await client.workspaces.search({ pageSize: 3 });
    await Promise.all(between);
    expect(page).toHaveLength(3);
    expect(retries).toEqual([
      { delayMs: 200, attempt: 1 },
      { delayMs: 200, attempt: 2 },
    ]);
    expect(env.count('POST', '/v2/workspaces/search')).toBe(3);
    const order = env
      .journal()
      .filter((e) => e.path === '/v2/workspaces/search' || e.path === '/v2/health')
      .map((e) => `${e.path === '/v2/health' ? 'health' : 'search'} ${e.status}`);
    expect(order.slice(-5)).toEqual(['search 429', 'health 204', 'search 429', 'health 204', 'search 200']);
  });

  it('throws a RateLimitError with retryAfter once the retries are used up', async () => {
    env.mock.control.addFault({
      path: '/v2/workspaces/search',
      status: 429,
      headers: { 'Retry-After': '0' },
      times: 10,
    });
    const error = await env
      .client({ maxRetries: 1 })
      .workspaces.search()
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(0);
    expect(env.count('POST', '/v2/workspaces/search')).toBe(2);
  });

  it('does not retry a create, unless the caller says it is idempotent', async () => {
    const client = env.client();
    await client.health();
    env.mock.control.addFault({ method: 'POST', path: '/v2/guardrails', status: 503, times: 1 });
    await expect(client.guardrails.create(rule)).rejects.toBeInstanceOf(InternalServerError);
    expect(env.count('POST', '/v2/guardrails')).toBe(1);
    env.mock.control.addFault({
      method: 'POST',
      path: '/v2/guardrails',
      status: 503,
      headers: { 'Retry-After': '0' },
      times: 1,
    });
    const created = await client.guardrails.create(rule, { idempotent: true });
    expect(created.ruleId).toMatch(/^[0-9a-f]{24}$/);
    expect(env.count('POST', '/v2/guardrails')).toBe(3);
  });

  it('retries a dropped connection and then reports it as a connection error with its cause', async () => {
    const client = env.client({ maxRetries: 1 });
    await client.health();
    env.mock.control.addFault({ path: '/v2/workspaces/search', drop: true, times: 5 });
    const error = await client.workspaces.search().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).cause).toBeDefined();
    expect(env.count('POST', '/v2/workspaces/search')).toBe(2);
  });

  it('times out an attempt that takes too long', async () => {
    const client = env.client({ timeout: 100, maxRetries: 0 });
    await client.health();
    env.mock.control.addFault({ path: '/v2/workspaces/search', delayMs: 1000 });
    await expect(client.workspaces.search()).rejects.toBeInstanceOf(APIConnectionTimeoutError);
  });
});

describe('auth', () => {
  it('logs in once for 50 concurrent calls (single flight)', async () => {
    const client = env.client();
    const pages = await Promise.all(
      Array.from({ length: 50 }, () => client.workspaces.search({ pageSize: 1 })),
    );
    expect(pages.every((p) => p.length === 1)).toBe(true);
    expect(env.count('POST', '/v2/login')).toBe(1);
  });

  it('reuses the token until shortly before it expires, then logs in again', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      const client = env.client();
      await client.workspaces.search({ pageSize: 1 });
      const move = (ms: number) => {
        vi.setSystemTime(Date.now() + ms);
        env.advance(ms);
      };
      move(49 * 60_000);
      await client.workspaces.search({ pageSize: 1 });
      expect(env.count('POST', '/v2/login')).toBe(1);
      move(2 * 60_000); // 51 minutes: less than 10 minutes of the hour left
      await client.workspaces.search({ pageSize: 1 });
      expect(env.count('POST', '/v2/login')).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('logs in again once when a token expires under it (401), and the call succeeds', async () => {
    const client = new IacmClient({
      baseUrl: env.mock.url,
      auth: { accessKey: env.primary.accessKey, secretKey: env.primary.secretKey },
      logLevel: 'off',
    });
    await client.workspaces.search({ pageSize: 1 });
    env.advance(2 * 3600_000); // the mock's clock: the cached token is now expired there
    const page = await client.workspaces.search({ pageSize: 1 });
    expect(page).toHaveLength(1);
    const statuses = env
      .journal()
      .filter((e) => e.path === '/v2/workspaces/search')
      .map((e) => e.status);
    expect(statuses).toEqual([200, 401, 200]);
    expect(env.count('POST', '/v2/login')).toBe(2);
  });

  it("logs in once when the mock's clock is months in the past, and again on the 401 once its token expires there", async () => {
    // The documented `clock` for stable timestamps: the tokens' expiresAt is in this machine's past.
    const past = await startMock({ clock: () => Date.UTC(2026, 0, 1) });
    try {
      const client = past.client();
      for (let i = 0; i < 6; i += 1) await client.workspaces.search({ pageSize: 1 });
      expect(past.count('POST', '/v2/login')).toBe(1);
      past.mock.control.clock.advance(2 * 3600_000); // the mock's tokens live an hour
      await client.workspaces.search({ pageSize: 1 });
      const statuses = past
        .journal()
        .filter((e) => e.path === '/v2/workspaces/search')
        .map((e) => e.status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 401, 200]);
      expect(past.count('POST', '/v2/login')).toBe(2);
    } finally {
      await past.close();
    }
  });

  it('does not loop when the credentials are wrong', async () => {
    const client = env.client({ auth: { accessKey: env.primary.accessKey, secretKey: 'nope' } });
    await expect(client.workspaces.search()).rejects.toBeInstanceOf(AuthenticationError);
    expect(env.count('POST', '/v2/login')).toBe(1);
  });

  it('accepts a static token and a token function', async () => {
    const { accessToken } = await env
      .client()
      .auth.login({ accessKey: env.primary.accessKey, secretKey: env.primary.secretKey });
    expect(
      await env.client({ auth: { token: accessToken } }).workspaces.search({ pageSize: 1 }),
    ).toHaveLength(1);
    let calls = 0;
    const fn = async () => {
      calls += 1;
      return accessToken;
    };
    expect(await env.client({ auth: fn }).workspaces.search({ pageSize: 1 })).toHaveLength(1);
    expect(calls).toBe(1);
  });
});

describe('validation', () => {
  it('refuses a bad request before anything is sent, naming each bad field', async () => {
    const client = env.client();
    env.mock.control.clearJournal();
    const error = await client.workspaces
      .search({
        pageSize: 0,
        filters: { ciTool: ['circleci' as never] },
        sort: { nope: { order: 1 } } as never,
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(RequestValidationError);
    const paths = (error as RequestValidationError).issues.map((i) => `${i.location}:${i.path}`);
    expect(paths).toEqual(expect.arrayContaining(['query:pageSize', 'body:filters.ciTool[0]']));
    expect(env.journal()).toHaveLength(0);
  });

  it('reads a broken answer strictly, with a warning, or not at all', async () => {
    const broken = [{ id: 'not-an-id', workspaceName: 42 }];
    const fault = () =>
      env.mock.control.addFault({ path: '/v2/workspaces/search', status: 200, body: broken });
    const client = env.client();
    await client.health();
    fault();
    const error = await client.workspaces.search().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['[0].id', '[0].workspaceName']),
    );
    fault();
    env.lines.length = 0;
    expect(await client.workspaces.search({}, { validation: 'warn' })).toEqual(broken);
    expect(env.lines.some((l) => l.startsWith('warn') && l.includes('does not match the contract'))).toBe(
      true,
    );
    fault();
    env.lines.length = 0;
    expect(await env.client({ validation: 'off' }).workspaces.search()).toEqual(broken);
    expect(env.lines.some((l) => l.startsWith('warn'))).toBe(false);
  });
});

describe('options', () => {
  it('refuses unknown options, listing the valid ones', () => {
    expect(() => new IacmClient({ baseUrl: 'http://x', retries: 3 } as never)).toThrow(
      /unknown option "retries"; valid options are: baseUrl, auth, timeout/,
    );
    expect(() => env.client().workspaces.search({}, { retry: 1 } as never)).not.toThrow();
  });

  it('refuses unknown request options when the call runs', async () => {
    await expect(env.client().workspaces.search({}, { retry: 1 } as never)).rejects.toThrow(
      /unknown request option "retry"/,
    );
  });

  it('fills baseUrl and auth from the environment', async () => {
    const saved = { ...process.env };
    try {
      process.env.IACM_BASE_URL = env.mock.url;
      process.env.IACM_ACCESS_KEY = env.primary.accessKey;
      process.env.IACM_SECRET_KEY = env.primary.secretKey;
      expect(await new IacmClient({ logLevel: 'off' }).workspaces.search({ pageSize: 2 })).toHaveLength(2);
      delete process.env.IACM_BASE_URL;
      expect(() => new IacmClient()).toThrow(/baseUrl is required/);
    } finally {
      process.env = saved;
    }
  });

  it('derives a client with withOptions, sharing the login', async () => {
    const base = env.client();
    await base.workspaces.search({ pageSize: 1 });
    const derived = base.withOptions({ headers: { 'x-team': 'platform' } });
    await derived.workspaces.search({ pageSize: 1 });
    expect(env.count('POST', '/v2/login')).toBe(1);
    expect(env.journal().at(-1)?.headers['x-team']).toBe('platform');
  });
});

describe('credentials stay secret', () => {
  it('never puts a token, a secret key or an Authorization value into errors or log lines', async () => {
    const client = env.client();
    const { accessToken } = await client.auth.login({
      accessKey: env.primary.accessKey,
      secretKey: env.primary.secretKey,
    });
    const errors: unknown[] = [];
    const capture = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: unknown) => errors.push(e),
      );
    await client.workspaces.search({ pageSize: 1 });
    await capture(client.workspaces.delete(MISSING));
    await capture(
      env.client({ auth: { token: accessToken }, maxRetries: 0 }).workspaces.search({ pageSize: 0 }),
    );
    await capture(
      env
        .client({ auth: { accessKey: env.primary.accessKey, secretKey: `${env.primary.secretKey}x` } })
        .workspaces.search(),
    );
    await capture(client.auth.login({ accessKey: env.primary.accessKey, secretKey: 'short-secret' }));
    await capture(
      client.auth.login({ accessKey: env.primary.accessKey, secretKey: 'x', extra: 'other-secret' } as never),
    );
    expect(errors.length).toBe(5);
    const text = [
      ...errors.flatMap((e) => [String(e), (e as Error).stack ?? '', JSON.stringify(e)]),
      ...env.lines,
    ].join('\n');
    for (const secret of [accessToken, env.primary.secretKey, 'short-secret', 'other-secret'])
      expect(text).not.toContain(secret);
    expect(env.lines.some((l) => l.includes('[redacted]'))).toBe(true);
  });
});
