import { describe, expect, it } from 'vitest';
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
    const error = refusal(() => validateInput(search, 'POST', { pageSize: 'x' }, () => ({ bad: 1 })));
    expect(error.issues?.map((i) => i.location).sort()).toEqual(['body', 'query']);
    const health = resolveRoute('GET', '/v2/health');
    expect(refusal(() => validateInput(health, 'GET', {}, () => ({ a: 1 }))).issues?.[0]?.message).toBe(
      'body: GET /v2/health takes no body',
    );
    expect(validateInput(health, 'GET', {}, () => ({})).body).toBeUndefined();
  });

  it('defaults an absent optional body to {} and refuses an absent required one', () => {
    const search = resolveRoute('POST', '/v2/workspaces/search');
    expect(validateInput(search, 'POST', {}, () => undefined).body).toEqual({});
    const login = resolveRoute('POST', '/v2/login');
    expect(refusal(() => validateInput(login, 'POST', {}, () => undefined)).issues?.[0]?.message).toBe(
      'body: POST /v2/login needs a JSON body',
    );
  });
});
