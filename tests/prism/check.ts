/**
 * The OpenAPI conformance check (`pnpm test:prism`): Stoplight Prism's validation proxy
 * (`@stoplight/prism-cli`, pinned in tools/prism/, installed with `npm ci --prefix tools/prism`) in
 * front of the standalone mock (`node packages/mock-server/dist/cli.js`, so `pnpm build` first),
 * while this driver calls every endpoint of the contract's table through the proxy: valid requests,
 * deliberately invalid ones, rate-limited ones and faulted ones (faults that answer with the default
 * error body). Prism validates each request and answer against docs/openapi.json and reports what
 * disagrees in the `sl-violations` answer header (proxy mode with `--errors false`).
 *
 * It fails (exit 1) when:
 * - any answer violates the document (a `response` violation, errors and warnings alike: a status
 *   the operation does not list is a warning);
 * - a request the driver sends as valid violates the document (a `request` violation); only the
 *   requests marked `invalid` may;
 * - an answer's status is not the one the exchange expects (so each case tests what it says);
 * - a canary, an answer known to be wrong (injected), is not flagged: the check would be vacuous;
 * - an endpoint of the table lacks a valid, an invalid, a faulted or a rate-limited exchange.
 *
 * Usage: tsx tests/prism/check.ts [--verbose] [--document <file>]
 *   --verbose          print every exchange, not only those with a problem
 *   --document <file>  check this document instead of docs/openapi.json (skips the check that the
 *                      built mock serves docs/openapi.json)
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import {
  type EndpointName,
  EVENT_FIELD_NAMES,
  endpointList,
  endpoints,
  GUARDRAIL_FIELDS,
  GUARDRAIL_SORT_FIELDS,
  MODULE_SORT_FIELDS,
  RUN_FIELDS,
  RUN_SORT_FIELDS,
  STACK_SORT_FIELDS,
  WORKSPACE_FIELDS,
  WORKSPACE_SORT_FIELDS,
} from '@iacm/sdk/contract';

const root = fileURLToPath(new URL('../..', import.meta.url));
const COMMITTED_DOCUMENT = join(root, 'docs/openapi.json');
/** `--document <file>`: check another document (an older one, to see what it gets wrong). */
const documentFlag = process.argv.indexOf('--document');
const DOCUMENT = documentFlag === -1 ? COMMITTED_DOCUMENT : (process.argv[documentFlag + 1] ?? '');
const MOCK_CLI = join(root, 'packages/mock-server/dist/cli.js');
const PRISM_DIR = join(root, 'tools/prism');
const PRISM_CLI = join(PRISM_DIR, 'node_modules/@stoplight/prism-cli/dist/index.js');
const verbose = process.argv.includes('--verbose');

/** How long the mock and Prism may take to start. */
const START_TIMEOUT_MS = 60_000;
/** How long one exchange may take (a bound that catches a hang, not a speed requirement). */
const REQUEST_TIMEOUT_MS = 60_000;
/** A body over the mock's default limit (1 MiB). */
const OVER_LIMIT = 1024 * 1024 + 16;

/** One violation as Prism reports it in `sl-violations`. */
interface Violation {
  location: string[];
  severity: string;
  code?: string | number;
  message: string;
}

/** Why an exchange was sent: what it proves. */
type Kind = 'valid' | 'invalid' | 'faulted' | 'rate-limited' | 'canary';

/** One request through the proxy, and what its answer must be. */
interface Exchange {
  /** The endpoint it calls (for the coverage count). */
  endpoint: EndpointName;
  /** What it checks, printed with any problem. */
  label: string;
  kind: Kind;
  method: string;
  /** The path, with its query string. */
  path: string;
  /** A JSON body (serialised compactly), or a raw text with its own Content-Type. */
  body?: unknown;
  raw?: { text: string; contentType: string };
  /** Without the bearer token (default: with it, where the endpoint needs one). */
  anonymous?: boolean;
  /** Extra headers. */
  headers?: Record<string, string>;
  /** The status the answer must have. */
  status: number;
}

/** An exchange's answer. */
interface Answer {
  status: number;
  body: unknown;
  request: Violation[];
  response: Violation[];
}

interface Outcome {
  exchange: Exchange;
  answer: Answer;
  problems: string[];
}

const outcomes: Outcome[] = [];
const children: ChildProcess[] = [];
let token = '';
let prismUrl = '';
let mockUrl = '';
const prismLog: string[] = [];

function fail(message: string): never {
  throw new Error(message);
}

