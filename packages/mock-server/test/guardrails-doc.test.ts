/**
 * The worked examples of docs/guardrails.md are tests: every ```json guardrail-example block is
 * evaluated and its expectation checked, so the documentation cannot drift from the evaluator.
 */
import { readFileSync } from 'node:fs';
import { GuardrailCreateBody, type GuardrailRule } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { evaluateGuardrails } from '../src/domain/evaluate.js';
import type { PlanContent, RunScope } from '../src/domain/plan.js';

const DOC_URL = new URL('../../../docs/guardrails.md', import.meta.url);
const doc = readFileSync(DOC_URL, 'utf8');

interface Example {
  rules: Array<Record<string, unknown> & { id: string }>;
  run: RunScope;
  plan: PlanContent;
  expect: {
    passed: number;
    failed: number;
    blocked: boolean;
    violations: string[];
    skipped?: Array<{ ruleId: string; reason: 'disabled' | 'out_of_scope' }>;
    messages?: Record<string, string[]>;
  };
}

/** Every ```json guardrail-example block, with its heading and line for test names. */
function examples(markdown: string): Array<{ title: string; line: number; source: string }> {
  const found: Array<{ title: string; line: number; source: string }> = [];
  const fence = /^```json guardrail-example[ \t]*\r?\n([\s\S]*?)^```[ \t]*$/gm;
  for (const match of markdown.matchAll(fence)) {
    const before = markdown.slice(0, match.index);
    const headings = [...before.matchAll(/^#{1,6} (.+)$/gm)];
    found.push({
      title: headings.at(-1)?.[1]?.trim() ?? 'untitled',
      line: before.split('\n').length,
      source: match[1] ?? '',
    });
  }
  return found;
}

const blocks = examples(doc);
const DEFAULTS = {
  accountId: 'a00000000000000000000001',
  createdBy: 'b00000000000000000000001',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

function parse(source: string): Example {
  const value = JSON.parse(source) as Example;
  expect(Array.isArray(value.rules)).toBe(true);
  expect(value.run).toBeTypeOf('object');
  expect(value.plan).toBeTypeOf('object');
  expect(value.expect).toBeTypeOf('object');
  return value;
}

describe('docs/guardrails.md worked examples', () => {
  it('has at least six examples covering every criteria kind, scope, skipping and both outcomes', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(6);
    const parsed = blocks.map((b) => parse(b.source));
    const types = new Set(parsed.flatMap((e) => e.rules.map((r) => r.type)));
    expect([...types].sort()).toEqual(['cost', 'policy', 'resource', 'tag']);
    expect(parsed.some((e) => e.expect.blocked)).toBe(true);
    expect(parsed.some((e) => !e.expect.blocked && e.expect.failed > 0)).toBe(true);
    const reasons = new Set(parsed.flatMap((e) => (e.expect.skipped ?? []).map((s) => s.reason)));
    expect([...reasons].sort()).toEqual(['disabled', 'out_of_scope']);
    const severities = new Set(parsed.flatMap((e) => e.rules.map((r) => r.severity)));
    expect([...severities].sort()).toEqual([1, 2, 3]);
  });

  it('leaves the simulated-run section in place', () => {
    expect(doc).toMatch(/^## Simulated runs$/m);
    expect(doc).toContain('POST /__mock/workspaces/{workspaceId}/runs');
    expect(doc).toContain('POST /__mock/guardrails/evaluate');
  });

  it.each(blocks)('$title (line $line)', ({ source }) => {
    const example = parse(source);
    for (const { id: _id, ...body } of example.rules) {
      // Each rule, without its id, is a valid create body: the examples are real API input.
      const result = GuardrailCreateBody.safeParse({ createdBy: DEFAULTS.createdBy, ...body });
      expect(result.success ? [] : result.error.issues).toEqual([]);
    }
    const rules = example.rules.map((r) => ({ ...DEFAULTS, isEnabled: true, ...r }) as GuardrailRule);
    const evaluation = evaluateGuardrails(rules, example.run, example.plan);

    expect({
      passed: evaluation.passed,
      failed: evaluation.failed,
      blocked: evaluation.blocked,
      violations: evaluation.violations.map((v) => v.id),
    }).toEqual({
      passed: example.expect.passed,
      failed: example.expect.failed,
      blocked: example.expect.blocked,
      violations: example.expect.violations,
    });
    expect(evaluation.total).toBe(example.expect.passed + example.expect.failed);
    expect(evaluation.skipped).toEqual(example.expect.skipped ?? []);
    for (const [ruleId, messages] of Object.entries(example.expect.messages ?? {})) {
      expect(evaluation.outcomes.find((o) => o.ruleId === ruleId)?.messages).toEqual(messages);
    }
  });
});
