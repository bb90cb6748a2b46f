/**
 * Runs every example of examples/ against a fresh standalone mock (`listen({ port: 0 })`) and checks
 * what it did against the mock's own answers, so an example cannot silently stop doing what its
 * comment says. The last block runs each program the way its comment says to (`tsx examples/<name>.ts`
 * with the IACM_* variables). The Vitest + MSW example (examples/vitest-suite) is a test suite of
 * its own, run by the `examples` vitest project.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { listen, type RunningMockServer } from '@iacm/mock-server/node';
import { IacmClient } from '@iacm/sdk';
import type { CiTool, Event, RunStatus } from '@iacm/sdk/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as driftExpress from '../examples/drift-alert-express.js';
import * as driftFastify from '../examples/drift-alert-fastify.js';
import * as driftHono from '../examples/drift-alert-hono.js';
import * as tail from '../examples/event-center-tail.js';
import * as guardrails from '../examples/guardrails-as-code.js';
import * as report from '../examples/workspaces-report.js';

const root = fileURLToPath(new URL('..', import.meta.url));

let mock: RunningMockServer;
let client: IacmClient;
let connection: { baseUrl: string; accessKey: string; secretKey: string };
let lines: string[];
const log = (line: string) => {
  lines.push(line);
};

beforeEach(async () => {
  mock = await listen({ port: 0 });
  const [primary] = mock.control.accounts();
  if (!primary) throw new Error('the mock has no account');
  connection = { baseUrl: mock.url, accessKey: primary.accessKey, secretKey: primary.secretKey };
  client = new IacmClient({
    baseUrl: mock.url,
    auth: { accessKey: primary.accessKey, secretKey: primary.secretKey },
  });
  lines = [];
});
afterEach(() => mock.close());

/** Every item of a search, in one request. */
async function count(filters: Parameters<IacmClient['workspaces']['search']>[0]): Promise<number> {
  return (await client.workspaces.search({ ...filters, pageSize: 500 })).length;
}

describe('workspaces-report', () => {
  it('counts every workspace by last run status and CI tool, as filtered searches count them', async () => {
    const result = await report.main({ ...connection, log, pageSize: 7 });

    expect(result.total).toBe(await count({}));
    expect(result.total).toBeGreaterThan(7 * 3); // several pages
    for (const [status, n] of Object.entries(result.byStatus)) {
      if (status === report.NO_RUN) continue;
      expect(n, status).toBe(await count({ filters: { status: [status as RunStatus] } }));
    }
    const withRun = Object.entries(result.byStatus)
      .filter(([status]) => status !== report.NO_RUN)
      .reduce((sum, [, n]) => sum + n, 0);
    expect(result.byStatus[report.NO_RUN] ?? 0).toBe(result.total - withRun);
    for (const [tool, n] of Object.entries(result.byCiTool)) {
      expect(n, tool).toBe(await count({ filters: { ciTool: [tool as CiTool] } }));
    }
    expect(lines).toContain(`${result.total} workspaces`);
  });

  it('labels the blocked workspaces once, keeping their labels', async () => {
    const before = await client.workspaces.search({ filters: { status: ['blocked'] }, pageSize: 500 });
    expect(before.length).toBeGreaterThan(0);
    mock.control.clearJournal();

    const first = await report.main({ ...connection, log, pageSize: 10 });

    const pages = mock.control.journal().filter((e) => e.path === '/v2/workspaces/search');
    expect(pages).toHaveLength(Math.floor(first.total / 10) + 1);
    expect(first.blocked.map((w) => w.id).sort()).toEqual(before.map((w) => w.id).sort());
    expect(first.labeled.sort()).toEqual(before.map((w) => w.workspaceName).sort());
    const labeled = await client.workspaces.search({ filters: { labels: ['needs-review'] }, pageSize: 500 });
    expect(labeled.map((w) => w.id).sort()).toEqual(before.map((w) => w.id).sort());
    for (const workspace of labeled) {
      const old = before.find((w) => w.id === workspace.id);
      expect(workspace.labels).toEqual([...(old?.labels ?? []), 'needs-review']);
    }

    mock.control.clearJournal();
    const second = await report.main({ ...connection, log, pageSize: 10 });
    expect(second.blocked).toHaveLength(before.length);
    expect(second.labeled).toEqual([]);
    expect(mock.control.journal().filter((e) => e.method === 'PUT')).toEqual([]);
  });

  it('changes nothing in a dry run', async () => {
    const result = await report.main({ ...connection, log, dryRun: true });
    expect(result.blocked.length).toBeGreaterThan(0);
    expect(result.labeled).toEqual([]);
    expect(await count({ filters: { labels: ['needs-review'] } })).toBe(0);
  });
});

