/**
 * No control value can break the API (issue 20, finding 7: `POST /__mock/clock {"now": 9e15}` made
 * every answer a 500, `/v2/health` included, until the clock resumed). Every control route gets
 * extreme numbers (1e308, -1e308, 9e15, -0, 2^53, 1e400 (which JSON.parse reads as Infinity),
 * non-integers), strings, wrong types, nulls, arrays and objects, in place of any member of a valid
 * body (or as the whole body), in its path parameter and its query. After each call, a fixed set of
 * requests (the control routes that list things, health, login, a workspace and a guardrail search,
 * an event query) must answer below 500, the control call itself too, and every answer must
 * serialise. Each case starts from `POST /__mock/reset`.
 *
 * `pnpm test` runs a short run; `pnpm test:fuzz` (the `fuzz` project picks every `fuzz.test.ts`) runs
 * 12 times as many, with fixed seeds (fast-check prints the seed and the shrunk case of a failure).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../../../tests/support/fuzz.js';
import { CONTROL_ROUTES } from '../../src/control/routes.js';
import type { MockResponse } from '../../src/http/message.js';
import { setup, tagRuleBody } from '../helpers.js';

const HOOK = 'https://hooks.example.test/in';

/** Stands for the hostile value in a template's JSON text, replaced by the value's raw text. */
const MARK = '\u0000hostile\u0000';
const MARK_JSON = JSON.stringify(MARK);

/** Raw JSON texts of hostile values: numbers JSON can carry (and `1e400`, read as Infinity), strings, types. */
const hostileText: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '1e308',
      '-1e308',
      '9e15',
      '-9e15',
      '8.64e15',
      '8640000000000001',
      '253402300800000',
      '253402300799999',
      '-0',
      '0',
      '1',
      '-1',
      '0.5',
      '1.5',
      '9007199254740992',
      '-9007199254740992',
      '4294967296',
      '2147483648',
      '1e400',
      '-1e400',
      '1e-400',
      '5e-324',
      '123456789012345678901234567890',
    ),
  },
  fc.constantFrom(
    '""',
    '"x"',
    '"*"',
    '"0"',
    '"-1"',
    '"1e308"',
    '"NaN"',
    '"Infinity"',
    '"0000-01-01T00:00:00Z"',
    '"9999-12-31T23:59:59.999Z"',
    '"+275760-09-13T00:00:00.000Z"',
    '"1969-12-31T23:59:59.999Z"',
    '"__proto__"',
    '"constructor"',
    `"${'x'.repeat(5000)}"`,
  ),
  fc.constantFrom('null', 'true', 'false', '[]', '{}', '[null]', '[1e308]', '{"a":1e308}', '[[[]]]'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  // Within most ranges: sizes, limits and delays a route takes (kept small, so that a seed stays quick).
  fc.integer({ min: -2000, max: 2000 }).map(String),
);

/** One control call: a route, which member of its template to replace (or none, or the whole body), by what. */
interface Case {
  template: number;
  target: number;
  /** Replace a member that holds a number in the template (rather than any member). */
  numeric: boolean;
  value: string;
  id: 'real' | 'junk' | 'other';
  query: string | undefined;
}

