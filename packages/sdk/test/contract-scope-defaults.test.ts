/**
 * Issue 24, point 4: in a request, a guardrail scope member's `include` or `exclude` left out reads
 * as `[]` (the create and update bodies, the strict schemas, the OpenAPI document agree); an answer's
 * scope carries both lists, and a fixture of one (the strict form) must too.
 */
import {
  GuardrailCreateBody,
  GuardrailRule,
  GuardrailUpdateBody,
  strictEndpointSchemas,
  strictSchema,
} from '@iacm/sdk/contract';
import { buildOpenApiDocument } from '@iacm/sdk/openapi';
import { describe, expect, it } from 'vitest';

const sparseScope = {
  workspaces: { include: ['*'] },
  repositories: { exclude: ['x'] },
  branches: {},
  labels: { include: ['prod'], exclude: ['legacy'] },
};
const fullScope = {
  workspaces: { include: ['*'], exclude: [] },
  repositories: { include: [], exclude: ['x'] },
  branches: { include: [], exclude: [] },
  labels: { include: ['prod'], exclude: ['legacy'] },
};
const body = {
  createdBy: 'bbbbbbbbbbbbbbbbbbbbbbbb',
  name: 'sparse',
  type: 'cost',
  criteria: { cost: { thresholdAmount: 100 } },
  severity: 1,
};

describe('guardrail scope lists left out of a request', () => {
  it('create and update bodies read them as []', () => {
    expect(GuardrailCreateBody.parse({ ...body, scope: sparseScope }).scope).toEqual(fullScope);
    expect(GuardrailUpdateBody.parse({ scope: sparseScope }).scope).toEqual(fullScope);
    // The strict schemas of the endpoints (for fixtures) are the request bodies themselves.
    expect(
      strictEndpointSchemas('guardrails.create').body.parse({ ...body, scope: sparseScope }).scope,
    ).toEqual(fullScope);
  });

  it('the four members stay required, and a list of the wrong type is still refused', () => {
    const { labels: _left, ...three } = sparseScope;
    expect(GuardrailCreateBody.safeParse({ ...body, scope: three }).success).toBe(false);
    expect(
      GuardrailCreateBody.safeParse({ ...body, scope: { ...sparseScope, branches: { exclude: 'main' } } })
        .success,
    ).toBe(false);
  });

  it('an answer carries both lists: the answer schema reads them, the strict form of a fixture needs them', () => {
    const rule = {
      id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
      accountId: 'cccccccccccccccccccccccc',
      createdBy: body.createdBy,
      name: 'r',
      type: 'cost',
      scope: fullScope,
      criteria: body.criteria,
      isEnabled: true,
      createdAt: '2026-01-15T12:00:00.000Z',
      updatedAt: '2026-01-15T12:00:00.000Z',
      severity: 1,
    };
    expect(GuardrailRule.parse(rule).scope).toEqual(fullScope);
    expect(strictSchema(GuardrailRule).parse(rule).scope).toEqual(fullScope);
    const sparseRule = { ...rule, scope: { ...fullScope, workspaces: { include: ['*'] } } };
    const refused = strictSchema(GuardrailRule).safeParse(sparseRule);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.path).toEqual(['scope', 'workspaces', 'exclude']);
  });

  it('the OpenAPI document: request lists default to [] and are not required; answer lists are', () => {
    type Member = { required?: string[]; properties: Record<string, { default?: unknown }> };
    type Rule = { properties: { scope: { properties: Record<string, Member> } } };
    const schemas = buildOpenApiDocument().components.schemas as unknown as Record<string, Rule>;
    const member = (name: string) => schemas[name]?.properties.scope.properties.workspaces as Member;
    for (const name of ['GuardrailCreateBody', 'GuardrailUpdateBody']) {
      expect(member(name).required, name).toBeUndefined();
      expect(member(name).properties.include?.default).toEqual([]);
      expect(member(name).properties.exclude?.default).toEqual([]);
    }
    expect(member('GuardrailRule').required).toEqual(['include', 'exclude']);
  });
});
