import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveRoute, validateInput } from '../../src/pipeline/route.js';
import { refusal } from '../helpers.js';

describe('route stage', () => {
  it("finds an endpoint by method and path, preferring literal segments over a parameter's", () => {
    expect(resolveRoute('POST', '/v2/guardrails/search').name).toBe('guardrails.search');
    const update = resolveRoute('PATCH', '/v2/guardrails/abc');
    expect([update.name, update.params]).toEqual(['guardrails.update', { ruleId: 'abc' }]);
  });

  it('answers 404 for an unknown path and 405 with Allow for another method', () => {
    expect(refusal(() => resolveRoute('GET', '/v2/none')).code).toBe('route_not_found');
    const wrong = refusal(() => resolveRoute('GET', '/v2/guardrails/search'));
    expect([wrong.status, wrong.headers.allow]).toEqual([405, 'POST']);
  });

  it('validates path, query and body together, and a body on an endpoint that takes none', () => {
    const search = resolveRoute('POST', '/v2/workspaces/search');
    const error = refusal(() =>
      validateInput(search, { method: 'POST', query: { pageSize: 'x' } }, { bad: 1 }),
    );
    expect(error.issues?.map((i) => i.location).sort()).toEqual(['body', 'query']);
    const health = resolveRoute('GET', '/v2/health');
    expect(
      refusal(() => validateInput(health, { method: 'GET', query: {} }, { a: 1 })).issues?.[0]?.message,
    ).toBe('body: GET /v2/health takes no body');
    expect(validateInput(health, { method: 'GET', query: {} }, {}).body).toBeUndefined();
  });

  it('defaults an absent optional body to {} and refuses an absent required one', () => {
    const search = resolveRoute('POST', '/v2/workspaces/search');
    expect(validateInput(search, { method: 'POST', query: {} }, undefined).body).toEqual({});
    const login = resolveRoute('POST', '/v2/login');
    expect(
      refusal(() => validateInput(login, { method: 'POST', query: {} }, undefined)).issues?.[0]?.message,
    ).toBe('body: POST /v2/login needs a JSON body');
  });

  it('refuses a parameter given more than once, naming it, and does not take it as the list', () => {
    const search = resolveRoute('POST', '/v2/workspaces/search');
    const error = refusal(() =>
      validateInput(search, { method: 'POST', query: { pageSize: ['5', '6'], page: '1' } }, {}),
    );
    expect(error.status).toBe(400);
    expect(error.issues).toEqual([
      {
        location: 'query',
        path: 'pageSize',
        message: 'query.pageSize: expected one value, received 2 values (the parameter was repeated)',
        expected: 'one value',
        received: '2 values',
      },
    ]);
    expect(validateInput(search, { method: 'POST', query: { pageSize: ['5'] } }, {}).query).toEqual({
      pageSize: 5,
    });
  });

  it('takes a repeated parameter its query schema declares as a list', () => {
    const search = resolveRoute('POST', '/v2/workspaces/search');
    const query = z.strictObject({ tag: z.array(z.string()).optional(), page: z.string().optional() });
    const route = { ...search, definition: { ...search.definition, query } };
    expect(validateInput(route, { method: 'POST', query: { tag: ['a', 'b'] } }, {}).query).toEqual({
      tag: ['a', 'b'],
    });
    const error = refusal(() =>
      validateInput(route, { method: 'POST', query: { tag: ['a'], page: ['1', '2'] } }, {}),
    );
    expect(error.issues?.map((issue) => issue.path)).toEqual(['page']);
  });

  it('refuses prototype-named members of the query and the body as unknown, leaving Object.prototype alone', () => {
    const search = resolveRoute('POST', '/v2/workspaces/search');
    const query = Object.assign(Object.create(null), { constructor: 'a', toString: ['b', 'c'] });
    Object.defineProperty(query, '__proto__', { value: 'd', enumerable: true });
    const body = JSON.parse(
      '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"filters":{"__proto__":{"polluted":1}}}',
    );
    const error = refusal(() => validateInput(search, { method: 'POST', query: query }, body));
    expect(error.status).toBe(400);
    const named = error.issues?.map((issue) => `${issue.location}:${issue.path}`).sort();
    expect(named).toEqual(
      expect.arrayContaining([
        'query:__proto__',
        'query:constructor',
        'query:toString',
        'body:__proto__',
        'body:constructor',
      ]),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
