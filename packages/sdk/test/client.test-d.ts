import { type GuardrailCreated, IacmClient, type PagePromise } from '@iacm/sdk';
import type { Event, GuardrailCreateBody, IacStack, WorkspaceSummary } from '@iacm/sdk/contract';
import { describe, expectTypeOf, it } from 'vitest';

const client = new IacmClient({ baseUrl: 'http://127.0.0.1:4010', auth: { token: 't' } });

describe('typed filters, sorts and bodies', () => {
  it('accepts the spec sort names in both forms and refuses others', () => {
    client.workspaces.search({ sort: { lastRunTime: { order: -1 } } });
    client.workspaces.search({ sort: [{ workspaceName: { order: 1 } }, { ciTool: { order: -1 } }] });
    // @ts-expect-error runsCount is not a sortable field of workspace search
    client.workspaces.search({ sort: { runsCount: { order: 1 } } });
    // @ts-expect-error the order is 1 or -1
    client.workspaces.search({ sort: { workspaceName: { order: 'desc' } } });
    // @ts-expect-error lastRunTime sorts workspaces, not runs
    client.workspaces.runs.search('id', { sort: [{ lastRunTime: { order: 1 } }] });
    // @ts-expect-error guardrail search sorts by createdAt, accountId, createdBy, name, severity
    client.guardrails.search({ sort: { type: { order: 1 } } });
  });

  it('accepts the spec filter names and values and refuses others', () => {
    client.workspaces.search({ filters: { ciTool: ['github-actions'], $or: { labels: ['prod'] } } });
    // @ts-expect-error owner is not a workspace filter
    client.workspaces.search({ filters: { owner: ['x'] } });
    // @ts-expect-error circleci is not a CI tool the API knows
    client.workspaces.search({ filters: { ciTool: ['circleci'] } });
    // @ts-expect-error a filter takes a list
    client.workspaces.search({ filters: { labels: 'prod' } });
    // @ts-expect-error limit is not a member of the search body
    client.workspaces.search({ limit: 10 });
  });

  it('types the guardrail create body', () => {
    const body: GuardrailCreateBody = {
      createdBy: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      name: 'n',
      type: 'cost',
      scope: {
        workspaces: { include: [], exclude: [] },
        repositories: { include: [], exclude: [] },
        branches: { include: [], exclude: [] },
        labels: { include: [], exclude: [] },
      },
      criteria: { cost: { thresholdAmount: 1 } },
      severity: 2,
    };
    expectTypeOf(client.guardrails.create(body)).resolves.toEqualTypeOf<GuardrailCreated>();
    // @ts-expect-error severity is 1, 2 or 3
    client.guardrails.create({ ...body, severity: 4 });
    // @ts-expect-error the type must be one of the four kinds
    client.guardrails.create({ ...body, type: 'security' });
    // @ts-expect-error owner is not a member of a rule
    client.guardrails.update('id', { owner: 'x' });
  });

  it('types what comes back', () => {
    expectTypeOf(client.workspaces.search()).toEqualTypeOf<
      PagePromise<WorkspaceSummary[], WorkspaceSummary>
    >();
    expectTypeOf(client.workspaces.search({ projection: ['workspaceName'] })).resolves.items.toEqualTypeOf<
      Pick<WorkspaceSummary, 'workspaceName' | 'id'>
    >();
    expectTypeOf(client.iacExplorer.stacks()).toMatchTypeOf<AsyncIterable<IacStack>>();
    expectTypeOf(client.eventCenter.query()).toMatchTypeOf<AsyncIterable<Event>>();
    expectTypeOf(client.health()).resolves.toBeVoid();
    // @ts-expect-error eventCenter has no list method
    client.eventCenter.list();
  });
});
