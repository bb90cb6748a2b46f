/**
 * The compiled fast path (src/fast-path.ts): after a type's first verified delivery its schema is
 * compiled in the background, and later deliveries of that type are checked by the compiled schema.
 * Both paths must give the same verdict, the same payload and the same issues.
 */
import {
  createWebhookReceiver,
  DriftNotification,
  GhostResourceNotification,
  generateNotification,
  InsightDetectedNotification,
  UnmanagedResourceNotification,
  WEBHOOK_KINDS,
  type WebhookNotification,
} from '@iacm/webhook-receiver';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { fuzzRuns, fuzzSeed } from '../../../tests/support/fuzz.js';
import { compileSchema } from '../src/compiled.js';
import { COMPILE_AFTER, compilationsSettled, forgetCompiled, passesCompiled } from '../src/fast-path.js';
import { type NotificationType, parseDelivery } from '../src/schema.js';
import { replaced } from './helpers.js';

const TYPES = WEBHOOK_KINDS.filter((kind): kind is NotificationType => kind !== 'test');

/** Verifies valid deliveries of every type until they compile, then waits for their compilations. */
async function compileAll(): Promise<void> {
  for (let i = 0; i < COMPILE_AFTER; i++) {
    for (const type of TYPES) expect(parseDelivery(generateNotification(type)).ok).toBe(true);
  }
  await compilationsSettled();
}

/** parseDelivery by the walk alone (as in a new process), then by the compiled path. */
async function bothPaths(value: unknown): Promise<{ walked: unknown; compiled: unknown }> {
  forgetCompiled();
  const walked = parseDelivery(value);
  await compileAll();
  return { walked, compiled: parseDelivery(value) };
}

beforeEach(() => forgetCompiled());
afterEach(() => {
  z.config({ jitless: false });
  forgetCompiled();
});

