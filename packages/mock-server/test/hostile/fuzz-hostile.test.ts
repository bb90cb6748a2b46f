/**
 * Fuzzing with hostile input (issue 13, "Also"): prototype-named keys in queries and bodies (L1),
 * deep nesting (L4) and huge arrays (M6), on every endpoint and on the control routes that store
 * nothing outside the mock (no faults, no seeds, no rate limit, no integrations: see below). Every
 * answer is below 500, in the documented error shape, small (an error answer never grows with the
 * input), and the mock answers a health check afterwards. `pnpm test` runs a short run;
 * `pnpm test:fuzz` runs 12 times as many (fixed seeds; fast-check prints the seed and the shrunk case
 * of a failure).
 */
import { ErrorBody, endpointList } from '@iacm/sdk/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../../../tests/support/fuzz.js';
import { setup } from '../helpers.js';

/** The largest error answer, bytes: 100 issues of a few hundred bytes each, and the message. */
const MAX_ERROR_BYTES = 64 * 1024;

const hostileKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'prototype',
  'filters',
  'sort',
  'page',
  'pageSize',
  'searchValue',
  'labels',
);

/**
 * A hostile body, as a small description (so that a failure prints a short counterexample); `textOf`
 * builds the raw JSON text: nested `depth` deep in a named member, a member holding a huge array of
 * small items (e.g. a filter list of 100k values), or an object of hostile keys.
 */
type BodySpec =
  | { kind: 'deep'; depth: number; key: string; objects: boolean }
  | { kind: 'array'; length: number; key: string; item: string }
  | { kind: 'keys'; value: Record<string, unknown> };

const bodySpec: fc.Arbitrary<BodySpec> = fc.oneof(
  fc.record({
    kind: fc.constant('deep' as const),
    depth: fc.oneof(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1_000, max: 120_000 })),
    key: hostileKey,
    objects: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('array' as const),
    length: fc.oneof(fc.integer({ min: 100, max: 2_000 }), fc.integer({ min: 20_000, max: 150_000 })),
    key: hostileKey,
    item: fc.constantFrom('0', '""', '{}', '[]', 'null', '"x"'),
  }),
  fc.record({
    kind: fc.constant('keys' as const),
    value: fc.dictionary(hostileKey, fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  }),
);

function textOf(spec: BodySpec): string {
  if (spec.kind === 'keys') return JSON.stringify(spec.value);
  if (spec.kind === 'array')
    return `{${JSON.stringify(spec.key)}:[${Array(spec.length).fill(spec.item).join(',')}]}`;
  const open = spec.objects ? '{"a":' : '[';
  const close = spec.objects ? '}' : ']';
  return `{${JSON.stringify(spec.key)}:${open.repeat(spec.depth)}1${close.repeat(spec.depth)}}`;
}

const hostileQuery = fc
  .array(fc.tuple(hostileKey, fc.string({ maxLength: 6 })), { maxLength: 4 })
  .map((pairs) => {
    const query = new URLSearchParams();
    for (const [k, v] of pairs) query.append(k, v);
    return query;
  });

/** Control routes the fuzz may call: none that stores a fault, reseeds, limits, or calls out (integrations). */
const CONTROL_TARGETS = [
  'POST /__mock/guardrails/evaluate',
  'POST /__mock/notifications',
  'POST /__mock/clock',
  'POST /__mock/workspaces/{id}/runs',
  'POST /__mock/stacks/{id}/findings',
  'PUT /__mock/state',
  'GET /__mock/journal',
  'GET /__mock/outbox',
] as const;

describe('hostile fuzz (prototype keys, depth, huge arrays)', () => {
  it('never answers 5xx or a large error on any endpoint or safe control route, and stays alive', async () => {
    const ctx = await setup({ sizes: { workspaces: 20, events: 100 } });
    const targets = [...endpointList.map((e) => `${e.method} ${e.path}`), ...CONTROL_TARGETS];
    const request = fc.record({
      target: fc.constantFrom(...targets),
      query: hostileQuery,
      body: bodySpec,
      auth: fc.constantFrom('good', 'none'),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const [method, template] = r.target.split(' ') as [string, string];
        const path = template.replace(/\{\w+\}/g, '0123456789abcdef01234567');
        const res = await ctx.core.handle({
          method,
          path,
          query: r.query,
          headers: {
            'content-type': 'application/json',
            ...(r.auth === 'good' ? { authorization: `Bearer ${ctx.token}` } : {}),
          },
          rawBody: textOf(r.body),
        });
        const shown = `${r.target} ${JSON.stringify(r.body).slice(0, 200)}`;
        if (res.status >= 500) throw new Error(`5xx for ${shown}: ${JSON.stringify(res.body).slice(0, 500)}`);
        if (res.status >= 400) {
          const text = JSON.stringify(res.body);
          if (text.length > MAX_ERROR_BYTES)
            throw new Error(`an error answer of ${text.length} bytes for ${shown}`);
          const parsed = ErrorBody.safeParse(res.body);
          if (!parsed.success) throw new Error(`bad error shape for ${shown}`);
        }
        // A success answer must serialise (a stored deep value would throw here).
        JSON.stringify(res.body);
      }),
      { numRuns: fuzzRuns(600), seed: fuzzSeed(20261123) },
    );
    expect((await ctx.call('GET', '/v2/health')).status).toBe(204);
    expect(async () => JSON.stringify(await ctx.core.control.getState())).not.toThrow();
    expect(() => JSON.stringify(ctx.core.control.journal())).not.toThrow();
  }, 600_000);
});
