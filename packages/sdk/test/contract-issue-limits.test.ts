/**
 * Validation does not amplify (issue 13, M6): at most 100 issues per answer plus one that counts the
 * rest, formatting linear and without recursion, and request lists bounded where the API has natural
 * bounds, so that zod refuses a huge list with one issue instead of one per item.
 */
import { IacmClient, RequestValidationError } from '@iacm/sdk';
import {
  EventQueryBody,
  FieldIssue,
  fieldIssuesFromZod,
  GuardrailCreateBody,
  GuardrailSearchBody,
  limitIssues,
  MAX_LISTED_ISSUES,
  MAX_REQUEST_LIST_ITEMS,
  MAX_REQUEST_LIST_VALUES,
  RunSearchBody,
  StackQueryBody,
  summariseIssues,
  WorkspaceSearchBody,
  zodIssues,
} from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodMiniType } from 'zod/mini';
import { clone, createBodies } from './fixtures.js';

function failure(schema: ZodMiniType, input: unknown): z.core.$ZodError {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a failure');
  return result.error;
}

describe('at most 100 issues, and a count of the rest', () => {
  it('500,000 bad items: 100 issues, then one that counts the other 499,900', () => {
    const input = new Array(500_000).fill('x');
    const issues = fieldIssuesFromZod(failure(z.array(z.number()), input), 'body', input);
    expect(MAX_LISTED_ISSUES).toBe(100);
    expect(issues).toHaveLength(101);
    expect(issues[99]?.path).toBe('[99]');
    expect(issues[100]).toEqual({
      location: 'body',
      path: '',
      message: 'body: 499900 more issues not listed (an answer lists at most 100)',
      received: '499900 more issues',
      omitted: 499_900,
    });
    expect(FieldIssue.safeParse(issues[100]).success).toBe(true);
    expect(summariseIssues(issues)).toMatch(/\(and 499999 more issues\)$/);
  });

  it('a union branch with 500,000 issues: no stack overflow (the formatter has no spread or recursion)', () => {
    const schema = z.union([z.array(z.number()), z.string()]);
    const input = new Array(500_000).fill('x');
    const issues = fieldIssuesFromZod(failure(schema, input), 'body', input);
    expect(issues).toHaveLength(101);
    expect(issues[0]?.path).toBe('[0]');
    expect(issues[100]?.omitted).toBe(499_900);
  });

  it('unknown members past the cap are counted, not formatted', () => {
    const input = Object.fromEntries(Array.from({ length: 150_000 }, (_, i) => [`m${i}`, i]));
    const issues = fieldIssuesFromZod(failure(z.strictObject({}), input), 'query', input);
    expect(issues).toHaveLength(101);
    expect(issues[0]?.message).toBe('query.m0: unknown member "m0"; expected only documented members');
    expect(issues[100]).toMatchObject({ location: 'query', omitted: 149_900 });
  });

  it('a list within the cap is written whole, without a counting issue', () => {
    const input = new Array(100).fill('x');
    const issues = fieldIssuesFromZod(failure(z.array(z.number()), input), 'body', input);
    expect(issues).toHaveLength(100);
    expect(issues.some((issue) => issue.omitted !== undefined)).toBe(false);
  });

  it('zodIssues takes another cap', () => {
    const input = ['a', 'b', 'c'];
    const issues = zodIssues(failure(z.array(z.number()), input), input, {
      label: (where) => where || 'body',
      dialect: 'delivery',
      max: 1,
    });
    expect(issues.map((issue) => [issue.path, issue.omitted])).toEqual([
      ['[0]', undefined],
      ['', 2],
    ]);
  });

  it('limitIssues caps issues of several parts together and merges their counts', () => {
    const many = (location: 'query' | 'body', n: number): FieldIssue[] =>
      Array.from({ length: n }, (_, i) => ({ location, path: `p${i}`, message: `${location}.p${i}: bad` }));
    const query = [
      ...many('query', 80),
      { location: 'query', path: '', message: '', omitted: 5 } as FieldIssue,
    ];
    const body = many('body', 80);
    const limited = limitIssues([...query, ...body]);
    expect(limited).toHaveLength(101);
    expect(limited[100]).toMatchObject({ location: 'query', path: '', omitted: 5 + 60 });
    expect(summariseIssues(limited)).toMatch(/\(and 164 more issues\)$/);
    expect(limitIssues(many('body', 3))).toHaveLength(3);
  });
});