/** A free TCP port on the loopback interface. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') fail('could not pick a free port');
  return address.port;
}

/** Starts a process and resolves with the first match of `ready` in its output. */
function start(name: string, args: string[], ready: RegExp, log: string[]): Promise<RegExpMatchArray> {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start in ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    let seen = '';
    let started = false;
    const read = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      for (const line of text.split('\n')) if (line.trim()) log.push(line);
      if (log.length > 400) log.splice(0, log.length - 400);
      if (started) return;
      seen += text;
      const match = ready.exec(seen);
      if (match) {
        started = true;
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (code ${code}) before it was ready:\n${log.slice(-20).join('\n')}`));
    });
  });
}

/** A request to the mock's control plane (directly, not through the proxy). */
async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${mockUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) fail(`control ${method} ${path} answered ${response.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

function parseViolations(header: string | null): Violation[] {
  if (!header) return [];
  const json = header.startsWith('Too many violations! ') ? undefined : header;
  if (json === undefined)
    return [{ location: ['response'], severity: 'Error', message: header.slice(0, 400) }];
  return JSON.parse(json) as Violation[];
}

/** Sends one exchange through the proxy and records what went wrong with it. */
async function send(exchange: Exchange): Promise<Answer> {
  const definition = endpoints[exchange.endpoint];
  const headers: Record<string, string> = { ...exchange.headers };
  if (definition.auth && !exchange.anonymous) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (exchange.raw) {
    body = exchange.raw.text;
    headers['content-type'] = exchange.raw.contentType;
  } else if (exchange.body !== undefined) {
    body = JSON.stringify(exchange.body);
    headers['content-type'] = 'application/json';
  }
  const response = await fetch(`${prismUrl}${exchange.path}`, {
    method: exchange.method,
    headers,
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: kept as text.
  }
  const violations = parseViolations(response.headers.get('sl-violations'));
  const answer: Answer = {
    status: response.status,
    body: parsed,
    request: violations.filter((v) => v.location[0] === 'request'),
    response: violations.filter((v) => v.location[0] !== 'request'),
  };
  const problems: string[] = [];
  if (answer.status !== exchange.status) {
    problems.push(`answered ${answer.status}, expected ${exchange.status}: ${text.slice(0, 300)}`);
  }
  if (exchange.kind === 'canary') {
    if (answer.response.length === 0)
      problems.push('a known-bad answer was not flagged: the check is vacuous');
  } else {
    for (const v of answer.response) problems.push(`response violation: ${describeViolation(v)}`);
  }
  if (exchange.kind !== 'invalid') {
    for (const v of answer.request)
      problems.push(`request violation on a valid request: ${describeViolation(v)}`);
  }
  outcomes.push({ exchange, answer, problems });
  if (verbose || problems.length > 0) {
    const mark = problems.length > 0 ? 'FAIL' : 'ok  ';
    process.stdout.write(
      `${mark} ${exchange.kind.padEnd(12)} ${answer.status} ${exchange.method} ${exchange.path} (${exchange.label})\n`,
    );
    for (const problem of problems) process.stdout.write(`       ${problem}\n`);
  }
  return answer;
}

function describeViolation(v: Violation): string {
  return `[${v.severity}] ${v.location.join('.')}: ${v.message}`;
}

/** The path of an endpoint with its parameters filled in. */
function pathOf(name: EndpointName, params: Record<string, string> = {}, query = ''): string {
  const path = endpoints[name].path.replace(/\{(\w+)\}/g, (_, key: string) =>
    encodeURIComponent(params[key] ?? fail(`no ${key} for ${name}`)),
  );
  return query ? `${path}?${query}` : path;
}

/** A valid request of an endpoint, answered with its success status (or `status`). */
function valid(
  endpoint: EndpointName,
  label: string,
  options: { params?: Record<string, string>; query?: string; body?: unknown; status?: number } = {},
): Promise<Answer> {
  const definition = endpoints[endpoint];
  return send({
    endpoint,
    label,
    kind: 'valid',
    method: definition.method,
    path: pathOf(endpoint, options.params, options.query),
    ...(options.body === undefined ? {} : { body: options.body }),
    status: options.status ?? definition.successStatus,
  });
}

/** A deliberately invalid request (request violations allowed) and the error status it gets. */
function invalid(
  endpoint: EndpointName,
  label: string,
  status: number,
  options: Partial<Omit<Exchange, 'endpoint' | 'label' | 'kind' | 'status'>> & {
    params?: Record<string, string>;
    query?: string;
  } = {},
): Promise<Answer> {
  const definition = endpoints[endpoint];
  const { params, query, ...rest } = options;
  return send({
    endpoint,
    label,
    kind: 'invalid',
    method: definition.method,
    path: pathOf(endpoint, params, query),
    status,
    ...rest,
  });
}

/** A body that passes the mock's size limit. */
function oversized(member: string): string {
  return JSON.stringify({ [member]: 'x'.repeat(OVER_LIMIT) });
}

/** A guardrail scope: every workspace, repository, branch and label. */
const SCOPE = Object.fromEntries(
  ['workspaces', 'repositories', 'branches', 'labels'].map((member) => [
    member,
    { include: ['*'], exclude: [] },
  ]),
);

/** The statuses injected by faults (each with the default error body). */
const FAULT_STATUSES = [400, 401, 403, 404, 405, 408, 409, 413, 415, 418, 422, 429, 500, 502, 503, 504];

async function run(): Promise<void> {
  if (!existsSync(DOCUMENT)) fail(`no OpenAPI document at ${DOCUMENT}`);
  if (!existsSync(PRISM_CLI)) fail('Prism is not installed: run `npm ci --prefix tools/prism`');
  if (!existsSync(MOCK_CLI))
    fail('the mock is not built: run `pnpm build` (or pnpm --filter "@iacm/mock-server..." build)');
  const prismVersion = (
    JSON.parse(readFileSync(join(PRISM_DIR, 'node_modules/@stoplight/prism-cli/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

  const mockLog: string[] = [];
  const [, url] = await start(
    'the mock',
    [MOCK_CLI, '--port', '0', '--quiet'],
    /listening on (http:\/\/\S+)/,
    mockLog,
  );
  mockUrl = url ?? fail('no mock URL');
  // The built mock must serve the committed document (else the build or the document is stale).
  const committed = JSON.parse(readFileSync(COMMITTED_DOCUMENT, 'utf8')) as { servers: unknown };
  const served = (await (await fetch(`${mockUrl}/openapi.json`)).json()) as { servers: unknown };
  if (
    DOCUMENT === COMMITTED_DOCUMENT &&
    !isDeepStrictEqual({ ...served, servers: [] }, { ...committed, servers: [] })
  ) {
    fail(
      'the built mock serves another OpenAPI document than docs/openapi.json: run `pnpm openapi` and `pnpm build`',
    );
  }

  const port = await freePort();
  await start(
    'Prism',
    [
      PRISM_CLI,
      'proxy',
      DOCUMENT,
      mockUrl,
      '--errors',
      'false',
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--cors',
      'false',
    ],
    /Prism is listening on/,
    prismLog,
  );
  prismUrl = `http://127.0.0.1:${port}`;
  process.stdout.write(`prism ${prismVersion} proxy at ${prismUrl} in front of the mock at ${mockUrl}\n`);

  await exchanges();
}

async function exchanges(): Promise<void> {
  const accounts = (await control('GET', '/__mock/accounts')) as Array<{
    accessKey: string;
    secretKey: string;
  }>;
  const [primary] = accounts;
  if (!primary) fail('the mock has no account');
  const keys = { accessKey: primary.accessKey, secretKey: primary.secretKey };

  // --- auth.login
  const login = await valid('auth.login', 'the primary account logs in', { body: keys });
  token = (login.body as { accessToken?: string }).accessToken ?? fail('no access token');
  await send({
    endpoint: 'auth.login',
    label: 'JSON with a charset',
    kind: 'valid',
    method: 'POST',
    path: '/v2/login',
    raw: { text: JSON.stringify(keys), contentType: 'application/json; charset=utf-8' },
    status: 200,
  });
  await valid('auth.login', 'wrong keys: 401 invalid_credentials', {
    body: { ...keys, secretKey: 'iacm_sk_wrong' },
    status: 401,
  });
  await invalid('auth.login', 'no secretKey', 400, { body: { accessKey: keys.accessKey } });
  await invalid('auth.login', 'an unknown member', 400, { body: { ...keys, remember: true } });
  await invalid('auth.login', 'no body', 400);
  await invalid('auth.login', 'a query parameter', 400, { query: 'debug=1', body: keys });
  await invalid('auth.login', 'text/plain', 415, {
    raw: { text: JSON.stringify(keys), contentType: 'text/plain' },
  });
  await invalid('auth.login', 'application/json-seq', 415, {
    raw: { text: JSON.stringify(keys), contentType: 'application/json-seq' },
  });
  await invalid('auth.login', 'a body over 1 MiB', 413, {
    raw: { text: oversized('accessKey'), contentType: 'application/json' },
  });

  // --- health
  await valid('health', 'the service is up');
  await invalid('health', 'a query parameter', 400, { query: 'verbose=1' });

  // --- workspaces.search
  const all = await valid('workspaces.search', 'every workspace', { query: 'pageSize=500', body: {} });
  const workspaces = all.body as Array<{ id: string }>;
  if (workspaces.length < 3) fail('the mock should have several workspaces');
  await valid('workspaces.search', 'absent body, default paging');
  await valid('workspaces.search', 'the second page of 7', { query: 'page=1&pageSize=7', body: {} });
  await valid('workspaces.search', 'past the last page', { query: 'page=1000&pageSize=50', body: {} });
  await valid('workspaces.search', 'free text', { query: 'pageSize=100', body: { searchValue: 'prod' } });
  await valid('workspaces.search', 'filters with $or', {
    query: 'pageSize=100',
    body: { filters: { vcsType: ['github'], $or: { ciTool: ['github-actions'], labels: ['platform'] } } },
  });
  for (const field of WORKSPACE_SORT_FIELDS) {
    for (const order of [1, -1]) {
      await valid('workspaces.search', `sorted by ${field} ${order}`, {
        query: 'pageSize=100',
        body: { sort: { [field]: { order } } },
      });
    }
  }
  for (const projection of [
    [WORKSPACE_FIELDS[1]],
    WORKSPACE_FIELDS.slice(0, 5),
    WORKSPACE_FIELDS.slice(1),
    ['labels', 'lastRunStatus', 'backendSummary'],
  ]) {
    await valid('workspaces.search', `projection ${projection.join(',')}`, {
      query: 'pageSize=200',
      body: { projection },
    });
  }
  await invalid('workspaces.search', 'page=01 (not how the API writes numbers)', 400, {
    query: 'page=01',
    body: {},
  });
  await invalid('workspaces.search', 'pageSize=501', 400, { query: 'pageSize=501', body: {} });
  await invalid('workspaces.search', 'pageSize=0', 400, { query: 'pageSize=0', body: {} });
  await invalid('workspaces.search', 'an unknown query parameter', 400, { query: 'size=5', body: {} });
  await invalid('workspaces.search', 'an unknown body member', 400, { body: { colour: 'red' } });
  await invalid('workspaces.search', 'an unknown status filter', 400, {
    body: { filters: { status: ['done'] } },
  });
  await invalid('workspaces.search', 'a sort order of 2', 400, {
    body: { sort: { lastRunTime: { order: 2 } } },
  });
  await invalid('workspaces.search', 'an unknown projection member', 400, {
    body: { projection: ['colour'] },
  });
  await invalid('workspaces.search', 'no bearer token', 401, { body: {}, anonymous: true });
  await invalid('workspaces.search', 'a bearer token this mock did not sign', 401, {
    body: {},
    anonymous: true,
    headers: { authorization: 'Bearer not.a.token' },
  });
  await invalid('workspaces.search', 'text/plain', 415, { raw: { text: '{}', contentType: 'text/plain' } });
  await invalid('workspaces.search', 'application/json-seq', 415, {
    raw: { text: '{}', contentType: 'application/json-seq' },
  });
  await invalid('workspaces.search', 'application/x-ndjson', 415, {
    raw: { text: '{}', contentType: 'application/x-ndjson' },
  });
  await invalid('workspaces.search', 'a body over 1 MiB', 413, {
    raw: { text: oversized('searchValue'), contentType: 'application/json' },
  });
  await invalid('workspaces.search', 'GET on a POST path', 405, { method: 'GET' });

  // --- workspaces.runs.search
  const [first, , , doomed] = workspaces;
  for (const workspace of workspaces.slice(0, 30)) {
    await valid('workspaces.runs.search', 'every run of a workspace', {
      params: { workspaceId: workspace.id },
      query: 'pageSize=100',
      body: {},
    });
  }
  const firstId = first?.id ?? fail('no workspace');
  for (const field of RUN_SORT_FIELDS) {
    await valid('workspaces.runs.search', `sorted by ${field} descending`, {
      params: { workspaceId: firstId },
      body: { sort: [{ [field]: { order: -1 } }] },
    });
  }
  for (const projection of [[RUN_FIELDS[3]], RUN_FIELDS.slice(0, 6), RUN_FIELDS.slice(1)]) {
    await valid('workspaces.runs.search', `projection ${projection.join(',')}`, {
      params: { workspaceId: firstId },
      body: { projection },
    });
  }
  await valid('workspaces.runs.search', 'the UUID form of the workspace id', {
    params: {
      workspaceId: `00000000-${firstId.slice(0, 4)}-${firstId.slice(4, 8)}-${firstId.slice(8, 12)}-${firstId.slice(12)}`,
    },
    body: {},
  });
  await valid('workspaces.runs.search', 'a workspace that does not exist', {
    params: { workspaceId: 'ffffffffffffffffffffffff' },
    body: {},
    status: 404,
  });
  await invalid('workspaces.runs.search', 'a path id that is not one', 400, {
    params: { workspaceId: 'not-an-id' },
    body: {},
  });
  await invalid('workspaces.runs.search', 'a createdAt filter that is not a timestamp', 400, {
    params: { workspaceId: firstId },
    body: { filters: { createdAt: 'yesterday' } },
  });

  // --- workspaces.setLabels
  await valid('workspaces.setLabels', 'two labels', {
    params: { workspaceId: firstId },
    body: { labels: ['platform', 'prism'] },
  });
  await valid('workspaces.setLabels', 'no labels', {
    params: { workspaceId: firstId },
    body: { labels: [] },
  });
  await valid('workspaces.setLabels', 'a workspace that does not exist', {
    params: { workspaceId: 'ffffffffffffffffffffffff' },
    body: { labels: ['a'] },
    status: 404,
  });
  await invalid('workspaces.setLabels', 'a label twice', 400, {
    params: { workspaceId: firstId },
    body: { labels: ['a', 'a'] },
  });
  await invalid('workspaces.setLabels', 'no labels member', 400, {
    params: { workspaceId: firstId },
    body: {},
  });

  // --- workspaces.delete
  const doomedId = doomed?.id ?? fail('no fourth workspace');
  await valid('workspaces.delete', 'an existing workspace', { params: { workspaceId: doomedId } });
  await valid('workspaces.delete', 'the same again', { params: { workspaceId: doomedId }, status: 404 });
  await valid('workspaces.delete', 'a UUID that addresses no record', {
    params: { workspaceId: '123e4567-e89b-42d3-a456-426614174000' },
    status: 404,
  });
  await invalid('workspaces.delete', 'a path id that is not one', 400, { params: { workspaceId: 'nope' } });
  await invalid('workspaces.delete', 'a body on DELETE', 400, {
    params: { workspaceId: firstId },
    body: { force: true },
  });
  await invalid('workspaces.delete', 'a body over 1 MiB on DELETE', 413, {
    params: { workspaceId: firstId },
    raw: { text: oversized('force'), contentType: 'application/json' },
  });

  // --- guardrails.search / create / update / delete
  const rules = await valid('guardrails.search', 'every rule', { query: 'pageSize=500', body: {} });
  const createdBy = (rules.body as Array<{ createdBy: string }>)[0]?.createdBy ?? fail('no guardrail rule');
  for (const field of GUARDRAIL_SORT_FIELDS) {
    await valid('guardrails.search', `sorted by ${field}`, {
      query: 'pageSize=100',
      body: { sort: { [field]: { order: 1 } } },
    });
  }
  for (const projection of [[GUARDRAIL_FIELDS[3]], GUARDRAIL_FIELDS.slice(0, 4), GUARDRAIL_FIELDS.slice(1)]) {
    await valid('guardrails.search', `projection ${projection.join(',')}`, {
      query: 'pageSize=100',
      body: { projection },
    });
  }
  await valid('guardrails.search', 'filters', {
    body: { filters: { type: ['tag', 'cost'] }, searchValue: 'a' },
  });
  await invalid('guardrails.search', 'an unknown rule type', 400, {
    body: { filters: { type: ['colour'] } },
  });

  const scope = SCOPE;
  const createBodies = {
    cost: {
      type: 'cost',
      criteria: { cost: { thresholdAmount: 100, thresholdPercentage: 10 } },
      isEnabled: true,
      severity: 2,
    },
    policy: {
      type: 'policy',
      criteria: { policy: { severity: 'high', policies: { include: ['*'], exclude: [] } } },
      severity: 1,
    },
    resource: {
      type: 'resource',
      criteria: {
        resource: {
          actions: ['delete'],
          regions: { include: ['*'], exclude: [] },
          assetTypes: { include: ['aws_db_instance'], exclude: [] },
          specificResources: [],
        },
      },
      severity: 2,
    },
    tag: {
      type: 'tag',
      criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['team'] } },
      severity: 3,
    },
  };
  const created: string[] = [];
  for (const [kind, body] of Object.entries(createBodies)) {
    const answer = await valid('guardrails.create', `a ${kind} rule`, {
      body: { createdBy, name: `prism ${kind}`, scope, ...body },
    });
    // `{ ruleId, notificationId }`, or the bare rule id (both are documented).
    const answered = answer.body as { ruleId?: string } | string | undefined;
    const ruleId = typeof answered === 'string' ? answered : answered?.ruleId;
    if (ruleId) created.push(ruleId);
  }
  await invalid('guardrails.create', 'no name', 400, { body: { createdBy, scope, ...createBodies.tag } });
  await invalid('guardrails.create', 'a severity of 4', 400, {
    body: { createdBy, name: 'x', scope, ...createBodies.tag, severity: 4 },
  });
  await invalid('guardrails.create', 'criteria of another type', 400, {
    body: { createdBy, name: 'x', scope, ...createBodies.tag, type: 'cost' },
  });
  await invalid('guardrails.create', 'an unknown member', 400, {
    body: { createdBy, name: 'x', scope, ...createBodies.tag, colour: 'red' },
  });

  const [ruleId, otherRule] = created;
  if (!ruleId || !otherRule) fail('no rule was created');
  await valid('guardrails.update', 'a new name', { params: { ruleId }, body: { name: 'prism renamed' } });
  await valid('guardrails.update', 'disabled', { params: { ruleId }, body: { isEnabled: false } });
  await valid('guardrails.update', 'a rule that does not exist', {
    params: { ruleId: 'ffffffffffffffffffffffff' },
    body: { name: 'x' },
    status: 404,
  });
  await invalid('guardrails.update', 'an unknown member', 400, {
    params: { ruleId },
    body: { colour: 'red' },
  });
  await invalid('guardrails.update', 'no body', 400, { params: { ruleId } });

  await valid('guardrails.delete', 'a created rule', { params: { ruleId: otherRule } });
  await valid('guardrails.delete', 'the same again', { params: { ruleId: otherRule }, status: 404 });
  await invalid('guardrails.delete', 'a path id that is not one', 400, { params: { ruleId: 'nope' } });

  // --- iacExplorer
  const stacks = await valid('iacExplorer.stacks', 'every stack', { body: { pageSize: 500 } });
  if (((stacks.body as { hits?: unknown[] }).hits ?? []).length === 0) fail('the mock should have stacks');
  await valid('iacExplorer.stacks', 'absent body');
  await valid('iacExplorer.stacks', 'the console paging names', {
    body: { pageNumber: 1, tablePageSize: 10 },
  });
  await valid('iacExplorer.stacks', 'screen filters and free text', {
    body: {
      screenFilters: { stateType: ['terraform'], hasIntegratedProviders: true },
      freeTextSearch: 'prod',
      extra: 1,
    },
  });
  for (const field of STACK_SORT_FIELDS) {
    for (const order of ['asc', 'desc']) {
      await valid('iacExplorer.stacks', `sorted by ${field} ${order}`, {
        body: { pageSize: 100, sorting: { field, order } },
      });
    }
  }
  await invalid('iacExplorer.stacks', 'pageSize 501', 400, { body: { pageSize: 501 } });
  await invalid('iacExplorer.stacks', 'an unknown sort field', 400, {
    body: { sorting: { field: 'colour', order: 'asc' } },
  });

  await valid('iacExplorer.backends', 'every backend', { body: { pageSize: 500 } });
  await valid('iacExplorer.backends', 'filters and paging', {
    body: { page: 1, pageSize: 2, screenFilters: { stateType: ['terraform'] } },
  });
  await invalid('iacExplorer.backends', 'different page and pageNumber', 400, {
    body: { page: 1, pageNumber: 2 },
  });

  await valid('iacExplorer.repositories', 'every repository', { body: {} });
  await valid('iacExplorer.repositories', 'free text', { body: { freeTextSearch: 'infra' } });
  await invalid('iacExplorer.repositories', 'free text that is not a string', 400, {
    body: { freeTextSearch: 7 },
  });

  await valid('iacExplorer.modules', 'every module', { body: { pageSize: 500 } });
  for (const field of MODULE_SORT_FIELDS) {
    await valid('iacExplorer.modules', `sorted by ${field}`, {
      body: { size: 100, sort: [{ field, order: 'desc' }] },
    });
  }
  await valid('iacExplorer.modules', 'sortArr and filters', {
    body: { sortArr: [{ field: 'usageCount', sort: 'asc' }], screenFilters: { moduleOriginType: ['git'] } },
  });
  await invalid('iacExplorer.modules', 'both sort and sortArr', 400, {
    body: { sort: [{ field: 'version', order: 'asc' }], sortArr: [{ field: 'version', sort: 'asc' }] },
  });

  await valid('iacExplorer.providers', 'every provider', { body: {} });
  await valid('iacExplorer.providers', 'filters', { body: { screenFilters: { providerType: ['aws'] } } });
  await invalid('iacExplorer.providers', 'a filter that is not a list', 400, {
    body: { screenFilters: { providerType: 'aws' } },
  });

  // --- eventCenter
  let continuationToken: string | null | undefined;
  for (let page = 0; page < 10; page++) {
    const answer = await valid('eventCenter.query', `page ${page + 1} of 150`, {
      body: {
        size: 150,
        ...(continuationToken ? { continuationToken } : {}),
        ...(page === 0 ? { facets: EVENT_FIELD_NAMES.map((field) => ({ field })) } : {}),
      },
    });
    continuationToken = (answer.body as { continuationToken?: string | null }).continuationToken;
    if (!continuationToken) break;
  }
  await valid('eventCenter.query', 'absent body');
  await valid('eventCenter.query', 'search text, filters and a time window', {
    body: {
      query: {
        searchText: 'a',
        filters: [{ key: EVENT_FIELD_NAMES[0], values: ['x', 'y'] }],
        startTime: '2020-01-01T00:00:00.000Z',
        endTime: '2030-01-01T00:00:00.000Z',
      },
    },
  });
  await invalid('eventCenter.query', 'size 151', 400, { body: { size: 151 } });
  await invalid('eventCenter.query', 'a token that was altered', 400, {
    body: { continuationToken: 'tampered-token' },
  });
  await invalid('eventCenter.query', 'a time window backwards', 400, {
    body: { query: { startTime: '2030-01-01T00:00:00.000Z', endTime: '2020-01-01T00:00:00.000Z' } },
  });

  for (const field of EVENT_FIELD_NAMES) {
    await valid('eventCenter.facets', `the values of ${field}`, { body: { field, size: 100 } });
  }
  await invalid('eventCenter.facets', 'no body', 400);
  await invalid('eventCenter.facets', 'an unknown field', 400, { body: { field: 'colour' } });

  // --- faults: the default error body, each status on some endpoint, every status on two
  let index = 0;
  for (const definition of endpointList) {
    const name = definition.name as EndpointName;
    const statuses =
      name === 'health' || name === 'workspaces.search'
        ? FAULT_STATUSES
        : [FAULT_STATUSES[index++ % FAULT_STATUSES.length] as number];
    for (const status of statuses) {
      const path = pathOf(name, { workspaceId: firstId, ruleId });
      await control('POST', '/__mock/faults', {
        method: definition.method,
        path: path.split('?')[0],
        status,
      });
      await send({
        endpoint: name,
        label: `a fault injected with status ${status}`,
        kind: 'faulted',
        method: definition.method,
        path,
        ...(definition.body && definition.bodyRequired ? { body: validBodyOf(name, keys) } : {}),
        status,
      });
    }
  }
  // A delayed real answer is still the real answer.
  await control('POST', '/__mock/faults', { method: 'POST', path: '/v2/workspaces/search', delayMs: 50 });
  await send({
    endpoint: 'workspaces.search',
    label: 'a delay fault',
    kind: 'faulted',
    method: 'POST',
    path: '/v2/workspaces/search',
    body: {},
    status: 200,
  });

  // --- canaries: answers known to violate the document must be flagged
  await control('POST', '/__mock/faults', {
    method: 'POST',
    path: '/v2/workspaces/search',
    status: 200,
    body: [{ id: 5 }],
  });
  await send({
    endpoint: 'workspaces.search',
    label: 'an item without its members (injected)',
    kind: 'canary',
    method: 'POST',
    path: '/v2/workspaces/search',
    body: {},
    status: 200,
  });
  await control('POST', '/__mock/faults', {
    method: 'GET',
    path: '/v2/health',
    status: 503,
    body: { oops: true },
  });
  await send({
    endpoint: 'health',
    label: 'an error answer without the error body (injected)',
    kind: 'canary',
    method: 'GET',
    path: '/v2/health',
    status: 503,
  });
  await control('POST', '/__mock/faults', {
    method: 'POST',
    path: '/v2/event-center',
    status: 200,
    body: { events: 'none' },
  });
  await send({
    endpoint: 'eventCenter.query',
    label: 'events that are not a list (injected)',
    kind: 'canary',
    method: 'POST',
    path: '/v2/event-center',
    body: {},
    status: 200,
  });

  // --- rate limited: one request per window, then every endpoint gets 429
  await control('POST', '/__mock/rate-limit', { enabled: true, limit: 1, windowSeconds: 600 });
  await valid('health', 'the one request the rate limit lets through');
  for (const definition of endpointList) {
    const name = definition.name as EndpointName;
    await send({
      endpoint: name,
      label: 'over the rate limit',
      kind: 'rate-limited',
      method: definition.method,
      path: pathOf(name, { workspaceId: firstId, ruleId }),
      ...(definition.body && definition.bodyRequired ? { body: validBodyOf(name, keys) } : {}),
      status: 429,
    });
  }
  await control('POST', '/__mock/rate-limit', { enabled: false });
}

/** A valid body of an endpoint whose body is required (for faulted and rate-limited requests). */
function validBodyOf(name: EndpointName, keys: { accessKey: string; secretKey: string }): unknown {
  switch (name) {
    case 'auth.login':
      return keys;
    case 'workspaces.setLabels':
      return { labels: ['prism'] };
    case 'guardrails.update':
      return { name: 'prism' };
    case 'eventCenter.facets':
      return { field: EVENT_FIELD_NAMES[0] };
    case 'guardrails.create':
      return {
        createdBy: 'ffffffffffffffffffffffff',
        name: 'prism fault',
        type: 'tag',
        scope: SCOPE,
        criteria: { tag: { tagEnforcementMode: 'requiredTags', requiredTags: ['team'] } },
        severity: 3,
      };
    default:
      return {};
  }
}

/** The per-endpoint table, the totals, and whether each endpoint had each kind of exchange. */
function report(elapsedMs: number): boolean {
  const kinds: Kind[] = ['valid', 'invalid', 'faulted', 'rate-limited'];
  const lines: string[] = [];
  let ok = true;
  lines.push(
    `${'endpoint'.padEnd(26)} ${kinds.map((k) => k.padStart(12)).join(' ')}  request-violations  response-violations`,
  );
  for (const definition of endpointList) {
    const mine = outcomes.filter(
      (o) => o.exchange.endpoint === definition.name && o.exchange.kind !== 'canary',
    );
    const counts = kinds.map((kind) => mine.filter((o) => o.exchange.kind === kind).length);
    const requestViolations = mine.filter((o) => o.answer.request.length > 0).length;
    const responseViolations = mine.filter((o) => o.answer.response.length > 0).length;
    lines.push(
      `${definition.name.padEnd(26)} ${counts.map((c) => String(c).padStart(12)).join(' ')}  ${String(requestViolations).padStart(18)}  ${String(responseViolations).padStart(19)}`,
    );
    kinds.forEach((kind, i) => {
      if (counts[i] === 0) {
        ok = false;
        lines.push(`  missing: no ${kind} exchange for ${definition.name}`);
      }
    });
  }
  const failed = outcomes.filter((o) => o.problems.length > 0);
  const canaries = outcomes.filter((o) => o.exchange.kind === 'canary');
  const flaggedRequests = outcomes.filter(
    (o) => o.exchange.kind === 'invalid' && o.answer.request.length > 0,
  ).length;
  const invalidCount = outcomes.filter((o) => o.exchange.kind === 'invalid').length;
  const responseViolations = outcomes.filter(
    (o) => o.exchange.kind !== 'canary' && o.answer.response.length > 0,
  ).length;
  const unflagged = outcomes.filter((o) => o.exchange.kind === 'invalid' && o.answer.request.length === 0);
  lines.push('', 'deliberately invalid requests Prism let through (the mock refused each):');
  for (const o of unflagged) lines.push(`  ${o.answer.status} ${o.exchange.endpoint}: ${o.exchange.label}`);
  process.stdout.write(`\n${lines.join('\n')}\n\n`);
  process.stdout.write(
    `prism check: ${outcomes.length} exchanges over ${endpointList.length} endpoints in ${(elapsedMs / 1000).toFixed(1)} s; ` +
      `${responseViolations} with response violations; ${flaggedRequests} of ${invalidCount} deliberately invalid requests flagged by Prism; ` +
      `${canaries.filter((o) => o.answer.response.length > 0).length} of ${canaries.length} canaries flagged; ${failed.length} failed\n`,
  );
  return ok && failed.length === 0;
}

async function main(): Promise<number> {
  const started = Date.now();
  try {
    await run();
    const ok = report(Date.now() - started);
    if (!ok) process.stdout.write('prism check FAILED (see above)\n');
    return ok ? 0 : 1;
  } catch (error) {
    process.stderr.write(`prism check could not run: ${(error as Error).message}\n`);
    if (prismLog.length > 0) process.stderr.write(`last Prism output:\n${prismLog.slice(-20).join('\n')}\n`);
    return 1;
  } finally {
    for (const child of children) child.kill('SIGTERM');
  }
}

process.exitCode = await main();
