/**
 * The receiver checks deliveries with schemas compiled by zod (`z.compile`, issue 25): a compiled
 * schema must accept, refuse and report exactly as the plain one, for valid deliveries and for every
 * member of them broken in each way a sender could break it.
 */
import {
  DriftNotification,
  GhostResourceNotification,
  InsightDetectedNotification,
  UnmanagedResourceNotification,
  WebhookDrift,
  WebhookDriftSample,
  WebhookSample,
  WebhookTestDelivery,
} from '@iacm/sdk/contract';
import { generateNotification } from '@iacm/webhook-receiver';
import { describe, expect, it } from 'vitest';
import { compile, type ZodMiniType } from 'zod/mini';
import { parseDelivery } from '../src/schema.js';

/** What a member can be replaced with: other types, an empty value, a bad timestamp, a bad enum. */
const REPLACEMENTS: unknown[] = [
  null,
  7,
  true,
  'x',
  '',
  [],
  {},
  [{}],
  '2024-02-30T12:30:00.123456789Z',
  '2024-05-01T12:30:00.123Z',
  'pulumi',
];

/** The value with the member at `path` replaced (or removed, for `undefined`). */
function replaced(value: unknown, path: readonly (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  if (rest.length === 0 && by === undefined) delete copy[head];
  else copy[head] = replaced(copy[head], rest, by);
  return copy;
}

/** The paths of every member and item of `value` (the value itself included). */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      out.push(...paths(member, [...prefix, Array.isArray(value) ? Number(key) : key]));
    }
  }
  return out;
}

/** Every way of breaking one member of `valid`: removed, or replaced by each of {@link REPLACEMENTS}. */
function broken(valid: unknown): unknown[] {
  return paths(valid).flatMap((path) => [undefined, ...REPLACEMENTS].map((by) => replaced(valid, path, by)));
}

function expectSameAnswers(schema: ZodMiniType, inputs: unknown[]): void {
  const compiled = compile(schema, { strict: true });
  let refused = 0;
  for (const input of inputs) {
    const got = compiled.safeParse(input);
    const want = schema.safeParse(input);
    expect(got.success).toBe(want.success);
    if (got.success && want.success) expect(got.data).toStrictEqual(want.data);
    else {
      refused++;
      expect(got.error?.issues).toStrictEqual(want.error?.issues);
    }
  }
  // The inputs did exercise the fallback to zod's own parser.
  expect(refused).toBeGreaterThan(inputs.length / 2);
}

describe('the compiled schemas of the receiver', () => {
  const drift = generateNotification('Drift');
  const driftSample = drift.samples[0];
  const unmanaged = generateNotification('UnmanagedResource');

  it('answer as the plain schemas for each notification type, every member broken each way', () => {
    expectSameAnswers(DriftNotification, [drift, ...broken(drift)]);
    for (const [kind, schema] of [
      ['UnmanagedResource', UnmanagedResourceNotification],
      ['GhostResource', GhostResourceNotification],
      ['InsightDetected', InsightDetectedNotification],
    ] as const) {
      const valid = generateNotification(kind);
      expectSameAnswers(schema, [valid, ...broken(valid)]);
    }
  });

  it('answer as the plain schemas for samples, drifts and the test delivery', () => {
    expectSameAnswers(WebhookDriftSample, [driftSample, ...broken(driftSample)]);
    expectSameAnswers(WebhookDrift, [driftSample?.drifts[0], ...broken(driftSample?.drifts[0])]);
    expectSameAnswers(WebhookSample, [unmanaged.samples[0], ...broken(unmanaged.samples[0])]);
    const test = generateNotification('test');
    expectSameAnswers(WebhookTestDelivery, [test, ...broken(test)]);
  });

  it('report a broken delivery with the messages a sender sees', () => {
    const bad = replaced(drift, ['samples', 1, 'firstSeen'], '2024-02-30T12:30:00.123456789Z');
    const worse = replaced(bad, ['samples', 0, 'drifts', 1, 'keyName'], 7);
    expect(parseDelivery(worse)).toEqual({
      ok: false,
      stopped: false,
      issues: [
        expect.objectContaining({
          path: 'samples[0].drifts[1].keyName',
          message: 'samples[0].drifts[1].keyName: expected string, received number 7',
        }),
        expect.objectContaining({
          path: 'samples[1].firstSeen',
          message:
            'samples[1].firstSeen: expected a real calendar date and time, received "2024-02-30T12:30:00.123456789Z"',
        }),
      ],
    });
  });
});
