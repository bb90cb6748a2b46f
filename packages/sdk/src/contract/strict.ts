import * as z from 'zod/mini';
import { type EndpointName, type Endpoints, endpoints } from './endpoints.js';
import { GUARDRAIL_SEVERITIES } from './enums.js';
import { GuardrailRule } from './guardrails.js';

/**
 * How many schemas deep {@link strictSchema} follows one path before it gives up with a `RangeError`
 * (the contract nests about 12; only a runaway or self-referencing schema gets near).
 */
export const STRICT_SCHEMA_MAX_DEPTH = 64;

/** A string type that is exactly `string & {}`, the catch-all member of an {@link OpenEnum}. */
type IsCatchAll<T> =
  (<G>() => G extends T ? 1 : 2) extends <G>() => G extends string & {} ? 1 : 2 ? true : false;
/** An output type without the catch-all `string & {}` of its open enumerations. */
type Closed<T> = T extends unknown ? (IsCatchAll<T> extends true ? never : T) : never;

/**
 * The type of the schema {@link strictSchema} derives from `S`: the same schema classes, with every
 * object `$strict` and every open enumeration (typed `"a" | "b" | (string & {})`) closed to its
 * documented values (`"a" | "b"`). `undefined` stays `undefined`, so that an endpoint's absent body
 * maps to an absent body.
 */
export type StrictSchema<S> = S extends undefined
  ? S
  : S extends z.ZodMiniObject<infer Shape>
    ? z.ZodMiniObject<{ -readonly [K in keyof Shape]: StrictSchema<Shape[K]> }, z.core.$strict>
    : S extends z.ZodMiniOptional<infer T>
      ? z.ZodMiniOptional<StrictSchema<T>>
      : S extends z.ZodMiniNullable<infer T>
        ? z.ZodMiniNullable<StrictSchema<T>>
        : S extends z.ZodMiniDefault<infer T>
          ? z.ZodMiniDefault<StrictSchema<T>>
          : S extends z.ZodMiniArray<infer T>
            ? z.ZodMiniArray<StrictSchema<T>>
            : S extends z.ZodMiniRecord<infer K, infer V>
              ? z.ZodMiniRecord<K, StrictSchema<V>>
              : S extends z.ZodMiniDiscriminatedUnion<infer O, infer D>
                ? z.ZodMiniDiscriminatedUnion<{ [I in keyof O]: StrictSchema<O[I]> }, D>
                : S extends z.ZodMiniUnion<infer O>
                  ? z.ZodMiniUnion<{ [I in keyof O]: StrictSchema<O[I]> }>
                  : S extends z.ZodMiniPipe<infer A, infer B>
                    ? z.ZodMiniPipe<StrictSchema<A>, StrictSchema<B>>
                    : S extends z.ZodMiniLazy<infer T>
                      ? z.ZodMiniLazy<StrictSchema<T>>
                      : S extends z.ZodMiniType<infer O, infer I>
                        ? [O] extends [Closed<O>]
                          ? S
                          : z.ZodMiniType<Closed<O>, I>
                        : S;

/** Strict schemas derived so far, keyed by the schema they were derived from (created on first use). */
let derived: WeakMap<z.core.$ZodType, z.core.$ZodType> | undefined;

/**
 * Derives, from a contract schema, its strict form, for checking your own fixtures (test data, mock
 * scenes, one-off answers) against the documented contract.
 *
 * The contract reads answers tolerantly, so that an answer from a newer service does not break an
 * older client: unknown members and unknown enumeration values pass. A fixture is not an answer from
 * a newer service, so the same tolerance only hides typos. The strict form differs in two ways only:
 * - every object refuses members it does not list, naming them (`Unrecognized key: "lastRunStatu"`);
 * - every open enumeration accepts only its documented values, listing them (`expected one of
 *   "github-actions"|...`); a guardrail rule's `severity` only 1, 2 or 3 (its type stays `number`).
 *
 * Everything else is the open schema's own: types, formats, refinements, defaults, transforms (not
 * its `.meta()` descriptions). The derivation goes through objects, arrays, optionals, nullables,
 * defaults, unions, records, intersections, pipes and `z.lazy` (recursive schemas included), at most
 * {@link STRICT_SCHEMA_MAX_DEPTH} deep. It is memoized per schema: the same schema gives the same
 * strict schema, and a schema that is already strict (a request body) is returned as it is. Record
 * values typed `unknown` (a backend's configuration) stay open: the contract says nothing of them.
 *
 * Schemas of a whole endpoint: {@link strictEndpointSchemas}. See `docs/api-semantics.md`, "Strict
 * schemas for your fixtures".
 * @example strictSchema(WorkspaceSummary).parse(fixture) // throws on `lastRunStatu` or 'github-action'
 * @throws RangeError when the schema nests deeper than {@link STRICT_SCHEMA_MAX_DEPTH}.
 */
