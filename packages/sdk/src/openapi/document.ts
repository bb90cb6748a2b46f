import type * as z from 'zod';
import {
  AggregationBucket,
  API_ERRORS,
  Backend,
  DriftNotification,
  type EndpointDefinition,
  ErrorBody,
  type ErrorCode,
  Event,
  EventAttribute,
  EventFilter,
  endpointErrorStatuses,
  endpointList,
  FacetRequest,
  FacetResult,
  FieldIssue,
  GhostResourceNotification,
  GuardrailFilters,
  GuardrailRule,
  IacStack,
  InsightDetectedNotification,
  MAX_EVENT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  Module,
  ModuleScreenFilters,
  NanoTimestamp,
  ObjectId,
  OwnerSummary,
  PathId,
  ProviderCount,
  Repository,
  RunFilters,
  RunTask,
  ScreenFilters,
  SERVICE_RATE_LIMIT,
  StackProvider,
  Timestamp,
  UnmanagedResourceNotification,
  Uuid,
  WEBHOOK_DELIVERY_RETRIES,
  type WebhookDeliveryRetries,
  WebhookDrift,
  WebhookDriftSample,
  WebhookOwnerData,
  WebhookPayload,
  WebhookSample,
  WebhookTestDelivery,
  WorkspaceBackendSummary,
  WorkspaceFilters,
  WorkspaceRun,
  WorkspaceSummary,
} from '../contract/schemas.js';
import { contractNameOf, SCHEMA_REF_PREFIX, SchemaComponents } from './schemas.js';
import type {
  JsonSchema,
  OpenApiDocument,
  OpenApiHeader,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiReference,
  OpenApiResponse,
  OpenApiTag,
} from './types.js';

/**
 * The version of the generated document (`info.version`): the version of the contract it is
 * generated from, released with `@iacm/sdk`.
 */
export const OPENAPI_DOCUMENT_VERSION = '0.2.0';

/** The document's title (`info.title`). */
export const OPENAPI_TITLE = 'IaC Management Service API (iacm)';

/** The server the document names by default: the standalone mock (`iacm-mock`, `listen()`) on its default port. */
export const DEFAULT_SERVER_URL = 'http://127.0.0.1:4010';

/** Options of {@link buildOpenApiDocument}. */
export interface BuildOpenApiDocumentOptions {
  /** The base URL to name in `servers`. Default {@link DEFAULT_SERVER_URL}. */
  serverUrl?: string;
}

const JSON_MEDIA_TYPE = 'application/json';

/** The JSON Schema dialect the schemas are generated in (`z.toJSONSchema` with `draft-2020-12`). */
const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** The suffix of a projected item's component name (`WorkspaceSummaryProjected`). */
const PROJECTED_SUFFIX = 'Projected';

/** Schemas that become components on both sides (no transforms, so the same JSON Schema). */
const PRIMITIVES: ReadonlyArray<z.core.$ZodType> = [ObjectId, Uuid, PathId, Timestamp, NanoTimestamp];

/** Named parts of request bodies (converted as the client sends them). */
const REQUEST_PARTS: ReadonlyArray<z.core.$ZodType> = [
  WorkspaceFilters,
  RunFilters,
  GuardrailFilters,
  ScreenFilters,
  ModuleScreenFilters,
  EventFilter,
  FacetRequest,
];

/** Named resources of answers and webhook deliveries (converted as the service sends them). */
const RESOURCES: ReadonlyArray<z.core.$ZodType> = [
  WorkspaceSummary,
  WorkspaceBackendSummary,
  WorkspaceRun,
  OwnerSummary,
  RunTask,
  GuardrailRule,
  IacStack,
  StackProvider,
  Backend,
  AggregationBucket,
  Repository,
  Module,
  ProviderCount,
  Event,
  EventAttribute,
  FacetResult,
  ErrorBody,
  FieldIssue,
  WebhookPayload,
  DriftNotification,
  UnmanagedResourceNotification,
  GhostResourceNotification,
  InsightDetectedNotification,
  WebhookDriftSample,
  WebhookSample,
  WebhookDrift,
  WebhookOwnerData,
  WebhookTestDelivery,
];

