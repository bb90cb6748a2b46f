import * as z from 'zod';
import * as contract from '../contract/schemas.js';
import type { JsonSchema } from './types.js';

/** Which side of a transform a schema describes: `input` for what a client sends, `output` for answers. */
export type SchemaIo = 'input' | 'output';

/** Where component schemas live in the document. */
export const SCHEMA_REF_PREFIX = '#/components/schemas/';

/** Names of inline (not component) conversions start with this; no contract export does. */
const INLINE_PREFIX = '~inline~';

/** The contract's schema exports by identity, so a component is named like its TypeScript export. */
const exportNames = new Map<unknown, string>();
for (const [name, value] of Object.entries(contract)) {
  if (value instanceof z.core.$ZodType && /^[A-Z]/.test(name) && !exportNames.has(value))
    exportNames.set(value, name);
}

/** The contract export name of a schema, when it is exported. */
export function contractNameOf(schema: z.core.$ZodType): string | undefined {
  return exportNames.get(schema);
}

/**
 * `z.undefined()` (a member that must be absent, like `drifts` on non-drift webhook samples) becomes
 * `not: {}`, so an optional member of that schema must be left out. Anything else zod cannot
 * represent becomes `{}` (any value).
 */
const unrepresentable: z.core.UnrepresentableHandler = ({ zodSchema }) =>
  zodSchema._zod.def.type === 'undefined' ? { not: {} } : 'any';

/**
 * What JSON Schema can say of a contract refinement that zod cannot convert (a `.refine()` is code):
 * a path id is a 24-hex id or a lower-case UUID; labels are unique.
 */
const REFINEMENTS = new Map<unknown, JsonSchema>([
  [
    contract.PathId,
    { anyOf: [{ pattern: contract.OBJECT_ID_PATTERN.source }, { pattern: contract.UUID_PATTERN.source }] },
  ],
  [contract.WorkspaceLabelsBody.shape.labels, { uniqueItems: true }],
]);

/**
 * Adjusts each converted schema:
 * - adds what {@link REFINEMENTS} knows of a refinement;
 * - names the discriminator of a discriminated union (`WebhookPayload`), with the mapping from each
 *   tag value to its member's component, for code generators;
 * - drops the safe-integer bounds zod writes on every `.int()`: JSON numbers are read as doubles
 *   anyway, and the bounds would clutter every integer of the document.
 */
function override({
  zodSchema,
  jsonSchema,
}: {
  zodSchema: z.core.$ZodType;
  jsonSchema: z.core.JSONSchema.BaseSchema;
}): void {
  const refinement = REFINEMENTS.get(zodSchema);
  if (refinement) Object.assign(jsonSchema, structuredClone(refinement));
  const def = zodSchema._zod.def as { discriminator?: unknown; options?: ReadonlyArray<z.core.$ZodType> };
  if (typeof def.discriminator === 'string' && def.options && Array.isArray(jsonSchema.oneOf)) {
    const propertyName = def.discriminator;
    const mapping: Record<string, string> = {};
    def.options.forEach((option, index) => {
      const ref = (jsonSchema.oneOf?.[index] as JsonSchema | undefined)?.$ref;
      const values = option._zod.propValues?.[propertyName];
      if (typeof ref !== 'string' || !values) return;
      for (const value of values) if (typeof value === 'string') mapping[value] = ref;
    });
    jsonSchema.discriminator = Object.keys(mapping).length > 0 ? { propertyName, mapping } : { propertyName };
  }
  if (jsonSchema.type !== 'integer') return;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
}

/** Rewrites every `$ref` of a converted schema tree with `rewrite`. */
function rewriteRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, rewrite));
  if (value === null || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, member] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof member === 'string' ? rewrite(member) : rewriteRefs(member, rewrite);
  }
  return out;
}

function isDeepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Collects the zod schemas a document needs and converts them with `z.toJSONSchema`, one registry
 * per {@link SchemaIo}: a schema registered by name becomes `components.schemas[name]` and is
 * referenced wherever it appears (also inside other registered schemas); an inline schema (the
 * parameter objects) is converted with the same references but kept out of the components.
 *
 * Usage: register everything, {@link SchemaComponents.emit} once, then read with
 * {@link SchemaComponents.ref} and {@link SchemaComponents.inline}.
 */
