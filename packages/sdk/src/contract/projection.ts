/**
 * The answer schema of a search that named a `projection`: apart from the endpoint table (and its
 * schemas), so that a client that loads an endpoint's schemas on demand reads answers with it
 * without importing every schema. Exported from the contract through `endpoints.ts`.
 *
 * @module
 */
import * as z from 'zod/mini';

/**
 * The answer schema to read an endpoint's answer with, given the body that was sent: for a search
 * whose body named a `projection`, the items hold only the named members plus `id`, so every other
 * member becomes optional; otherwise the endpoint's own response schema.
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