/** What each endpoint group covers, by tag name. */
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  auth: 'Exchange API keys for a bearer token (from the public record: the spec does not show how the JWT is obtained).',
  health: 'Service health (from the public record).',
  workspaces: 'Workspaces and their runs (spec §4.1).',
  guardrails: 'Guardrail rules and their notification configurations (spec §4.2).',
  iacExplorer:
    'IaC explorer queries over stacks, backends, repositories, modules and providers (spec §4.3). The bodies accept additional members.',
  eventCenter:
    'Event center queries (spec §4.4). The spec shows no Authorization header here; iacm requires the same bearer token as every other endpoint.',
  webhooks: 'Notifications the service sends to a configured webhook URL (spec §2.11, §6.2).',
};

const HEADERS: Record<string, OpenApiHeader> = {
  RequestId: {
    description:
      'The id of this answer, repeated as `requestId` in error bodies. Every answer carries it, whatever its status.',
    required: true,
    schema: { type: 'string', minLength: 1 },
  },
  RetryAfter: {
    description: 'Seconds to wait before the next request.',
    schema: { type: 'integer', minimum: 0 },
  },
  Allow: { description: 'The methods the path accepts.', schema: { type: 'string' } },
};

const headerRef = (name: keyof typeof HEADERS): OpenApiReference => ({
  $ref: `#/components/headers/${name}`,
});

/**
 * Error responses: the codes each one answers (its status is theirs in the API error table), the
 * component name, headers beyond `x-request-id`, and when they happen.
 */
const ERROR_RESPONSES = checkedErrorResponses([
  {
    codes: ['validation_failed', 'invalid_json'],
    name: 'BadRequest',
    description:
      'The request is invalid: `validation_failed` (a path parameter, query parameter or body member is invalid; `issues` names every bad field) or `invalid_json`.',
    example: {
      status: API_ERRORS.validation_failed.status,
      code: 'validation_failed',
      message: 'body.size: Too big: expected number to be <=150, received number 151',
      requestId: 'req_0000000001',
      issues: [
        {
          location: 'body',
          path: 'size',
          message: 'body.size: Too big: expected number to be <=150, received number 151',
          expected: 'at most 150',
          received: 'number 151',
        },
      ],
    },
  },
  {
    codes: ['unauthorized', 'token_expired', 'invalid_credentials'],
    name: 'Unauthorized',
    description:
      '`unauthorized` (missing, malformed or badly signed bearer token), `token_expired`, or `invalid_credentials` (login with wrong keys).',
  },
  {
    codes: ['forbidden'],
    name: 'Forbidden',
    description:
      '`forbidden`: the caller may not do this (for example `accountId` of another account in a body).',
  },
  {
    codes: ['not_found', 'route_not_found'],
    name: 'NotFound',
    description:
      "`not_found` (no such record in the caller's account; another account's id answers 404 too) or `route_not_found`.",
  },
  {
    codes: ['payload_too_large'],
    name: 'PayloadTooLarge',
    description:
      '`payload_too_large`: the body is larger than the limit (1 MiB by default), by its `Content-Length` or as read.',
  },
  {
    codes: ['unsupported_media_type'],
    name: 'UnsupportedMediaType',
    description:
      '`unsupported_media_type`: a body sent with a `Content-Type` other than `application/json` (parameters such as `charset` allowed) or `application/<name>+json`.',
  },
  {
    codes: ['method_not_allowed'],
    name: 'MethodNotAllowed',
    description: '`method_not_allowed`: the path exists, the method does not.',
    headers: { Allow: headerRef('Allow') },
  },
  {
    codes: ['rate_limited'],
    name: 'TooManyRequests',
    description:
      `\`rate_limited\`: over the rate limit (${SERVICE_RATE_LIMIT.limit} requests per rolling ` +
      `${SERVICE_RATE_LIMIT.windowSeconds} seconds per source address); wait \`Retry-After\` seconds.`,
    headers: { 'Retry-After': headerRef('RetryAfter') },
  },
  {
    codes: ['internal_error'],
    name: 'InternalError',
    description: '`internal_error`: a bug in the service.',
  },
]);

/**
 * The `default` response of every operation: any error status the operation lists no response for,
 * with the same `ErrorBody`. It covers the codes an operation answers only in rare cases and every
 * status that fault injection (`POST /__mock/faults` with a `status` and no `body`) produces.
 */
const DEFAULT_ERROR_RESPONSE = {
  name: 'OtherError',
  description:
    'Any other error status, with the same `ErrorBody`: `conflict` (409), `budget_exceeded` (409: the standalone mock’s memory budget is full; the message names what is full and the option that raises it), `unprocessable_entity` (422), `service_unavailable` (503), a 403 `forbidden` for a `Host` the standalone mock does not serve, and whatever error status fault injection answers with (`request_timeout` for 408, the API code of the status when it has one, `internal_error` for another 5xx, `fault` for another 4xx).',
} as const;

