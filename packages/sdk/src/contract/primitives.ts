import * as z from 'zod/mini';
import { count, isInstant, isObjectId, isRealInstant, SLOW, withFastPath } from './formats.js';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  MAX_REQUEST_LIST_ITEMS,
  MAX_REQUEST_LIST_VALUES,
  MAX_RULE_VALUE_LENGTH,
} from './limits.js';
import { looseObject, strictObject, withMeta } from './zod.js';

/**
 * Pattern of a record identifier inside a body (spec §2): 24 hexadecimal characters.
 */
export const OBJECT_ID_PATTERN = /^[0-9a-fA-F]{24}$/;

/**
 * Pattern of an identifier in a path parameter (spec §2): a lower-case UUID.
 */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Pattern of a timestamp in the API (spec §2): ISO 8601, UTC (`Z`), exactly millisecond precision.
 */
export const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Pattern of a timestamp in a webhook sample (spec §2.11): ISO 8601, UTC (`Z`), exactly nanosecond precision.
 */
export const NANO_TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/;

/**
 * A record identifier: 24 hexadecimal characters (`<object_id>` in the spec).
 * @example "65a1f0c2e4b0a1b2c3d4e5f6"
 */
export const ObjectId = withFastPath(
  withMeta(
    z.string().check(z.regex(OBJECT_ID_PATTERN, { error: 'expected a 24-character hexadecimal record id' })),
    { description: 'Record id: 24 hexadecimal characters.', examples: ['65a1f0c2e4b0a1b2c3d4e5f6'] },
  ),
  (value) => (isObjectId(value) ? value : SLOW),
);
/** A record identifier: 24 hexadecimal characters. */
export type ObjectId = z.infer<typeof ObjectId>;

/**
 * A lower-case UUID (`<uuid>` in the spec).
 * @example "3f0b9a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b"
 */
export const Uuid = withMeta(
  z.string().check(z.regex(UUID_PATTERN, { error: 'expected a lower-case UUID' })),
  { description: 'Lower-case UUID.', examples: ['3f0b9a4e-2c1d-4e5f-8a9b-0c1d2e3f4a5b'] },
);
/** A lower-case UUID. */
export type Uuid = z.infer<typeof Uuid>;

/**
 * The identifier of a record in a path parameter.
 *
 * The spec gives path parameters as lower-case UUIDs, yet every record id a search returns is
 * 24-hex. Both forms are accepted so that any id a search returns can be used in a path:
 * - the record's own 24-hex id (either case), or
 * - a lower-case UUID; a UUID whose first eight hex digits are zero (`00000000-xxxx-...`) carries a
 *   24-hex id in its remaining 24 digits and addresses that record (see {@link objectIdToUuid}).
 *
 * See `docs/api-semantics.md`, "Identifiers in paths".
 */
export const PathId = withMeta(
  z.string().check(
    z.refine((value) => OBJECT_ID_PATTERN.test(value) || UUID_PATTERN.test(value), {
      error: (issue) =>
        `expected a 24-character hexadecimal record id or a lower-case UUID, received ${describe(issue.input)}`,
    }),
  ),
  {
    description:
      'Record id in a path: the 24-hex id a search returns, or a lower-case UUID (00000000-prefixed UUIDs embed a 24-hex id).',
    examples: ['65a1f0c2e4b0a1b2c3d4e5f6', '00000000-65a1-f0c2-e4b0-a1b2c3d4e5f6'],
  },
);
/** The identifier of a record in a path parameter: 24-hex or lower-case UUID. */
export type PathId = z.infer<typeof PathId>;

/**
 * Turns a 24-hex record id into the UUID form that carries it (`00000000-` followed by the id's 24
 * digits, lower-cased and grouped 4-4-4-12).
 * @throws TypeError when `id` is not a 24-hex id.
 */