/** A valid body of each route (a route may have several); `undefined` for none. */
function templates(ids: { workspace: string; stack: string; account: string }): Array<{
  method: string;
  path: string;
  body: unknown;
}> {
  const change = {
    address: 'aws_instance.web',
    assetType: 'aws_instance',
    region: 'us-east-1',
    actions: ['create'],
    tags: { team: 'core' },
    monthlyCost: { before: 10, after: 250 },
  };
  const costRule = { ...tagRuleBody('cost'), type: 'cost', criteria: { cost: { thresholdAmount: 100 } } };
  const list: Array<{ method: string; path: string; body: unknown }> = [
    { method: 'POST', path: '/__mock/reset', body: undefined },
    {
      method: 'POST',
      path: '/__mock/seed',
      body: {
        seed: 3,
        sizes: {
          accounts: 2,
          workspaces: 4,
          runsPerWorkspace: 2,
          rules: 3,
          stacks: 2,
          events: 20,
          integrations: 1,
        },
      },
    },
    { method: 'PUT', path: '/__mock/state', body: 'state' },
    { method: 'DELETE', path: '/__mock/journal', body: undefined },
    {
      method: 'POST',
      path: '/__mock/faults',
      body: {
        method: 'GET',
        path: '/v2/none',
        times: 2,
        status: 503,
        headers: { 'x-a': 'b' },
        body: { a: 1 },
      },
    },
    { method: 'POST', path: '/__mock/faults', body: { path: '/v2/none', delayMs: 10, drop: false } },
    { method: 'DELETE', path: '/__mock/faults', body: undefined },
    { method: 'POST', path: '/__mock/rate-limit', body: { enabled: true, limit: 1000, windowSeconds: 60 } },
    { method: 'POST', path: '/__mock/clock', body: { now: 1_780_000_000_000, advanceMs: 1000 } },
    { method: 'POST', path: '/__mock/clock', body: { now: '2026-02-01T00:00:00.000Z', resume: true } },
    {
      method: 'POST',
      path: '/__mock/workspaces/{id}/runs',
      body: {
        branch: 'main',
        title: 'fuzz',
        apply: true,
        changes: [change],
        policyFindings: [{ policy: 'p', severity: 'high', address: 'aws_instance.web' }],
        changedFiles: [{ path: 'main.tf', type: 'modified' }],
      },
    },
    {
      method: 'POST',
      path: '/__mock/guardrails/evaluate',
      body: {
        accountId: ids.account,
        rules: [costRule],
        run: { workspaceName: 'w', repository: 'acme/r', branch: 'main', labels: ['prod'] },
        plan: { changes: [change], policyFindings: [] },
      },
    },
    {
      method: 'POST',
      path: '/__mock/stacks/{id}/findings',
      body: {
        kind: 'Drift',
        assetType: 'aws_s3_bucket',
        assetId: 'arn:aws:s3:::b',
        name: 'b',
        region: 'us-east-1',
        drifts: [{ keyName: 'acl', iacValue: 'private', providerValue: 'public' }],
      },
    },
    {
      method: 'POST',
      path: '/__mock/notifications',
      body: { notificationType: 'Drift', accountId: ids.account, n: 1 },
    },
    {
      method: 'POST',
      path: '/__mock/integrations/webhook',
      body: { nickname: 'n', url: HOOK, credentials: { authorization: 'Bearer x' }, accountId: ids.account },
    },
    { method: 'PATCH', path: '/__mock/integrations/webhook/{id}', body: { nickname: 'm', url: `${HOOK}/2` } },
    { method: 'DELETE', path: '/__mock/integrations/webhook/{id}', body: undefined },
    { method: 'POST', path: '/__mock/integrations/webhook/{id}/test', body: undefined },
    { method: 'POST', path: '/__mock/deliveries/flush', body: undefined },
    { method: 'POST', path: '/__mock/deliveries/run-due', body: undefined },
    {
      method: 'PUT',
      path: '/__mock/deliveries/policy',
      body: { attempts: 3, baseDelayMs: 1000, maxDelayMs: 60_000, maxTotalMs: 600_000, timeoutMs: 10_000 },
    },
  ];
  for (const route of CONTROL_ROUTES) {
    if (!list.some((t) => t.method === route.method && t.path === route.path))
      list.push({ method: route.method, path: route.path, body: undefined });
  }
  return list;
}

/** Every path inside a value, as lists of keys (the value itself first). */
function pathsOf(
  value: unknown,
  prefix: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
) {
  out.push(prefix);
  if (typeof value === 'object' && value !== null) {
    for (const [key, member] of Object.entries(value)) {
      pathsOf(member, [...prefix, Array.isArray(value) ? Number(key) : key], out);
    }
  }
  return out;
}

/** The value at `path` inside `value`. */
function valueAt(value: unknown, path: ReadonlyArray<string | number>): unknown {
  let at = value;
  for (const key of path) at = (at as Record<string | number, unknown>)[key];
  return at;
}

/** The JSON text of `body` with the value at `path` replaced by the raw text `value`. */
function textWith(body: unknown, path: Array<string | number>, value: string): string {
  if (path.length === 0) return value;
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path[path.length - 1] as string | number] = MARK;
  return JSON.stringify(copy).replace(MARK_JSON, value);
}

const CASE: fc.Arbitrary<Case> = fc.record({
  template: fc.nat(),
  // Which path of the template's body (modulo their number, plus one): 0 is the whole body, the last
  // leaves the body as it is.
  target: fc.nat(),
  numeric: fc.boolean(),
  value: hostileText,
  id: fc.constantFrom('real', 'real', 'junk', 'other'),
  query: fc.option(
    hostileText.map((t) => t.replace(/^"|"$/g, '')),
    { nil: undefined },
  ),
});

/** The GET routes that list things, asked after each control call. */
const LISTINGS = [
  '/__mock/accounts',
  '/__mock/clock',
  '/__mock/journal',
  '/__mock/faults',
  '/__mock/outbox',
  '/__mock/integrations/webhook',
  '/__mock/deliveries',
  '/__mock/state',
];