describe('request lists are bounded where the API has natural bounds', () => {
  it('documents the bounds', () => {
    expect(MAX_REQUEST_LIST_VALUES).toBe(1000);
    expect(MAX_REQUEST_LIST_ITEMS).toBe(100);
  });

  it('100,000 bad filter values (a 0.2 MB request): one issue naming the list and the bound', () => {
    const status = new Array(100_000).fill('x');
    const input = { filters: { status } };
    const issues = fieldIssuesFromZod(failure(WorkspaceSearchBody, input), 'body', input);
    expect(issues).toEqual([
      expect.objectContaining({
        path: 'filters.status',
        expected: 'at most 1000 items',
        received: 'an array',
      }),
    ]);
    expect(JSON.stringify(issues).length).toBeLessThan(1000);
  });

  it('a list at the bound passes; one more is refused', () => {
    const at = new Array(MAX_REQUEST_LIST_VALUES).fill('label');
    expect(WorkspaceSearchBody.safeParse({ filters: { labels: at } }).success).toBe(true);
    expect(WorkspaceSearchBody.safeParse({ filters: { labels: [...at, 'one more'] } }).success).toBe(false);
  });

  it('bounds filter values, scope and criteria lists, event filters, screen filters, sort keys and projections', () => {
    const values = new Array(MAX_REQUEST_LIST_VALUES + 1).fill('v');
    const items = MAX_REQUEST_LIST_ITEMS + 1;
    const rule = clone(createBodies.cost) as { scope: { labels: { include: string[] } } };
    rule.scope.labels.include = values;
    const cases: Array<[ZodMiniType, unknown, string]> = [
      [RunSearchBody, { filters: { branch: values } }, 'filters.branch'],
      [GuardrailSearchBody, { filters: { labels: values } }, 'filters.labels'],
      [GuardrailSearchBody, { projection: new Array(items).fill('name') }, 'projection'],
      [GuardrailCreateBody, rule, 'scope.labels.include'],
      [EventQueryBody, { query: { filters: [{ key: 'eventType', values }] } }, 'query.filters[0].values'],
      [
        EventQueryBody,
        { query: { filters: new Array(items).fill({ key: 'eventType', values: ['a'] }) } },
        'query.filters',
      ],
      [StackQueryBody, { screenFilters: { stateType: values } }, 'screenFilters.stateType'],
      [WorkspaceSearchBody, { sort: new Array(items).fill({ name: { order: 1 } }) }, 'sort'],
    ];
    for (const [schema, input, path] of cases) {
      const issues = fieldIssuesFromZod(failure(schema, input), 'body', input);
      expect(
        issues.some((issue) => issue.path === path && /^at most \d+ items$/.test(issue.expected ?? '')),
        `${path}: ${JSON.stringify(issues).slice(0, 300)}`,
      ).toBe(true);
    }
  });

  it('the SDK refuses a huge filter list before sending, with one issue', async () => {
    let sent = 0;
    const client = new IacmClient({
      baseUrl: 'https://iacm.example.com',
      auth: { accessKey: 'a', secretKey: 'b' },
      fetch: async () => {
        sent++;
        return new Response('{}');
      },
    });
    const status = new Array(100_000).fill('nope') as ['blocked'];
    const error = await client.workspaces.search({ filters: { status } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    const issues = (error as RequestValidationError).issues;
    expect(issues).toEqual([
      expect.objectContaining({ location: 'body', path: 'filters.status', expected: 'at most 1000 items' }),
    ]);
    expect((error as RequestValidationError).message).toContain('body.filters.status: Too big');
    expect(sent).toBe(0);
  });
});