export function strictSchema<S extends z.core.$ZodType | undefined>(schema: S): StrictSchema<S> {
  return (schema && derive(schema, 0)) as StrictSchema<S>;
}

function derive(schema: z.core.$ZodType, depth: number): z.core.$ZodType {
  derived ??= new WeakMap([[GuardrailRule.shape.severity, z.literal(Object.values(GUARDRAIL_SEVERITIES))]]);
  let strict = derived.get(schema);
  if (strict) return strict;
  if (depth >= STRICT_SCHEMA_MAX_DEPTH)
    throw new RangeError(`strictSchema: nested deeper than ${STRICT_SCHEMA_MAX_DEPTH} levels`);
  strict = close(schema, (inner) => derive(inner, depth + 1));
  derived.set(schema, strict);
  return strict;
}

/** A schema's definition, read generically (the members each kind of schema has). */
type AnyDef = Record<string, unknown> & { type: string; checks?: unknown[] };

/** The strict form of one schema, `sub` deriving the schemas inside it. */
function close(schema: z.core.$ZodType, sub: (inner: z.core.$ZodType) => z.core.$ZodType): z.core.$ZodType {
  const def = schema._zod.def as unknown as AnyDef;
  const kind = (inner: z.core.$ZodType) => inner._zod.def.type;
  const changes: Record<string, unknown> = {};
  // The members that hold schemas, the refinements aside: an object's shape, an optional's inner, an
  // array's element, a record's key and value, a union's options, a pipe's ends, a tuple's items...
  const { checks, ...members } = def;
  if (def.type === 'object') {
    const catchall = def.catchall as z.core.$ZodType | undefined;
    members.catchall = !catchall || kind(catchall) === 'unknown' ? z.never() : catchall;
  }
  if (def.type === 'union') {
    // An open enumeration is `z.union([z.enum(values), z.string()])`: without the plain string.
    const all = def.options as z.core.$ZodType[];
    const enums = all.some((inner) => /^(enum|literal)$/.test(kind(inner)));
    const options = all.filter(
      (inner) => !(enums && kind(inner) === 'string' && !inner._zod.def.checks?.length),
    );
    if (options.length < all.length) {
      if (options.length === 1 && !checks?.length) return sub(options[0] as z.core.$ZodType);
      members.options = options;
    }
  }
  if (def.type === 'lazy') {
    const getter = def.getter as () => z.core.$ZodType;
    changes.getter = () => sub(getter());
  }
  for (const [key, value] of Object.entries(members)) {
    // One schema, or a list or a record of them (a shape).
    const single = (value as z.core.$ZodType | undefined)?._zod !== undefined;
    const many = (single ? { value } : value) as Record<string, z.core.$ZodType>;
    if (!many || typeof many !== 'object') continue;
    const entries = Object.entries(many);
    if (entries.length === 0 || !entries.every(([, inner]) => inner?._zod)) continue;
    const next = Object.fromEntries(entries.map(([name, inner]) => [name, sub(inner)]));
    if (value !== def[key] || entries.some(([name, inner]) => next[name] !== inner))
      changes[key] = single ? next.value : Array.isArray(value) ? Object.values(next) : next;
  }
  // Copied as descriptors, so that the definition's getters stay getters (a default is made afresh
  // on each parse). Named imports only: `z.core` would pull all of zod into a bundle.
  const descriptors = Object.getOwnPropertyDescriptors;
  return Object.keys(changes).length === 0
    ? schema
    : z.clone(
        schema,
        Object.defineProperties({}, { ...descriptors(def), ...descriptors(changes) }) as z.core.$ZodTypeDef,
      );
}

/**
 * The strict schemas of one endpoint (see {@link strictSchema}): its path parameters, query, body
 * (each `undefined` where the endpoint has none) and success answer.
 */
export type StrictEndpointSchemas<N extends EndpointName> = {
  readonly [K in 'params' | 'query' | 'body' | 'response']: StrictSchema<Endpoints[N][K]>;
};

/**
 * The strict schemas of an endpoint of the table, by name: what a fixture of its body or of its
 * answer must satisfy. Derived from the endpoint's own schemas by {@link strictSchema} (the request
 * schemas are already strict, except the IaC explorer bodies, which the service lets take extra
 * members). Error answers: `strictSchema(ErrorBody)`. Takes the names of the table only (another
 * name fails with a `TypeError`).
 * @example strictEndpointSchemas('workspaces.search').response.parse([fixture])
 */
export function strictEndpointSchemas<N extends EndpointName>(name: N): StrictEndpointSchemas<N> {
  const definition = endpoints[name];
  return Object.fromEntries(
    (['params', 'query', 'body', 'response'] as const).map((key) => [key, strictSchema(definition[key])]),
  ) as StrictEndpointSchemas<N>;
}