describe('guardrails-as-code', () => {
  const declared = guardrails.RULES.map((rule) => rule.name).sort();

  it('makes the account match the declared rules, and a second run changes nothing', async () => {
    const seeded = (await client.guardrails.search({ pageSize: 500 })).map((rule) => rule.name).sort();

    const first = await guardrails.main({ ...connection, log });

    expect(first.created.sort()).toEqual(declared);
    expect(first.deleted.sort()).toEqual(seeded);
    expect(first.updated).toEqual([]);
    const stored = await client.guardrails.search({ pageSize: 500 });
    expect(stored.map((rule) => rule.name).sort()).toEqual(declared);
    for (const rule of guardrails.RULES) {
      expect(stored.find((r) => r.name === rule.name)).toMatchObject({
        type: rule.type,
        severity: rule.severity,
        scope: rule.scope,
        criteria: rule.criteria,
        isEnabled: true,
      });
    }

    mock.control.clearJournal();
    const second = await guardrails.main({ ...connection, log });
    expect(second).toMatchObject({ created: [], updated: [], deleted: [] });
    expect(second.unchanged.sort()).toEqual(declared);
    const writes = mock.control
      .journal()
      .filter((e) => e.path.startsWith('/v2/guardrails') && e.method !== 'POST');
    expect(writes).toEqual([]);
    expect(mock.control.journal().filter((e) => e.path === '/v2/guardrails')).toEqual([]);
  });

  it('updates a rule whose declaration changed, by name', async () => {
    await guardrails.main({ ...connection, log });
    const [cost, ...rest] = guardrails.RULES;
    if (cost?.type !== 'cost') throw new Error('expected a cost rule first');
    const raised = { ...cost, criteria: { cost: { thresholdAmount: 300 } } };

    const result = await guardrails.main({ ...connection, log, rules: [raised, ...rest] });

    expect(result).toMatchObject({ created: [], deleted: [], updated: [cost.name] });
    const [stored] = await client.guardrails.search({ searchValue: cost.name });
    expect(stored?.criteria).toEqual({ cost: { thresholdAmount: 300 } });
  });

  it('evaluates the sample plan against the declared rules without storing anything', async () => {
    const rulesBefore = await client.guardrails.search({ pageSize: 500 });

    const result = await guardrails.main({ ...connection, log, dryRun: true });

    expect(result.created.sort()).toEqual(declared);
    expect(await client.guardrails.search({ pageSize: 500 })).toEqual(rulesBefore); // dry run
    const evaluation = result.evaluation;
    expect(evaluation).toMatchObject({ total: 4, passed: 1, failed: 3, blocked: true });
    expect(evaluation?.outcomes.filter((o) => !o.passed).map((o) => o.ruleName)).toEqual([
      'Prod: monthly cost rise at most $200',
      'No high encryption findings',
      'Prod: no database deletes',
    ]);
    expect(evaluation?.outcomes[0]?.messages).toEqual([
      'monthly cost rises by $220.00 (+73.33%), over the $200.00 threshold',
    ]);
    expect(lines).toContain('the run would be blocked');
  });

  it('leaves alone the rules it does not own', async () => {
    const seeded = await client.guardrails.search({ pageSize: 500 });
    const result = await guardrails.main({
      ...connection,
      log,
      owns: (rule) => rule.createdBy === 'a0a0a0a0a0a0a0a0a0a0a0a0',
      evaluate: false,
    });
    expect(result.deleted).toEqual([]);
    expect(result.evaluation).toBeUndefined();
    expect(await client.guardrails.search({ pageSize: 500 })).toHaveLength(seeded.length + declared.length);
  });
});