/** One error response of the document, before its status is read from the API error table. */
interface ErrorResponseSpec {
  /** The codes it answers, each named in `description`; they share one status in {@link API_ERRORS}. */
  readonly codes: readonly ErrorCode[];
  /** Its component name. */
  readonly name: string;
  /** When it happens. */
  readonly description: string;
  /** Headers beyond `x-request-id`. */
  readonly headers?: Record<string, OpenApiReference>;
  /** An example body. */
  readonly example?: Record<string, unknown>;
}

/**
 * Gives each error response the status of its codes in the API error table, and checks that they
 * share it and that the description names each.
 */
function checkedErrorResponses(
  specs: ReadonlyArray<ErrorResponseSpec>,
): ReadonlyArray<ErrorResponseSpec & { readonly status: number }> {
  return specs.map((spec) => {
    const statuses = new Set(spec.codes.map((code) => API_ERRORS[code].status));
    const [status] = statuses;
    if (status === undefined || statuses.size > 1)
      throw new Error(`buildOpenApiDocument: the codes of ${spec.name} do not share one status`);
    for (const code of spec.codes) {
      if (!spec.description.includes(`\`${code}\``))
        throw new Error(`buildOpenApiDocument: the description of ${spec.name} does not name \`${code}\``);
    }
    return { ...spec, status };
  });
}

function errorResponses(): Record<string, OpenApiResponse> {
  const responses: Record<string, OpenApiResponse> = {};
  for (const error of ERROR_RESPONSES) {
    const media: OpenApiResponse['content'] = {
      [JSON_MEDIA_TYPE]: {
        schema: { $ref: '#/components/schemas/ErrorBody' },
        ...(error.example ? { example: error.example } : {}),
      },
    };
    responses[error.name] = {
      description: error.description,
      headers: { 'x-request-id': headerRef('RequestId'), ...error.headers },
      content: media,
    };
  }
  responses[DEFAULT_ERROR_RESPONSE.name] = {
    description: DEFAULT_ERROR_RESPONSE.description,
    headers: { 'x-request-id': headerRef('RequestId') },
    content: { [JSON_MEDIA_TYPE]: { schema: { $ref: '#/components/schemas/ErrorBody' } } },
  };
  return responses;
}

/** The tag of an endpoint: its group, the part of its name before the first dot. */
function groupOf(name: string): string {
  return name.split('.')[0] as string;
}

function describeEndpoint(endpoint: EndpointDefinition): string {
  const lines: string[] = [];
  switch (endpoint.pagination) {
    case 'page':
      lines.push(
        `Paged with the \`page\` (zero-based) and \`pageSize\` (1 to ${MAX_PAGE_SIZE}) query parameters. The answer is a bare array without a total: the last page is the first one shorter than \`pageSize\`.`,
      );
      break;
    case 'offset':
      lines.push(
        `Paged with the body members \`page\` (zero-based; alias \`pageNumber\`) and \`pageSize\` (1 to ${MAX_PAGE_SIZE}; alias \`tablePageSize\`). The answer's \`total\` counts the matches over all pages.`,
      );
      break;
    case 'continuation':
      lines.push(
        `Paged with \`size\` (1 to ${MAX_EVENT_PAGE_SIZE}) and \`continuationToken\`. The answer's \`continuationToken\` (an iacm addition to the spec) is the token of the next page, or null after the last page; send it back with the same query.`,
      );
      break;
    case 'none':
      break;
  }
  if (endpoint.projection) {
    lines.push(
      `The body's \`projection\` trims the answer's items to the named members plus \`id\`; the other members of the item schema are then absent, and the items follow the projected item schema (the item schema's name plus \`${PROJECTED_SUFFIX}\`). Each item of the answer is one of the two.`,
    );
  }
  if (endpoint.params) {
    lines.push(
      'Path ids take the 24-hex id a search returns, or a lower-case UUID (`00000000-` followed by the 24-hex id addresses that record).',
    );
  }
  if (!endpoint.retrySafe) lines.push('Not retry-safe: repeating the request can change the outcome.');
  return lines.join('\n\n');
}