describe('the compiled fast path', () => {
  it("is taken once a type's second delivery verified and its compilation ended, not before", async () => {
    const value = generateNotification('Drift');
    expect(COMPILE_AFTER).toBe(2);
    expect(passesCompiled('Drift', value)).toBe(false);
    expect(parseDelivery(value).ok).toBe(true);
    await compilationsSettled();
    // One delivery (a serverless function's whole life) compiles nothing.
    expect(passesCompiled('Drift', value)).toBe(false);
    expect(parseDelivery(value).ok).toBe(true);
    expect(passesCompiled('Drift', value)).toBe(false);
    await compilationsSettled();
    expect(passesCompiled('Drift', value)).toBe(true);
    // Only the verified type was compiled.
    expect(passesCompiled('GhostResource', generateNotification('GhostResource'))).toBe(false);
  });

  it('gives the parsed body itself as the payload, by either path, with unknown members kept', async () => {
    for (const type of TYPES) {
      const value = JSON.parse(
        JSON.stringify({
          ...generateNotification(type),
          extra: { nested: [1, 'two', null] },
        }),
      ) as Record<string, unknown>;
      (value.samples as Array<Record<string, unknown>>)[0] = {
        ...(value.samples as Array<Record<string, unknown>>)[0],
        futureMember: true,
      };
      const { walked, compiled } = await bothPaths(value);
      expect(walked).toEqual({ ok: true, notification: { kind: type, payload: value } });
      expect(compiled).toEqual(walked);
      expect((walked as { notification: WebhookNotification }).notification.payload).toBe(value);
      expect((compiled as { notification: WebhookNotification }).notification.payload).toBe(value);
    }
  });

  it('lists the same issues as the walk for a delivery the compiled schema refuses', async () => {
    const drift = generateNotification('Drift');
    const manyBad = { ...drift, samples: Array.from({ length: 150 }, () => ({ name: 7 })) };
    const cases = [
      replaced(drift, ['samples', 1, 'firstSeen'], '2024-02-30T12:30:00.123456789Z'),
      replaced(drift, ['samples', 0, 'drifts', 1, 'keyName'], 7),
      replaced(drift, ['accountId'], null),
      replaced(drift, ['samples'], 'none'),
      replaced(generateNotification('GhostResource'), ['samples', 0, 'drifts'], []),
      manyBad,
    ];
    for (const value of cases) {
      const { walked, compiled } = await bothPaths(value);
      expect((walked as { ok: boolean }).ok).toBe(false);
      expect(compiled).toEqual(walked);
    }
    // The cap still holds on the compiled path: zod is never given the long bad array whole.
    const { compiled } = await bothPaths(manyBad);
    expect(compiled).toMatchObject({ ok: false, stopped: true });
    expect((compiled as { issues: unknown[] }).issues).toHaveLength(100);
  });

  it('agrees with the walk on every mutated delivery (fuzz)', async () => {
    const leafPaths = (value: unknown, at: (string | number)[] = []): (string | number)[][] =>
      value !== null && typeof value === 'object'
        ? Object.entries(value).flatMap(([key, inner]) =>
            leafPaths(inner, [...at, Array.isArray(value) ? Number(key) : key]),
          )
        : [at];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TYPES),
        fc.nat(),
        fc.oneof(fc.jsonValue(), fc.constantFrom('2024-05-01T12:30:00.123456789Z', 'Terraform', '')),
        async (type, pick, by) => {
          const value = generateNotification(type);
          const paths = leafPaths(value);
          const mutated = replaced(value, paths[pick % paths.length] ?? [], by);
          const { walked, compiled } = await bothPaths(mutated);
          expect(passesCompiled(type, mutated)).toBe((walked as { ok: boolean }).ok);
          expect(compiled).toEqual(walked);
        },
      ),
      { numRuns: fuzzRuns(200), seed: fuzzSeed(2511) },
    );
  });

  it('keeps own members named like prototype members as plain data', async () => {
    await compileAll();
    const notifications: WebhookNotification[] = [];
    const receiver = createWebhookReceiver({ credentials: 'none' }).onAny((n) => {
      notifications.push(n);
    });
    const body = JSON.stringify(generateNotification('Drift')).replace(
      '"samples":[{',
      '"samples":[{"__proto__":{"polluted":true},"constructor":[1],',
    );
    const answer = await receiver.handle({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(answer.status).toBe(200);
    expect(passesCompiled('Drift', JSON.parse(body))).toBe(true);
    expect(notifications).toHaveLength(1);
    const payload = notifications[0]?.payload as unknown as { samples: Array<Record<string, unknown>> };
    const sample = payload.samples[0];
    expect(Object.hasOwn(sample ?? {}, '__proto__')).toBe(true);
    expect(sample?.constructor).toEqual([1]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("is not compiled when zod's jitless setting is on (the walk stays)", async () => {
    z.config({ jitless: true });
    expect(compileSchema(DriftNotification)).toBeUndefined();
    await compileAll();
    expect(passesCompiled('Drift', generateNotification('Drift'))).toBe(false);
  });
});

describe('the notification schemas', () => {
  /** Every schema type under `schema` (zod/mini definitions), each visited once. */
  function schemaTypes(schema: unknown, seen = new Set<unknown>()): Set<string> {
    const types = new Set<string>();
    const visit = (node: unknown) => {
      if (node === null || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const def = (node as { _zod?: { def?: Record<string, unknown> } })._zod?.def;
      if (def === undefined) return;
      types.add(String(def.type));
      for (const key of [
        'element',
        'innerType',
        'in',
        'out',
        'catchall',
        'left',
        'right',
        'keyType',
        'valueType',
        'rest',
      ]) {
        visit(def[key]);
      }
      for (const child of Object.values((def.shape as Record<string, unknown> | undefined) ?? {}))
        visit(child);
      for (const child of (def.options as unknown[] | undefined) ?? []) visit(child);
      for (const child of (def.items as unknown[] | undefined) ?? []) visit(child);
    };
    visit(schema);
    return types;
  }

  it('transform nothing, so that a valid body is its own parse (the payload is not copied)', () => {
    const changing = ['transform', 'pipe', 'default', 'prefault', 'catch', 'readonly', 'codec', 'success'];
    for (const schema of [
      DriftNotification,
      UnmanagedResourceNotification,
      GhostResourceNotification,
      InsightDetectedNotification,
    ]) {
      const types = schemaTypes(schema);
      expect(types.has('object')).toBe(true);
      expect([...types].filter((type) => changing.includes(type))).toEqual([]);
    }
  });
});
