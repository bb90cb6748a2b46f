/**
 * Calls every operation of docs/openapi.json through the SDK @hey-api/openapi-ts generates
 * (`./generated/hey-api/`: the fetch client, the SDK functions, the types and the zod schemas of its
 * zod plugin), against the standalone mock. The SDK validates each success answer with the generated
 * zod schema before handing it over (`validator: { response: 'zod' }`), so an answer the document's
 * schemas refuse fails the call.
 *
 * Copied into a scratch directory by tests/openapi-clients/run.ts, next to the generated code, and
 * typechecked there under `strict`: `calls` must name every SDK function (a mapped type over the
 * generated module), so a new endpoint does not compile until it is called.
 * Environment: IACM_BASE_URL, IACM_ACCESS_KEY, IACM_SECRET_KEY.
 */
import { client } from './generated/hey-api/client.gen.js';
import * as sdk from './generated/hey-api/sdk.gen.js';
import type { ErrorBody } from './generated/hey-api/types.gen.js';
import { zErrorBody, zGuardrailCreateBody } from './generated/hey-api/zod.gen.js';
import { check, dataOf, env, finish, scope } from './shared.js';

let token = '';
/** The operations answered, `METHOD /path/template status`, in order. */
const answered: string[] = [];

client.setConfig({ baseUrl: env('IACM_BASE_URL'), auth: () => token });
client.interceptors.response.use((response, request, options) => {
  answered.push(`${request.method} ${options.url} ${response.status}`);
  return response;
});

let workspaceId = '';
let ruleId = '';

/** One call per SDK function, run in this order (login first, deletes last). */
const calls: { [K in keyof typeof sdk]: () => Promise<void> } = {
  authLogin: async () => {
    const data = dataOf(
      await sdk.authLogin({
        body: { accessKey: env('IACM_ACCESS_KEY'), secretKey: env('IACM_SECRET_KEY') },
      }),
      'auth.login',
    );
    const accessToken: string = data.accessToken;
    check(accessToken.length > 0, 'login gives a token');
    token = accessToken;
  },
  health: async () => {
    const { response } = await sdk.health();
    check(response?.status === 204, 'health answers 204');
  },
  workspacesSearch: async () => {
    const data = dataOf(
      await sdk.workspacesSearch({
        query: { page: 0, pageSize: 5 },
        body: { sort: { lastRunTime: { order: -1 } } },
      }),
      'workspaces.search',
    );
    check(data.length > 0, 'workspaces.search answers workspaces');
    const [first] = data;
    check(first !== undefined, 'a workspace');
    workspaceId = first.id;
    // The 400, read through the generated error type (and its zod schema).
    const bad = await sdk.workspacesSearch({ query: { pageSize: 501 } });
    check(bad.response?.status === 400 && bad.error !== undefined, 'pageSize 501 answers 400');
    const error: ErrorBody = bad.error;
    check(error.code === 'validation_failed', `400 code validation_failed, got ${error.code}`);
    check(
      error.issues?.some((issue) => issue.path === 'pageSize') === true,
      'the 400 names query.pageSize in issues',
    );
    check(zErrorBody.safeParse(error).success, 'the 400 body passes the generated zErrorBody');
  },
  workspacesSetLabels: async () => {
    dataOf(
      await sdk.workspacesSetLabels({
        path: { workspaceId },
        body: { labels: ['hey-api'] },
      }),
      'workspaces.setLabels',
    );
  },
  workspacesRunsSearch: async () => {
    const data = dataOf(
      await sdk.workspacesRunsSearch({
        path: { workspaceId },
        query: { pageSize: 3 },
        body: { projection: ['status'] },
      }),
      'workspaces.runs.search',
    );
    check(Array.isArray(data), 'workspaces.runs.search answers runs');
    for (const run of data) check(typeof run.id === 'string', 'a projected run has its id');
  },
  guardrailsSearch: async () => {
    const data = dataOf(await sdk.guardrailsSearch({ body: {} }), 'guardrails.search');
    check(Array.isArray(data), 'guardrails.search answers rules');
  },
  guardrailsCreate: async () => {
    const body = {
      createdBy: 'ffffffffffffffffffffffff',
      name: 'hey-api rule',
      type: 'tag' as const,
      scope,
      criteria: { tag: { tagEnforcementMode: 'requiredTags' as const, requiredTags: ['team'] } },
      severity: 3 as const,
    };
    // The generated zod schema of the body accepts it, and refuses it without its name.
    check(zGuardrailCreateBody.safeParse(body).success, 'zGuardrailCreateBody accepts the body');
    check(!zGuardrailCreateBody.safeParse({ ...body, name: undefined }).success, 'and needs name');
    const data = dataOf(await sdk.guardrailsCreate({ body }), 'guardrails.create');
    // The document allows `{ ruleId, notificationId }` or the bare rule id (as the live service answers).
    ruleId = typeof data === 'string' ? data : data.ruleId;
    check(ruleId.length > 0, 'guardrails.create answers its ruleId');
  },
  guardrailsUpdate: async () => {
    dataOf(
      await sdk.guardrailsUpdate({
        path: { ruleId },
        body: { name: 'hey-api rule, renamed' },
      }),
      'guardrails.update',
    );
  },
  guardrailsDelete: async () => {
    dataOf(await sdk.guardrailsDelete({ path: { ruleId } }), 'guardrails.delete');
  },
  iacExplorerStacks: async () => {
    const data = dataOf(await sdk.iacExplorerStacks({ body: { pageSize: 5 } }), 'iacExplorer.stacks');
    check(typeof data.total === 'number', 'iacExplorer.stacks answers a page');
  },
  iacExplorerBackends: async () => {
    dataOf(await sdk.iacExplorerBackends({ body: {} }), 'iacExplorer.backends');
  },
  iacExplorerRepositories: async () => {
    dataOf(await sdk.iacExplorerRepositories({ body: {} }), 'iacExplorer.repositories');
  },
  iacExplorerModules: async () => {
    dataOf(await sdk.iacExplorerModules({ body: {} }), 'iacExplorer.modules');
  },
  iacExplorerProviders: async () => {
    dataOf(await sdk.iacExplorerProviders({ body: {} }), 'iacExplorer.providers');
  },
  eventCenterQuery: async () => {
    const data = dataOf(await sdk.eventCenterQuery({ body: { size: 5 } }), 'eventCenter.query');
    check(Array.isArray(data.events), 'eventCenter.query answers events');
  },
  eventCenterFacets: async () => {
    dataOf(await sdk.eventCenterFacets({ body: { field: 'eventType' } }), 'eventCenter.facets');
  },
  workspacesDelete: async () => {
    dataOf(await sdk.workspacesDelete({ path: { workspaceId } }), 'workspaces.delete');
  },
};

for (const [name, call] of Object.entries(calls)) {
  try {
    await call();
  } catch (error) {
    throw new Error(`hey-api: ${name}: ${(error as Error).message}`);
  }
}
finish('hey-api', Object.keys(calls), answered);