describe('event-center-tail', () => {
  it('reads the backlog newest first by continuation token, with no gap and no repeat', async () => {
    const filters = [{ key: 'providerType' as const, values: ['aws'] }];

    const result = await tail.main({ ...connection, log, filters, pageSize: 40, limit: 150 });

    expect(result.pages).toBe(4); // 40 + 40 + 40 + 30
    expect(result.events).toHaveLength(150);
    const reference = await client.eventCenter.query({ query: { filters }, size: 150 });
    expect(result.events.map((e) => e.id)).toEqual(reference.events.map((e) => e.id));
    for (let i = 1; i < result.events.length; i++) {
      const [newer, older] = [result.events[i - 1] as Event, result.events[i] as Event];
      expect(newer.event_timestamp >= older.event_timestamp).toBe(true);
    }
    expect(result.events.every((e) => e.provider_type === 'aws')).toBe(true);

    // The facets count every matching event, not only the ones read.
    let matching = 0;
    for await (const _event of client.eventCenter.query({ query: { filters }, size: 150 })) matching += 1;
    const eventTypes = result.facets.find((f) => f.field === 'eventType');
    expect(eventTypes?.values.reduce((sum, v) => sum + v.count, 0)).toBe(matching);
    expect(lines.some((line) => line.startsWith('eventType ('))).toBe(true);
    expect(lines).toContain('150 events in 4 pages');
  });

  it('follows: prints the new events once each, oldest first', async () => {
    // Every new event at the same instant (the hardest case), after the seeded ones (before 2026-01-01).
    mock.control.clock.set(Math.max(Date.now(), Date.UTC(2026, 0, 2)));
    const [workspace] = await client.workspaces.search({ pageSize: 1 });
    if (!workspace) throw new Error('expected a workspace');
    const controller = new AbortController();
    const followed: Event[] = [];
    const done = tail.main({
      ...connection,
      log,
      limit: 10,
      follow: true,
      intervalMs: 20,
      signal: controller.signal,
      onEvent: (event) => followed.push(event),
    });
    await vi.waitFor(() => expect(lines).toContain('following (Ctrl+C to stop)'), { timeout: 30_000 });

    await client.workspaces.setLabels(workspace.id, ['followed']);
    await vi.waitFor(() => expect(followed).toHaveLength(1), { timeout: 30_000 });
    mock.control.simulateRun(workspace.id, { title: 'tail me' });
    await vi.waitFor(() => expect(followed.length).toBeGreaterThan(1), { timeout: 30_000 });
    await new Promise((resolve) => setTimeout(resolve, 100)); // a few more polls: nothing comes twice
    controller.abort();
    const result = await done;

    expect(followed[0]).toMatchObject({ asset_id: workspace.id, asset_type: 'iacm_workspace' });
    expect(followed[0]?.event.mutation_type).toBe('update');
    expect(followed.slice(1).some((e) => e.event_type === 'iac_status_change')).toBe(true);
    expect(new Set(followed.map((e) => e.id)).size).toBe(followed.length);
    expect(result.followed).toEqual(followed);
    expect(result.events).toHaveLength(10);
  });
});