/** Builds the parameters of one location from the converted (strict) object schema of that location. */
function parametersOf(
  objectSchema: JsonSchema,
  location: 'path' | 'query',
  components: SchemaComponents,
): OpenApiParameter[] {
  const properties = (objectSchema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((objectSchema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description: own, ...schema } =
      location === 'query' ? queryValueSchema(property) : (property as JsonSchema);
    const description = own ?? components.resolve(schema.$ref)?.description;
    return {
      name,
      in: location,
      ...(typeof description === 'string' ? { description } : {}),
      required: location === 'path' || required.has(name),
      schema,
    };
  });
}

/**
 * A query parameter's value schema. Query strings carry text, so the contract also accepts decimal
 * digits (`integer | string → integer`); the document describes the value as the integer it is.
 */
function queryValueSchema(property: JsonSchema): JsonSchema {
  const { anyOf, ...rest } = property;
  if (!Array.isArray(anyOf)) return property;
  const numeric = (anyOf as JsonSchema[]).find(
    (option) => option.type === 'integer' || option.type === 'number',
  );
  return numeric ? { ...numeric, ...rest } : property;
}

function operationOf(endpoint: EndpointDefinition, components: SchemaComponents): OpenApiOperation {
  const parameters: OpenApiParameter[] = [
    ...(endpoint.params ? parametersOf(components.inline(endpoint.params, 'input'), 'path', components) : []),
    ...parametersOf(components.inline(endpoint.query, 'input'), 'query', components),
  ];
  const responses: OpenApiOperation['responses'] = {};
  const requestId = { 'x-request-id': headerRef('RequestId') };
  responses[String(endpoint.successStatus)] =
    endpoint.successStatus === 204
      ? { description: 'No content.', headers: requestId }
      : {
          description: 'Success.',
          headers: requestId,
          content: { [JSON_MEDIA_TYPE]: { schema: components.ref(endpoint.response, 'output') } },
        };
  for (const status of endpointErrorStatuses(endpoint)) {
    const error = ERROR_RESPONSES.find((candidate) => candidate.status === status);
    if (!error) throw new Error(`buildOpenApiDocument: no error response answers status ${status}`);
    responses[String(status)] = { $ref: `#/components/responses/${error.name}` };
  }
  responses.default = { $ref: `#/components/responses/${DEFAULT_ERROR_RESPONSE.name}` };
  const description = describeEndpoint(endpoint);
  return {
    operationId: endpoint.name,
    summary: endpoint.summary,
    ...(description ? { description } : {}),
    tags: [groupOf(endpoint.name)],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(endpoint.body
      ? {
          requestBody: {
            ...(endpoint.bodyRequired
              ? {}
              : { description: 'Every member is optional; an absent body is read as `{}`.' }),
            required: endpoint.bodyRequired,
            content: { [JSON_MEDIA_TYPE]: { schema: components.ref(endpoint.body, 'input') } },
          },
        }
      : {}),
    responses,
    // Explicit either way: an operation without `security` would leave a reader (and a linter) to
    // guess whether it is open; login and health are.
    security: endpoint.auth ? [{ bearerAuth: [] }] : [],
    'x-iacm-pagination': endpoint.pagination,
    'x-iacm-retry-safe': endpoint.retrySafe,
    'x-iacm-projection': endpoint.projection,
  };
}

/** A duration in milliseconds as the document writes it: `1 s`, `0.1 s`, `600 s`. */
function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/**
 * Which deliveries are retried and how, written from the contract's {@link WEBHOOK_DELIVERY_RETRIES}
 * (its retried statuses, jitter and policy defaults), never copied by hand.
 * @param retries the rule to describe; the contract's by default.
 */
export function webhookRetriesText(
  retries: Pick<WebhookDeliveryRetries, 'retriedStatuses' | 'defaults' | 'jitter'> = WEBHOOK_DELIVERY_RETRIES,
): string {
  const { retriedStatuses, defaults, jitter } = retries;
  return (
    `5xx, ${retriedStatuses.join(', ')} and network errors are retried: ${defaults.attempts} attempts in all, ` +
    `${seconds(defaults.baseDelayMs)} doubling, each delay times a jitter factor from ${jitter[0]} up to ${jitter[1]}, ` +
    `at most ${seconds(defaults.maxDelayMs)} apart (\`Retry-After\` honoured up to that), ` +
    `${seconds(defaults.maxTotalMs)} in all, ${seconds(defaults.timeoutMs)} timeout per attempt. ` +
    '401 and 403 are not retried, and set the integration status.'
  );
}

const WEBHOOK_DESCRIPTION = [
  "Sent to the integration's webhook URL exactly as entered, with the integration's credentials: HTTP Basic, or a configured `Authorization` header value sent verbatim. Deliveries carry no signature.",
  `Findings (drift, unmanaged, ghost, insight) notify every webhook integration of the account. ${webhookRetriesText()}`,
].join('\n\n');

