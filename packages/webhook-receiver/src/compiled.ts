/**
 * Compiled validators of the notification schemas: zod's `compile` generates one function per schema
 * (with `new Function`) that checks a value without zod's general machinery. The fast path
 * (`fast-path.ts`) compiles a type's schema after its second verified delivery. zod's compiler is
 * part of the receiver's bundle (about 10 kB min+gzip): zod's index re-exports it, so a bundler that
 * splits code keeps it with the rest of zod even when only a lazily imported module uses it.
 *
 * @module
 */

import * as z from 'zod/mini';

/**
 * The schema compiled, or `undefined` when it cannot be: zod's `jitless` setting is on
 * (`z.config({ jitless: true })`), the runtime forbids code generation, or the schema holds something
 * the compiler does not model. Callers then keep the interpreted schema.
 * @param schema a notification schema.
 */
export function compileSchema(schema: z.ZodMiniType): z.ZodMiniType | undefined {
  if (z.config().jitless === true) return undefined;
  let compiled = COMPILED.get(schema);
  if (compiled === undefined) {
    try {
      compiled = z.compile(schema, { strict: true });
    } catch {
      return undefined;
    }
    COMPILED.set(schema, compiled);
  }
  return compiled;
}

/** Each schema compiled once per process (the notification schemas: four entries). */
const COMPILED = new WeakMap<z.ZodMiniType, z.ZodMiniType>();
