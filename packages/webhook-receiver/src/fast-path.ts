/**
 * The fast path of delivery validation. Once a notification type has been verified twice, its schema
 * is compiled (`compiled.ts`, in a timer after the delivery: about 4 ms once per type and process)
 * and every later delivery of that type is checked by zod's `validate` with the compiled schema: one
 * generated function instead of zod's general machinery and the part-by-part walk of `schema.ts`. A
 * delivery the compiled schema refuses (zod stops at its first issue) goes through the walk, which
 * lists the issues as before. Where code generation is not allowed (zod's `jitless` setting,
 * Cloudflare Workers, a strict Content-Security-Policy) every delivery takes the walk. A process that
 * verifies a single delivery of a type (a serverless function's) never compiles it.
 *
 * @module
 */

import type * as z from 'zod/mini';
import { validate } from 'zod/mini';
import { compileSchema } from './compiled.js';

/** The compiled schema of each notification type compiled so far (at most one per known type). */
const compiledByType = new Map<string, z.ZodMiniType>();

/**
 * How many deliveries of each type verified by the walk (the callers pass known types only: at most
 * one entry per type). A type is compiled on its second: a process that verifies one delivery (a
 * serverless function's) never pays for the compiler.
 */
const verified = new Map<string, number>();

/** The deliveries of a type verified before its schema is compiled. */
export const COMPILE_AFTER = 2;

/** Compilations under way. */
const pending = new Set<Promise<void>>();

/**
 * Whether `value` is a valid delivery of `type` by the compiled schema; `false` when the type has no
 * compiled schema yet, or when the value breaks it (the caller then walks it to list the issues).
 * @param type the delivery's `notificationType`, a known one.
 * @param value the parsed JSON body.
 */
export function passesCompiled(type: string, value: unknown): boolean {
  const compiled = compiledByType.get(type);
  return compiled !== undefined && validate(compiled, value);
}

/**
 * Counts a delivery of `type` verified by the walk; on the {@link COMPILE_AFTER}th, compiles the
 * schema of `type`, once, in a timer (unref'd on Node), so that neither the delivery being answered
 * nor the process's exit waits for it. A refusal (code generation not allowed) keeps the walk.
 * @param type a known notification type.
 * @param schema its schema.
 */
export function compileLater(type: string, schema: z.ZodMiniType): void {
  const count = (verified.get(type) ?? 0) + 1;
  if (count > COMPILE_AFTER) return;
  verified.set(type, count);
  if (count < COMPILE_AFTER) return;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      try {
        const compiled = compileSchema(schema);
        if (compiled !== undefined) compiledByType.set(type, compiled);
      } finally {
        pending.delete(done);
        resolve();
      }
    }, 0) as { unref?: () => void };
    timer.unref?.();
  });
  pending.add(done);
}

/**
 * Resolves once every compilation asked for so far has ended (tests use it to reach the fast path).
 * @internal
 */
export async function compilationsSettled(): Promise<void> {
  await Promise.all([...pending]);
}

/**
 * Forgets the compiled schemas and the requests, as in a new process (tests).
 * @internal
 */
export function forgetCompiled(): void {
  compiledByType.clear();
  verified.clear();
}