/**
 * The credentials a delivery carries: the integration's HTTP Basic credentials, or its configured
 * `Authorization` header value, or none when the integration has no custom credentials.
 */
const WEBHOOK_SECURITY: Array<Record<string, string[]>> = [
  { webhookBasic: [] },
  { webhookAuthorization: [] },
  {},
];

function webhooksOf(components: SchemaComponents): Record<string, OpenApiPathItem> {
  const delivery = (
    operationId: string,
    summary: string,
    schema: z.core.$ZodType,
    description: string,
  ): OpenApiPathItem => ({
    post: {
      operationId,
      summary,
      description,
      tags: ['webhooks'],
      security: WEBHOOK_SECURITY,
      requestBody: {
        required: true,
        content: { [JSON_MEDIA_TYPE]: { schema: components.ref(schema, 'output') } },
      },
      responses: {
        '2XX': { description: 'Delivered.' },
        '401': { description: 'The credentials were refused: the integration reports invalid credentials.' },
        '403': {
          description: 'Forbidden: the integration reports missing write permission for this integration.',
        },
      },
    },
  });
  return {
    notification: delivery(
      'webhooks.notification',
      'A finding notification: drift, unmanaged resource, ghost resource or insight.',
      WebhookPayload,
      `Discriminated by \`notificationType\`; \`drifts\` appears only on \`Drift\` samples. Unknown members may appear.\n\n${WEBHOOK_DESCRIPTION}`,
    ),
    testDelivery: delivery(
      'webhooks.testDelivery',
      "The integration's test delivery, sent when an integration is created or tested.",
      WebhookTestDelivery,
      'When the test fails at creation, the integration is not created and an invalid webhook URL is reported.',
    ),
  };
}

/**
 * Builds the OpenAPI 3.1.0 document of the IaC management service API from the contract's endpoint
 * table: one operation per endpoint (operationId = the endpoint name, tagged by group), path and
 * query parameters, request bodies as a client sends them (zod `io: 'input'`), answers as the
 * service sends them (`io: 'output'`), the error responses with the one `ErrorBody`, bearer
 * authentication where the endpoint needs it (`security: []` where it does not), and the webhook
 * deliveries under `webhooks` (with the credentials they carry).
 *
 * Resources, request bodies and answers are named component schemas (named like their contract
 * exports), so the document and the SDK's types share names. The result is plain JSON data; the
 * same contract always yields the same document.
 *
 * @example
 * const document = buildOpenApiDocument({ serverUrl: 'http://127.0.0.1:4010' });
 * writeFileSync('openapi.json', `${JSON.stringify(document, null, 2)}\n`);
 */
export function buildOpenApiDocument(options: BuildOpenApiDocumentOptions = {}): OpenApiDocument {
  const components = new SchemaComponents();
  for (const schema of PRIMITIVES) {
    components.add(schema, 'input');
    components.add(schema, 'output');
  }
  for (const schema of REQUEST_PARTS) components.add(schema, 'input');
  for (const schema of RESOURCES) components.add(schema, 'output');
  for (const endpoint of endpointList) {
    if (endpoint.params) components.addInline(endpoint.params, 'input');
    components.addInline(endpoint.query, 'input');
    if (endpoint.body) components.add(endpoint.body, 'input', nameOr(endpoint, 'Body', endpoint.body));
    if (endpoint.successStatus !== 204)
      components.add(endpoint.response, 'output', nameOr(endpoint, 'Response', endpoint.response));
  }
  components.emit();
  for (const endpoint of endpointList) if (endpoint.projection) describeProjection(endpoint, components);

  const paths: Record<string, OpenApiPathItem> = {};
  const tags: OpenApiTag[] = [];
  for (const endpoint of endpointList) {
    const method = endpoint.method.toLowerCase() as keyof OpenApiPathItem;
    const item = paths[endpoint.path] ?? {};
    if (item[method])
      throw new Error(`buildOpenApiDocument: ${endpoint.method} ${endpoint.path} appears twice`);
    item[method] = operationOf(endpoint, components);
    paths[endpoint.path] = item;
    const group = groupOf(endpoint.name);
    if (!tags.some((tag) => tag.name === group)) tags.push(tagOf(group));
  }
  const webhooks = webhooksOf(components);
  tags.push(tagOf('webhooks'));

  const document: OpenApiDocument = {
    openapi: '3.1.0',
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: {
      title: OPENAPI_TITLE,
      version: OPENAPI_DOCUMENT_VERSION,
      description:
        'The IaC management service API as iacm implements it: the spec, filled in by the public record and by the choices documented in docs/api-semantics.md. Requests are strict (unknown members and values are refused); answers are tolerant (unknown members and enum values may appear). Generated from the zod contract of @iacm/sdk.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: options.serverUrl ?? DEFAULT_SERVER_URL,
        description: "The API's base URL (by default the local iacm mock server).",
      },
    ],
    tags,
    paths,
    webhooks,
    components: {
      schemas: components.schemas,
      responses: errorResponses(),
      headers: HEADERS,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The `accessToken` of `POST /v2/login`, sent as `Authorization: Bearer <token>`.',
        },
        webhookBasic: {
          type: 'http',
          scheme: 'basic',
          description:
            "Webhook deliveries only: the integration's username and password, sent as `Authorization: Basic base64(username:password)`.",
        },
        webhookAuthorization: {
          type: 'apiKey',
          in: 'header',
          name: 'Authorization',
          description:
            "Webhook deliveries only: the integration's configured `Authorization` header value (scheme included, such as `Bearer <token>`), sent verbatim.",
        },
      },
    },
  };
  // Plain data with no object shared between documents: a caller may edit its copy.
  return structuredClone(document);
}

