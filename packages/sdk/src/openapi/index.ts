/**
 * `@iacm/sdk/openapi`: the OpenAPI 3.1 document of the IaC management service API, generated from
 * the zod contract and its endpoint table, so the document cannot drift from what the SDK sends and
 * the mock answers.
 *
 * @example
 * import { buildOpenApiDocument } from '@iacm/sdk/openapi';
 * const document = buildOpenApiDocument({ serverUrl: 'https://iac.example.com' });
 *
 * @packageDocumentation
 */
export {
  type BuildOpenApiDocumentOptions,
  buildOpenApiDocument,
  DEFAULT_SERVER_URL,
  OPENAPI_DOCUMENT_VERSION,
  OPENAPI_TITLE,
} from './document.js';
export type {
  JsonSchema,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiMediaType,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiReference,
  OpenApiRequestBody,
  OpenApiResponse,
  OpenApiSecurityScheme,
  OpenApiServer,
  OpenApiTag,
} from './types.js';