export function objectIdToUuid(id: string): string {
  if (!OBJECT_ID_PATTERN.test(id))
    throw new TypeError('objectIdToUuid: expected a 24-character hexadecimal id');
  const hex = `00000000${id.toLowerCase()}`;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Normalises a path id to the 24-hex record id it addresses (lower-case), or `undefined` when it is a
 * UUID that does not carry one (such a UUID is well-formed but names no record) or not an id at all.
 */
export function pathIdToObjectId(id: string): string | undefined {
  if (OBJECT_ID_PATTERN.test(id)) return id.toLowerCase();
  if (UUID_PATTERN.test(id) && id.startsWith('00000000-')) return id.replaceAll('-', '').slice(8);
  return undefined;
}

/**
 * An ISO 8601 UTC timestamp schema of `digits` fractional digits (3 or 9): its pattern, then a real
 * calendar date and time, with the fast path of `formats.ts` for the values it surely accepts.
 */
function instant(pattern: RegExp, digits: 3 | 9, precision: string, example: string) {
  return withFastPath(
    withMeta(
      z
        .string()
        .check(
          z.regex(pattern, {
            error: `expected an ISO 8601 UTC timestamp with ${precision} precision, like ${example}`,
          }),
        )
        .check(z.refine(isRealInstant, { error: 'expected a real calendar date and time' })),
      { description: `ISO 8601 UTC timestamp with ${precision} precision.`, examples: [example] },
    ),
    (value) => (isInstant(value, digits) ? value : SLOW),
  );
}

/**
 * An ISO 8601 UTC timestamp with millisecond precision (`<timestamp>` in the spec).
 * @example "2024-05-01T12:30:00.000Z"
 */
export const Timestamp = instant(TIMESTAMP_PATTERN, 3, 'millisecond', '2024-05-01T12:30:00.000Z');
/** An ISO 8601 UTC timestamp with millisecond precision. */
export type Timestamp = z.infer<typeof Timestamp>;

/**
 * An ISO 8601 UTC timestamp with nanosecond precision, as in webhook samples (spec §2.11).
 * @example "2024-05-01T12:30:00.123456789Z"
 */
export const NanoTimestamp = /* @__PURE__ */ instant(
  NANO_TIMESTAMP_PATTERN,
  9,
  'nanosecond',
  '2024-05-01T12:30:00.123456789Z',
);
/** An ISO 8601 UTC timestamp with nanosecond precision. */
export type NanoTimestamp = z.infer<typeof NanoTimestamp>;

/**
 * Formats a Date (or epoch milliseconds) as the API's `<timestamp>`: ISO 8601 UTC, millisecond precision.
 */
export function toTimestamp(value: Date | number): Timestamp {
  return new Date(value).toISOString();
}

/**
 * A string value whose known values are listed, read tolerantly: any string passes, and the type
 * offers the known values for completion (`"a" | "b" | (string & {})`).
 */
export type OpenEnum<T extends string> = T | (string & {});

/**
 * Builds the tolerant (response) schema of a string enumeration: the known values plus any other
 * string. Its JSON Schema lists the known values.
 */
export function openEnum<const T extends readonly [string, ...string[]]>(
  values: T,
): z.ZodMiniType<OpenEnum<T[number]>, string> {
  // Any string passes (the union's second option), unchanged: the fast path answers for every string.
  return withFastPath(z.union([z.enum(values), z.string()]), (value) =>
    typeof value === 'string' ? value : SLOW,
  ) as unknown as z.ZodMiniType<OpenEnum<T[number]>, string>;
}

/** Describes a value for an error message without echoing long or sensitive content. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return `${typeof value} ${String(value)}`;
  return `an ${typeof value}`;
}

/**
 * A member of the `filters` objects that lists accepted values: an array of strings (any value
 * matches), of at most {@link MAX_REQUEST_LIST_VALUES} values. An empty array adds no constraint, as
 * an absent member (the product's UI sends every member, often as `[]`; `docs/api-semantics.md`).
 */
export function filterValues<T extends z.ZodMiniType<string>>(value: T) {
  return z.array(value).check(z.maxLength(MAX_REQUEST_LIST_VALUES));
}

/** The most digits of a query integer (16: every such number is exact as a JSON number). */
const MAX_QUERY_DIGITS = 16;

/**
 * What is wrong with the text of a query integer, or `undefined` when it is one written as the API
 * writes numbers: decimal digits only, no leading zero, at most {@link MAX_QUERY_DIGITS} digits.
 * `expected` names the rule broken; `message` adds how to fix it. Linear in the text.
 */
function queryIntegerProblem(text: string): { expected: string; message: string } | undefined {
  let digits = text.length > 0;
  for (let i = 0; digits && i < text.length; i++) {
    const c = text.charCodeAt(i);
    digits = c >= 48 && c <= 57;
  }
  if (!digits) {
    return {
      expected: 'a whole number in decimal digits',
      message:
        'expected a whole number in decimal digits, like 0 or 25 (no sign, spaces, decimal point or exponent)',
    };
  }
  let start = 0;
  while (start < text.length - 1 && text[start] === '0') start++;
  const canonical = text.slice(start);
  if (canonical.length > MAX_QUERY_DIGITS) {
    return {
      expected: `a whole number of at most ${MAX_QUERY_DIGITS} digits`,
      message: `expected a whole number of at most ${MAX_QUERY_DIGITS} digits`,
    };
  }
  if (start > 0) {
    return {
      expected: 'a whole number without leading zeros',
      message: `expected a whole number without leading zeros, like ${canonical}`,
    };
  }
  return undefined;
}

/**
 * A non-negative integer query parameter. Query strings carry text, so the decimal text of the
 * number is accepted too, written one way only (`7`, not `07`, `+7`, `7.0` or `7e0`): anything else
 * is refused naming the parameter, the rule and the text that came (`query.page: expected a whole
 * number without leading zeros, like 1, received "01"`).
 */
function queryInteger(min: number, max?: number) {
  const number =
    max === undefined
      ? z.number().check(z.int()).check(z.gte(min))
      : z.number().check(z.int()).check(z.gte(min)).check(z.lte(max));
  return z.union([
    number,
    z.pipe(
      z.pipe(
        z.string().check(
          z.superRefine((text, context) => {
            const problem = queryIntegerProblem(text);
            if (problem)
              context.addIssue({
                code: 'invalid_format',
                format: problem.expected,
                message: problem.message,
                input: text,
              });
          }),
        ),
        z.transform(Number),
      ),
      number,
    ),
  ]);
}

/**
 * Query parameters of the search endpoints (workspace, run and guardrail search): `page` (zero-based,
 * default 0) and `pageSize` (1 to {@link MAX_PAGE_SIZE}, default 25). Unknown parameters are refused.
 */
export const PageQuery = strictObject({
  page: withMeta(z.optional(queryInteger(0)), { description: 'Zero-based page number. Default 0.' }),
  pageSize: withMeta(z.optional(queryInteger(1, MAX_PAGE_SIZE)), {
    description: `Items per page, 1 to ${MAX_PAGE_SIZE}. Default ${DEFAULT_PAGE_SIZE}.`,
  }),
});
/** Query parameters of the search endpoints, as sent. */
export type PageQuery = z.input<typeof PageQuery>;

/** An endpoint that takes no query parameters: any parameter is refused. */
export const NoQuery = strictObject({});

/** Sort order: 1 ascending, -1 descending. */
export const SortOrder = withMeta(z.union([z.literal(1), z.literal(-1)]), {
  description: '1 ascending, -1 descending.',
});
/** Sort order: 1 ascending, -1 descending. */
export type SortOrder = z.infer<typeof SortOrder>;

/** One sort key's direction: `{ order: 1 | -1 }`. */
export const SortDirection = strictObject({ order: SortOrder });

/**
 * The `sort` member of a search body, for the given sortable field names. Both published forms are
 * accepted: an array of `{ field: { order } }` objects (earlier keys sort first), or a single object
 * `{ field: { order }, ... }` (keys in insertion order). Unknown field names are refused, and a field
 * may appear only once.
 */
export function sortSchema<const F extends readonly [string, ...string[]]>(
  fields: F,
): z.ZodMiniType<SortSpec<F[number]>, SortSpec<F[number]>> {
  const names = fields.join(', ');
  const item = z
    .partialRecord(z.enum(fields, { error: `expected a sortable field: ${names}` }), SortDirection)
    .check(
      z.refine((value) => Object.keys(value).length > 0, {
        error: `expected an object naming one of: ${names}`,
      }),
    );
  return withMeta(
    z
      .union([
        z
          .array(item)
          .check(z.minLength(1, { error: 'expected at least one sort key' }))
          .check(z.maxLength(MAX_REQUEST_LIST_ITEMS)),
        item,
      ])
      .check(
        z.superRefine((value, ctx) => {
          const seen = new Set<string>();
          for (const part of Array.isArray(value) ? value : [value]) {
            for (const key of Object.keys(part)) {
              if (seen.has(key))
                ctx.addIssue({ code: 'custom', message: `sort field "${key}" appears twice` });
              seen.add(key);
            }
          }
        }),
      ),
    {
      description: `Sort keys, as an array of { field: { order } } or one object. Fields: ${names}.`,
    },
  ) as unknown as z.ZodMiniType<SortSpec<F[number]>, SortSpec<F[number]>>;
}

/** A sort specification for the given field names, in either published form. */
export type SortSpec<F extends string> =
  | Partial<Record<F, { order: SortOrder }>>
  | Array<Partial<Record<F, { order: SortOrder }>>>;

/**
 * Reads a sort specification (either form) as an ordered list of `[field, order]` pairs.
 */
export function sortKeys<F extends string>(sort: SortSpec<F> | undefined): Array<[F, SortOrder]> {
  if (sort === undefined) return [];
  const parts = Array.isArray(sort) ? sort : [sort];
  const keys: Array<[F, SortOrder]> = [];
  for (const part of parts) {
    for (const [field, direction] of Object.entries(part) as Array<[F, { order: SortOrder } | undefined]>) {
      if (direction) keys.push([field, direction.order]);
    }
  }
  return keys;
}

/**
 * How a schema reads unknown input: `strict` (requests: unknown members and values are refused) or
 * `loose` (responses: unknown members and enum values pass, wrong types of known members fail).
 */
export type Strictness = 'strict' | 'loose';

/** An object schema that is strict or loose according to `mode`. */
export type ModeObject<M extends Strictness, S extends z.core.$ZodLooseShape> = M extends 'strict'
  ? z.ZodMiniObject<S, z.core.$strict>
  : z.ZodMiniObject<S, z.core.$loose>;

/** Builds an object schema that is strict (requests) or loose (responses) according to `mode`. */
export function modeObject<M extends Strictness, const S extends z.core.$ZodLooseShape>(
  mode: M,
  shape: S,
): ModeObject<M, S> {
  return (mode === 'strict' ? strictObject(shape) : looseObject(shape)) as ModeObject<M, S>;
}

/** An enumeration that is closed (requests) or open (responses) according to `mode`. */
export function modeEnum<M extends Strictness, const T extends readonly [string, ...string[]]>(
  mode: M,
  values: T,
): M extends 'strict' ? z.ZodMiniEnum<{ [K in T[number]]: K }> : z.ZodMiniType<OpenEnum<T[number]>, string> {
  return (mode === 'strict' ? z.enum(values) : openEnum(values)) as never;
}

/**
 * A list of strings of a request (`strict`: at most {@link MAX_REQUEST_LIST_VALUES} values of at most
 * {@link MAX_RULE_VALUE_LENGTH} characters) or of an answer (`loose`: any length).
 */
function modeStrings(mode: Strictness): z.ZodMiniArray<z.ZodMiniString> {
  return mode === 'strict'
    ? z
        .array(z.string().check(z.maxLength(MAX_RULE_VALUE_LENGTH)))
        .check(z.maxLength(MAX_REQUEST_LIST_VALUES))
    : z.array(z.string());
}

/** A `{ include, exclude }` pair of string lists, as in guardrail scope and criteria. */
export function includeExclude<M extends Strictness>(mode: M) {
  return modeObject(mode, { include: modeStrings(mode), exclude: modeStrings(mode) });
}
/** A `{ include, exclude }` pair of string lists. */
export interface IncludeExclude {
  /** Values to include; empty means all. */
  include: string[];
  /** Values to exclude; exclusion wins over inclusion. */
  exclude: string[];
}

/** An aggregation bucket (spec §2.6): `{ key, doc_count }`. */
export const AggregationBucket = looseObject({
  key: z.string(),
  doc_count: count(),
});
/** An aggregation bucket: a value and how many records hold it. */
export interface AggregationBucket {
  /** The value. */
  key: string;
  /** How many records hold it. */
  doc_count: number;
}

/** `{ description }`, the wrapper the spec uses for several enumerated members. */
export interface Described<T extends string> {
  /** The value. */
  description: T;
}

/**
 * The answer schema to read an endpoint's answer with, given the body that was sent: for a search
 * whose body named a `projection`, the items hold only the named members plus `id`, so every other
 * member becomes optional; otherwise the endpoint's own response schema. Here, with the schemas
 * every group shares, so that a client that loads an endpoint's schemas on demand reads answers
 * with it without importing every schema (each group's module re-exports it); exported from the
 * contract through `endpoints.ts`.
 */
export function responseSchemaFor(
  definition: { readonly projection: boolean; readonly response: z.ZodMiniType },
  body: unknown,
): z.ZodMiniType {
  const projection = (body as { projection?: unknown } | undefined)?.projection;
  if (!definition.projection || !Array.isArray(projection) || projection.length === 0)
    return definition.response;
  const response = definition.response as unknown as z.ZodMiniArray<z.ZodMiniObject>;
  return z.array(z.required(z.partial(response.def.element), { id: true }));
}
