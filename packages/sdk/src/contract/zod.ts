/**
 * The zod the contract is written with: `zod/mini` (its functional API keeps the client's bundle
 * small: see docs/compatibility.md, "zod/mini"), with three things of classic zod that the contract
 * keeps:
 *
 * - **Compiled objects.** zod/mini's objects check their members one by one, interpreted; classic
 *   zod's compile a fast path for each shape (`$ZodObjectJIT`), which parsed a page of 25 workspaces
 *   in about 95 µs against 155 µs. `looseObject` and `strictObject` here make objects
 *   that compile theirs (where `eval` is not allowed, zod falls back to the interpreted check by
 *   itself), still of the class `ZodMiniObject` (`instanceof` holds), so every other function of
 *   zod/mini takes them.
 * - **English messages.** zod/mini loads no locale: without one, every issue zod writes says only
 *   "Invalid input". Classic zod installs English when it is imported; the contract does the same,
 *   unless the app has configured a locale already (before importing us).
 * - **Metadata.** {@link withMeta} does what classic zod's `.meta()` does.
 *
 * Internal: the contract's modules import zod/mini as `z` and these from here (not `export *` of
 * zod/mini from here, which would make bundlers keep all of zod/mini, its locales included);
 * nothing here is exported from a package's entry.
 *
 * @module
 */
import { en } from 'zod/locales';
import * as mini from 'zod/mini';
import * as core from 'zod/v4/core';

if (!mini.config().localeError) mini.config(en());

/** The two initialisers of a compiled object (typed as plain functions: they are assertions in zod's types). */
type Init = (inst: unknown, def: unknown) => void;
const initCompiled = core.$ZodObjectJIT.init as unknown as Init;
const initMini = mini.ZodMiniType.init as unknown as Init;

/**
 * An object schema that compiles its fast path (classic zod's `$ZodObjectJIT`), of the class
 * zod/mini's objects are (`ZodMiniObject`): what {@link looseObject} and {@link strictObject} make.
 * Written without zod's `util` namespace (`normalizeParams`, `installLazyProp`), which a bundler
 * would keep whole: 3.5 kB min+gzip.
 */
const CompiledObject: core.$constructor<mini.ZodMiniObject> = /*@__PURE__*/ core.$constructor(
  'ZodMiniObject',
  (inst, def) => {
    initCompiled(inst, def);
    initMini(inst, def);
    Object.defineProperty(inst, 'shape', {
      get: () => inst._zod.def.shape,
      enumerable: false,
      configurable: true,
    });
  },
);

/** zod/mini's `looseObject`, compiled: unknown members are kept. */
export const looseObject = /*@__NO_SIDE_EFFECTS__*/ <T extends core.$ZodLooseShape>(
  shape: T,
): mini.ZodMiniObject<core.util.Writeable<T>, core.$loose> =>
  new CompiledObject({ type: 'object', shape, catchall: mini.unknown() }) as never;

/** zod/mini's `strictObject`, compiled: unknown members are refused. */
export const strictObject = /*@__NO_SIDE_EFFECTS__*/ <T extends core.$ZodLooseShape>(
  shape: T,
): mini.ZodMiniObject<core.util.Writeable<T>, core.$strict> =>
  new CompiledObject({ type: 'object', shape, catchall: mini.never() }) as never;

/**
 * A copy of `schema` with `metadata` (a description, examples) in zod's global registry, which
 * `z.toJSONSchema` reads: what classic zod's `.meta()` does (a clone whose parent is `schema`, so
 * that `schema` keeps its own metadata).
 */
export function withMeta<T extends mini.ZodMiniType>(schema: T, metadata: core.GlobalMeta): T {
  const copy = schema.clone();
  mini.globalRegistry.add(copy, metadata);
  return copy;
}