export class SchemaComponents {
  readonly #registries = {
    input: z.registry<{ id: string }>(),
    output: z.registry<{ id: string }>(),
  };
  #inlineCount = 0;
  #emitted: Record<SchemaIo, Record<string, JsonSchema>> | undefined;
  #schemas: Record<string, JsonSchema> | undefined;

  /**
   * Registers `schema` as the component `name` (by default its contract export name) for the given
   * side. Registering the same schema again is a no-op.
   * @throws Error when the schema has no name, or the name is taken by another schema.
   */
  add(schema: z.core.$ZodType, io: SchemaIo, name = contractNameOf(schema)): void {
    const registry = this.#registries[io];
    if (registry.has(schema)) return;
    if (name === undefined)
      throw new Error('SchemaComponents.add: the schema is not a contract export; name it');
    registry.add(schema, { id: name });
  }

  /** Registers `schema` to be converted without becoming a component (read it with {@link inline}). */
  addInline(schema: z.core.$ZodType, io: SchemaIo): void {
    const registry = this.#registries[io];
    if (!registry.has(schema)) registry.add(schema, { id: `${INLINE_PREFIX}${this.#inlineCount++}` });
  }

  /**
   * Converts every registered schema. Components registered on both sides must convert to the same
   * JSON Schema (true of the primitives, which have no transforms).
   * @throws Error when one name means two different schemas.
   */
  emit(): void {
    const emitted = { input: this.#convert('input'), output: this.#convert('output') };
    const schemas: Record<string, JsonSchema> = {};
    for (const side of [emitted.input, emitted.output]) {
      for (const [name, schema] of Object.entries(side)) {
        if (name.startsWith(INLINE_PREFIX)) continue;
        const existing = schemas[name];
        if (existing !== undefined && !isDeepEqual(existing, schema)) {
          throw new Error(
            `buildOpenApiDocument: component "${name}" differs between requests and answers; give one of them another name`,
          );
        }
        schemas[name] = schema;
      }
    }
    this.#emitted = emitted;
    this.#schemas = schemas;
  }

  /** The component schemas, sorted by name. */
  get schemas(): Record<string, JsonSchema> {
    const schemas = this.#schemas;
    if (!schemas) throw new Error('SchemaComponents: call emit() first');
    return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** The emitted component schema `name`, if there is one. */
  get(name: string): JsonSchema | undefined {
    if (!this.#schemas) throw new Error('SchemaComponents: call emit() first');
    return this.#schemas[name];
  }

  /**
   * Sets the component schema `name` after {@link emit}: a schema the contract has no zod schema
   * for (a projected item), or an emitted one the document describes more precisely.
   */
  set(name: string, schema: JsonSchema): void {
    if (!this.#schemas) throw new Error('SchemaComponents: call emit() first');
    this.#schemas[name] = schema;
  }

  /** A reference to a registered component. */
  ref(schema: z.core.$ZodType, io: SchemaIo): JsonSchema {
    const id = this.#registries[io].get(schema)?.id;
    if (id === undefined || id.startsWith(INLINE_PREFIX))
      throw new Error('SchemaComponents.ref: the schema is not a registered component');
    return { $ref: `${SCHEMA_REF_PREFIX}${id}` };
  }

  /** The converted JSON Schema of a schema registered with {@link addInline}. */
  inline(schema: z.core.$ZodType, io: SchemaIo): JsonSchema {
    const id = this.#registries[io].get(schema)?.id;
    const converted = id === undefined ? undefined : this.#emitted?.[io][id];
    if (converted === undefined)
      throw new Error('SchemaComponents.inline: the schema was not registered or emitted');
    return converted;
  }

  /** The component a `$ref` of this document points at, if it is a component schema. */
  resolve(ref: unknown): JsonSchema | undefined {
    if (typeof ref !== 'string' || !ref.startsWith(SCHEMA_REF_PREFIX)) return undefined;
    return this.#schemas?.[ref.slice(SCHEMA_REF_PREFIX.length)];
  }

  #convert(io: SchemaIo): Record<string, JsonSchema> {
    const { schemas } = z.toJSONSchema(this.#registries[io], {
      target: 'draft-2020-12',
      io,
      unrepresentable,
      override,
      uri: (id) => `${SCHEMA_REF_PREFIX}${id}`,
    });
    // Subschemas zod extracts on its own (an `id` in `.meta()`, a cycle) land in `__shared.$defs`:
    // they become components too, and references to them point there.
    const sharedPrefix = `${SCHEMA_REF_PREFIX}__shared#/$defs/`;
    const rewrite = (ref: string) =>
      ref.startsWith(sharedPrefix) ? `${SCHEMA_REF_PREFIX}${ref.slice(sharedPrefix.length)}` : ref;
    const out: Record<string, JsonSchema> = {};
    const put = (name: string, schema: unknown) => {
      const { $schema: _dialect, $id: _id, ...rest } = rewriteRefs(schema, rewrite) as JsonSchema;
      if (name in out) throw new Error(`buildOpenApiDocument: two schemas are named "${name}"`);
      out[name] = rest;
    };
    for (const [name, schema] of Object.entries(schemas)) {
      if (name === '__shared') {
        const defs = (schema as { $defs?: Record<string, unknown> }).$defs ?? {};
        for (const [defName, def] of Object.entries(defs)) put(defName, def);
      } else put(name, schema);
    }
    return out;
  }
}