describe.each([
  ['Express', driftExpress.main],
  ['Fastify', driftFastify.main],
  ['Hono', driftHono.main],
])('drift-alert-%s', (_framework, start) => {
  const credentials = { type: 'header', value: 'Bearer drift-test-token' } as const;

  it('collects the drift notification the mock delivers, and nothing else', async () => {
    const server = await start({ port: 0, credentials, log });
    try {
      const integration = await mock.control.webhooks.create({
        nickname: 'drift alerts',
        url: server.url,
        credentials: { authorization: 'Bearer drift-test-token' },
      });
      expect(integration.status).toBe('active'); // the test delivery got 200
      expect(lines).toContain('integration test delivery received');
      const { hits } = await client.iacExplorer.stacks({ pageSize: 1 });
      const stack = hits[0];
      if (!stack) throw new Error('expected a stack');

      mock.control.recordFinding(stack.id, {
        kind: 'Drift',
        name: 'acme-logs',
        assetType: 'aws_s3_bucket',
        region: 'eu-west-1',
        drifts: [{ keyName: 'acl', iacValue: 'private', providerValue: 'public-read' }],
      });
      mock.control.notify({ notificationType: 'GhostResource' }); // delivered, not an alert
      await mock.control.flushDeliveries();

      expect(server.alerts).toEqual([
        expect.objectContaining({
          accountName: mock.control.accounts()[0]?.name,
          resource: 'acme-logs',
          assetType: 'aws_s3_bucket',
          region: 'eu-west-1',
          drifts: [{ keyName: 'acl', iacValue: 'private', providerValue: 'public-read' }],
        }),
      ]);
      // Both were delivered (concurrently: in either order).
      const deliveries = mock.control.webhooks.deliveries(integration.id);
      expect(deliveries.map((d) => [d.kind, d.status, d.outcome]).sort()).toEqual([
        ['Drift', 200, 'delivered'],
        ['GhostResource', 200, 'delivered'],
      ]);
      // The framework's other route still answers JSON.
      const listed = await fetch(server.url.replace(/\/webhooks$/, '/alerts'));
      expect(await listed.json()).toEqual(server.alerts);
    } finally {
      await server.close();
    }
  });

  it('answers 401 to other credentials, so the mock refuses to create that integration', async () => {
    const server = await start({ port: 0, credentials, log });
    try {
      await expect(
        mock.control.webhooks.create({
          nickname: 'wrong token',
          url: server.url,
          credentials: { authorization: 'Bearer another-token' },
        }),
      ).rejects.toThrow(/invalid webhook URL.*401/);
      expect(lines.some((line) => line.startsWith('delivery refused: 401 invalid_credentials: '))).toBe(true);
      expect(lines.join('\n')).not.toContain('another-token'); // the error never quotes a credential
      expect(server.alerts).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('each example runs directly, as its comment says', () => {
  const tsx = `${root}node_modules/.bin/tsx`;

  /** Runs `tsx examples/<file> ...args` with the IACM_* variables until `until` matches its output. */
  function run(file: string, args: string[], until?: RegExp) {
    const env = {
      ...process.env,
      IACM_BASE_URL: connection.baseUrl,
      IACM_ACCESS_KEY: connection.accessKey,
      IACM_SECRET_KEY: connection.secretKey,
      IACM_TOKEN: '', // would win over the key pair
      IACM_WEBHOOK_TOKEN: 'direct-run-token',
      PORT: '0',
    };
    const child: ChildProcess = spawn(tsx, [`examples/${file}`, ...args], { cwd: root, env });
    let output = '';
    return new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (until?.test(output)) child.kill('SIGINT');
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, output }));
    });
  }

  it.each([
    ['workspaces-report.ts', ['--dry-run'], /\d+ workspaces\n[\s\S]*dry run: no label changed/],
    [
      'guardrails-as-code.ts',
      ['--dry-run'],
      /would create {2}Owner tag on new resources[\s\S]*the run would be blocked/,
    ],
    [
      'event-center-tail.ts',
      ['--provider', 'aws'],
      /providerType \(1 distinct\): aws \d+[\s\S]*\d+ events in \d+ pages/,
    ],
  ])(
    '%s',
    async (file, args, expected) => {
      const { code, output } = await run(file, args);
      expect(output).toMatch(expected);
      expect(code).toBe(0);
    },
    30_000,
  );

  it.each(['drift-alert-express.ts', 'drift-alert-fastify.ts', 'drift-alert-hono.ts'])(
    '%s starts and prints how to connect the mock',
    async (file) => {
      const { output } = await run(file, [], /__mock\/notifications/);
      expect(output).toMatch(/drift alerts: POST http:\/\/127\.0\.0\.1:\d+\/webhooks/);
      expect(output).toContain('"credentials":{"authorization":"Bearer direct-run-token"}');
    },
    30_000,
  );
});
