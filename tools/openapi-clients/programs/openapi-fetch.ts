/**
 * Calls every operation of docs/openapi.json through a client made by openapi-typescript (the types,
 * `./generated/openapi-typescript/schema.ts`) and openapi-fetch, against the standalone mock.
 *
 * Copied into a scratch directory by tests/openapi-clients/run.ts, next to the generated code, and
 * typechecked there under `strict`: `calls` must name every operation of the document (a mapped
 * type over the generated `operations`), so a new endpoint does not compile until it is called.
 * Environment: IACM_BASE_URL, IACM_ACCESS_KEY, IACM_SECRET_KEY.
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './generated/openapi-typescript/schema.js';
import { check, dataOf, env, finish, scope } from './shared.js';

type ErrorBody = components['schemas']['ErrorBody'];

const baseUrl = env('IACM_BASE_URL');
let token = '';
/** The operations answered, `METHOD /path/template status`, in order. */
const answered: string[] = [];

const client = createClient<paths>({ baseUrl });
const middleware: Middleware = {
  onRequest({ request }) {
    if (token) request.headers.set('authorization', `Bearer ${token}`);
    return request;
  },
  onResponse({ request, response, schemaPath }) {
    answered.push(`${request.method} ${schemaPath} ${response.status}`);
    return response;
  },
};
client.use(middleware);

let workspaceId = '';
let ruleId = '';

/** The operations a client calls: all but the webhook deliveries (the service sends those). */
type ClientOperation = Exclude<keyof operations, `webhooks.${string}`>;

/** One call per operation of the document, run in this order (login first, deletes last). */
const calls: { [K in ClientOperation]: () => Promise<void> } = {
  'auth.login': async () => {
    const data = dataOf(
      await client.POST('/v2/login', {
        body: { accessKey: env('IACM_ACCESS_KEY'), secretKey: env('IACM_SECRET_KEY') },
      }),
      'auth.login',
    );
    const accessToken: string = data.accessToken;
    check(accessToken.length > 0, 'login gives a token');
    token = accessToken;
  },
  health: async () => {
    const { response } = await client.GET('/v2/health');
    check(response.status === 204, 'health answers 204');
  },
  'workspaces.search': async () => {
    const data = dataOf(
      await client.POST('/v2/workspaces/search', {
        params: { query: { page: 0, pageSize: 5 } },
        body: { sort: { lastRunTime: { order: -1 } } },
      }),
      'workspaces.search',
    );
    check(data.length > 0, 'workspaces.search answers workspaces');
    const [first] = data;
    check(first !== undefined, 'a workspace');
    workspaceId = first.id;
    // The 400, read through the generated error type.
    const bad = await client.POST('/v2/workspaces/search', { params: { query: { pageSize: 501 } } });
    check(bad.response.status === 400 && bad.error !== undefined, 'pageSize 501 answers 400');
    const error: ErrorBody = bad.error;
    check(error.code === 'validation_failed', `400 code validation_failed, got ${error.code}`);
    check(
      error.issues?.some((issue) => issue.path === 'pageSize') === true,
      'the 400 names query.pageSize in issues',
    );
  },
  'workspaces.setLabels': async () => {
    dataOf(
      await client.PUT('/v2/workspaces/{workspaceId}/labels', {
        params: { path: { workspaceId } },
        body: { labels: ['openapi-fetch'] },
      }),
      'workspaces.setLabels',
    );
  },
  'workspaces.runs.search': async () => {
    const data = dataOf(
      await client.POST('/v2/workspaces/{workspaceId}/runs/search', {
        params: { path: { workspaceId }, query: { pageSize: 3 } },
        body: { projection: ['status'] },
      }),
      'workspaces.runs.search',
    );
    check(Array.isArray(data), 'workspaces.runs.search answers runs');
    for (const run of data) check(typeof run.id === 'string', 'a projected run has its id');
  },
  'guardrails.search': async () => {
    const data = dataOf(await client.POST('/v2/guardrails/search', { body: {} }), 'guardrails.search');
    check(Array.isArray(data), 'guardrails.search answers rules');
  },
  'guardrails.create': async () => {
    const data = dataOf(
      await client.POST('/v2/guardrails', {
        body: {
          createdBy: 'ffffffffffffffffffffffff',
          name: 'openapi-fetch rule',
          type: 'tag',
          scope,
          criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['team'] } },
          severity: 3,
        },
      }),
      'guardrails.create',
    );
    // The document allows `{ ruleId, notificationId }` or the bare rule id (as the live service answers).
    ruleId = typeof data === 'string' ? data : data.ruleId;
    check(ruleId.length > 0, 'guardrails.create answers its ruleId');
  },
  'guardrails.update': async () => {
    dataOf(
      await client.PATCH('/v2/guardrails/{ruleId}', {
        params: { path: { ruleId } },
        body: { name: 'openapi-fetch rule, renamed' },
      }),
      'guardrails.update',
    );
  },
  'guardrails.delete': async () => {
    dataOf(
      await client.DELETE('/v2/guardrails/{ruleId}', { params: { path: { ruleId } } }),
      'guardrails.delete',
    );
  },
  'iacExplorer.stacks': async () => {
    const data = dataOf(await client.POST('/api/iacStacks', { body: { pageSize: 5 } }), 'iacExplorer.stacks');
    check(typeof data.total === 'number', 'iacExplorer.stacks answers a page');
  },
  'iacExplorer.backends': async () => {
    dataOf(await client.POST('/api/iacStacks/backends', { body: {} }), 'iacExplorer.backends');
  },
  'iacExplorer.repositories': async () => {
    dataOf(await client.POST('/api/iacStacks/repositories', { body: {} }), 'iacExplorer.repositories');
  },
  'iacExplorer.modules': async () => {
    dataOf(await client.POST('/api/iacStacks/modules', { body: {} }), 'iacExplorer.modules');
  },
  'iacExplorer.providers': async () => {
    dataOf(await client.POST('/api/iacStacks/providers', { body: {} }), 'iacExplorer.providers');
  },
  'eventCenter.query': async () => {
    const data = dataOf(await client.POST('/v2/event-center', { body: { size: 5 } }), 'eventCenter.query');
    check(Array.isArray(data.events), 'eventCenter.query answers events');
  },
  'eventCenter.facets': async () => {
    dataOf(
      await client.POST('/v2/event-center/facets', { body: { field: 'eventType' } }),
      'eventCenter.facets',
    );
  },
  'workspaces.delete': async () => {
    dataOf(
      await client.DELETE('/v2/workspaces/{workspaceId}', { params: { path: { workspaceId } } }),
      'workspaces.delete',
    );
  },
};

for (const [name, call] of Object.entries(calls)) {
  try {
    await call();
  } catch (error) {
    throw new Error(`openapi-fetch: ${name}: ${(error as Error).message}`);
  }
}
finish('openapi-fetch', Object.keys(calls), answered);
