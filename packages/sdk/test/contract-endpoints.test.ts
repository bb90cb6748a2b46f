import {
  buildPath,
  compilePath,
  endpointList,
  endpoints,
  matchPath,
  responseSchemaFor,
} from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { guardrailRule, workspaceSummary } from './fixtures.js';

/** The spec's endpoints (§4), written down from the spec, plus login and health from the public record. */
const SPEC_ENDPOINTS = [
  'POST /v2/workspaces/search',
  'DELETE /v2/workspaces/{workspaceId}',
  'PUT /v2/workspaces/{workspaceId}/labels',
  'POST /v2/workspaces/{workspaceId}/runs/search',
  'POST /v2/guardrails/search',
  'POST /v2/guardrails',
  'PATCH /v2/guardrails/{ruleId}',
  'DELETE /v2/guardrails/{ruleId}',
  'POST /api/iacStacks',
  'POST /api/iacStacks/backends',
  'POST /api/iacStacks/repositories',
  'POST /api/iacStacks/modules',
  'POST /api/iacStacks/providers',
  'POST /v2/event-center',
  'POST /v2/event-center/facets',
  'POST /v2/login',
  'GET /v2/health',
];

describe('endpoint table', () => {
  it('holds exactly the spec endpoints plus login and health', () => {
    const table = endpointList.map((e) => `${e.method} ${e.path}`);
    expect(new Set(table).size).toBe(table.length);
    expect([...table].sort()).toEqual([...SPEC_ENDPOINTS].sort());
  });

  it('declares a params schema exactly when the path has placeholders, naming the same parameters', () => {
    for (const entry of endpointList) {
      const placeholders = [...entry.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      if (placeholders.length === 0) {
        expect(entry.params, entry.name).toBeUndefined();
        continue;
      }
      const sample = Object.fromEntries(placeholders.map((p) => [p, '65a1f0c2e4b0a1b2c3d4e5f6']));
      expect(entry.params?.safeParse(sample).success, entry.name).toBe(true);
      expect(entry.params?.safeParse({ ...sample, extra: 'x' }).success, entry.name).toBe(false);
    }
  });

  it('needs a bearer token everywhere but login and health', () => {
    const open = endpointList.filter((e) => !e.auth).map((e) => e.name);
    expect(open.sort()).toEqual(['auth.login', 'health']);
  });

  it('marks guardrail create as the one request that is not safe to retry', () => {
    expect(endpointList.filter((e) => !e.retrySafe).map((e) => e.name)).toEqual(['guardrails.create']);
  });

  it('pages the searches by page, the explorer by offset and the event center by continuation', () => {
    const kinds = Object.fromEntries(endpointList.map((e) => [e.name, e.pagination]));
    expect(kinds['workspaces.search']).toBe('page');
    expect(kinds['workspaces.runs.search']).toBe('page');
    expect(kinds['guardrails.search']).toBe('page');
    expect(kinds['iacExplorer.stacks']).toBe('offset');
    expect(kinds['eventCenter.query']).toBe('continuation');
  });

  it('answers health with 204 and everything else with 200', () => {
    for (const entry of endpointList)
      expect(entry.successStatus, entry.name).toBe(entry.name === 'health' ? 204 : 200);
  });

  it('gives every body-less endpoint no body schema and every POST/PUT/PATCH one', () => {
    for (const entry of endpointList) {
      const hasBody = entry.method === 'POST' || entry.method === 'PUT' || entry.method === 'PATCH';
      expect(entry.body !== undefined, entry.name).toBe(hasBody);
    }
  });
});

describe('paths', () => {
  it('builds and matches every template, round trip', () => {
    for (const entry of endpointList) {
      const params = Object.fromEntries([...entry.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1], 'a b/c']));
      const path = buildPath(entry.path, params);
      expect(matchPath(entry.path, path), entry.name).toEqual(params);
    }
  });

  it('encodes parameters so a value cannot add path segments', () => {
    expect(buildPath('/v2/guardrails/{ruleId}', { ruleId: '../health' })).toBe('/v2/guardrails/..%2Fhealth');
  });

  it('refuses a missing parameter and does not match a different shape', () => {
    expect(() => buildPath('/v2/guardrails/{ruleId}', {})).toThrow(/ruleId/);
    expect(matchPath('/v2/guardrails/{ruleId}', '/v2/guardrails')).toBeUndefined();
    expect(matchPath('/v2/guardrails/{ruleId}', '/v2/guardrails/')).toBeUndefined();
    expect(matchPath('/v2/workspaces/{workspaceId}/labels', '/v2/workspaces/x/runs')).toBeUndefined();
    expect(matchPath('/v2/guardrails/{ruleId}', '/v2/guardrails/%E0%A4%A')).toBeUndefined();
  });

  it('compiles a template once and matches many paths with it, saying how specific it is', () => {
    const rule = compilePath('/v2/guardrails/{ruleId}');
    expect(rule).toMatchObject({ template: '/v2/guardrails/{ruleId}', segments: 4, literal: 3 });
    expect(compilePath('/v2/guardrails/search').literal).toBe(4);
    expect(rule.match('/v2/guardrails/a%20b'.split('/'))).toEqual({ ruleId: 'a b' });
    expect(rule.match('/v2/guardrails/c'.split('/'))).toEqual({ ruleId: 'c' });
    expect(rule.match('/v2/guardrails'.split('/'))).toBeUndefined();
    expect(rule.match('/v2/workspaces/c'.split('/'))).toBeUndefined();
  });
});

describe('responseSchemaFor', () => {
  it('reads a projected search answer with only the named members plus id', () => {
    const schema = responseSchemaFor(endpoints['workspaces.search'], { projection: ['workspaceName'] });
    expect(schema.safeParse([{ id: workspaceSummary.id, workspaceName: 'x' }]).success).toBe(true);
    expect(schema.safeParse([{ workspaceName: 'x' }]).success).toBe(false);
    expect(schema.safeParse([{ id: workspaceSummary.id, workspaceName: 3 }]).success).toBe(false);
  });

  it('reads an unprojected answer with the full schema', () => {
    const schema = responseSchemaFor(endpoints['guardrails.search'], {});
    expect(schema.safeParse([guardrailRule]).success).toBe(true);
    expect(schema.safeParse([{ id: guardrailRule.id }]).success).toBe(false);
  });
});