/**
 * Describes the answer of a search that takes a `projection`: each item of the answer is one of the
 * whole item (its component, required members and all) and the projected item
 * (`<Item>Projected`, see {@link projectedItemSchema}); the two never both match, as `oneOf` needs.
 */
function describeProjection(endpoint: EndpointDefinition, components: SchemaComponents): void {
  const responseName = nameOr(endpoint, 'Response', endpoint.response);
  const response = components.get(responseName);
  const itemRef = (response?.items as JsonSchema | undefined)?.$ref;
  const itemName = typeof itemRef === 'string' ? itemRef.slice(SCHEMA_REF_PREFIX.length) : '';
  const item = components.get(itemName);
  if (response?.type !== 'array' || !item)
    throw new Error(
      `buildOpenApiDocument: ${endpoint.name} takes a projection but answers no array of items`,
    );
  const projectedName = `${itemName}${PROJECTED_SUFFIX}`;
  if (!components.get(projectedName)) components.set(projectedName, projectedItemSchema(item, itemName));
  components.set(responseName, {
    ...response,
    items: { oneOf: [{ $ref: itemRef }, { $ref: `${SCHEMA_REF_PREFIX}${projectedName}` }] },
  });
}

/**
 * The schema of an item as a search with `projection` answers it: the item's members, each
 * optional but `id` (the mock sends it with every projection, and the SDK requires it), and no
 * other member (a projection names documented members only). One of the members the whole item
 * requires is absent, so that a whole item never matches it too.
 */
function projectedItemSchema(item: JsonSchema, itemName: string): JsonSchema {
  const properties = item.properties as Record<string, JsonSchema> | undefined;
  const required = item.required as string[] | undefined;
  if (item.type !== 'object' || !properties?.id || !required || required.length === 0)
    throw new Error(`buildOpenApiDocument: ${itemName} is not an object with an id and required members`);
  return {
    description: `A \`${itemName}\` as a search with \`projection\` answers it: \`id\` and the named members only, each as in \`${itemName}\` (a member the record lacks stays absent). At least one member that \`${itemName}\` requires is absent: an item with all of them is a whole \`${itemName}\`.`,
    type: 'object',
    properties,
    required: ['id'],
    additionalProperties: false,
    // Not a whole item. Given the same member schemas and no other member, that is: some member
    // the whole item requires is absent (a `not: { required }` would list members that subschema
    // does not define, which linters warn about).
    not: { $ref: `${SCHEMA_REF_PREFIX}${itemName}` },
  };
}

function tagOf(name: string): OpenApiTag {
  const description = TAG_DESCRIPTIONS[name];
  return description ? { name, description } : { name };
}

/**
 * The component name of an endpoint's body or answer: its contract export name, or else one made
 * from the endpoint name (`workspaces.runs.search` → `WorkspacesRunsSearchBody`).
 */
function nameOr(endpoint: EndpointDefinition, suffix: 'Body' | 'Response', schema: z.core.$ZodType): string {
  const exported = contractNameOf(schema);
  if (exported) return exported;
  const pascal = endpoint.name
    .split('.')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
  return `${pascal}${suffix}`;
}