describe('control fuzz: no control value breaks the API (finding 7)', () => {
  it('answers below 500 to every control call, and to the API and the listings after it', async () => {
    const ctx = await setup({
      sizes: {
        accounts: 2,
        workspaces: 6,
        runsPerWorkspace: 2,
        rules: 4,
        stacks: 3,
        events: 40,
        integrations: 1,
      },
      webhookFetch: async () => new Response(null, { status: 200 }),
    });
    const failures: string[] = [];
    const check = (what: string, res: MockResponse) => {
      let text = '';
      try {
        text = JSON.stringify(res.body) ?? '';
      } catch (error) {
        failures.push(`${what}: the answer does not serialise (${(error as Error).message})`);
      }
      if (res.status >= 500) failures.push(`${what}: ${res.status} ${text.slice(0, 300)}`);
    };
    // A request whose handling throws (the mock's adapters would answer 500, or fail) is a failure too.
    const send = (
      method: string,
      path: string,
      init: { rawBody?: string; query?: Record<string, string>; token?: string | null } = {},
    ): Promise<MockResponse> =>
      ctx.call(method, path, { token: null, ...init }).catch((error: unknown) => ({
        status: 599,
        headers: {},
        body: { thrown: String(error) },
      }));

    await fc.assert(
      fc.asyncProperty(fc.array(CASE, { minLength: 1, maxLength: 3 }), async (cases) => {
        failures.length = 0;
        expect((await send('POST', '/__mock/reset')).status).toBe(200);
        const start = await ctx.core.control.getState();
        const primary = start.accounts[0];
        const ids = {
          account: primary?.account.id ?? '',
          workspace: primary?.workspaces[0]?.workspaceId ?? '',
          stack: primary?.stacks[0]?.id ?? '',
        };
        const integration = (await ctx.core.control.webhooks.create({ nickname: 'fuzz', url: HOOK })).id;
        const list = templates(ids);
        for (const c of cases) {
          const template = list[c.template % list.length] as (typeof list)[number];
          const body = template.body === 'state' ? start : template.body;
          const all = body === undefined ? [[]] : pathsOf(body);
          const numbers = all.filter((p) => typeof valueAt(body, p) === 'number');
          const paths = c.numeric && numbers.length > 0 ? numbers : all;
          const path = paths[c.target % (paths.length + (c.numeric ? 0 : 1))];
          const rawBody =
            path === undefined
              ? body === undefined
                ? undefined
                : JSON.stringify(body)
              : textWith(body, path, c.value);
          const real = template.path.includes('/webhook/')
            ? integration
            : template.path.includes('stacks')
              ? ids.stack
              : ids.workspace;
          const id =
            c.id === 'real'
              ? real
              : c.id === 'junk'
                ? encodeURIComponent(c.value.slice(0, 40)) || 'x'
                : 'ffffffffffffffffffffffff';
          const url = template.path.replace('{id}', id);
          const what = `${template.method} ${url} ${(rawBody ?? '').slice(0, 200)}`;
          check(
            what,
            await send(template.method, url, {
              ...(rawBody !== undefined ? { rawBody } : {}),
              ...(c.query !== undefined ? { query: { limit: c.query, accountId: c.query } } : {}),
            }),
          );
          for (const listing of LISTINGS) check(`GET ${listing} after ${what}`, await send('GET', listing));
        }
        // Injected faults answer what they were told (a 500 too): the API is asked without them.
        await send('DELETE', '/__mock/faults');
        const [account] = ctx.core.accounts();
        const login = await send('POST', '/v2/login', {
          rawBody: JSON.stringify({ accessKey: account?.accessKey, secretKey: account?.secretKey }),
        });
        check('POST /v2/login', login);
        const token = (login.body as { accessToken?: string } | undefined)?.accessToken ?? 'none';
        check('GET /v2/health', await send('GET', '/v2/health'));
        check(
          'POST /v2/workspaces/search',
          await send('POST', '/v2/workspaces/search', { token, rawBody: '{}' }),
        );
        check(
          'POST /v2/guardrails/search',
          await send('POST', '/v2/guardrails/search', { token, rawBody: '{}' }),
        );
        check(
          'POST /v2/event-center',
          await send('POST', '/v2/event-center', { token, rawBody: '{"size":50}' }),
        );
        await ctx.core.control.flushDeliveries();
        if (failures.length > 0) throw new Error(failures.slice(0, 5).join('\n'));
      }),
      { numRuns: fuzzRuns(60), seed: fuzzSeed(20261126) },
    );
  }, 600_000);
});
