/**
 * The parts of an OpenAPI 3.1 document that {@link buildOpenApiDocument} produces. They are plain,
 * JSON-serialisable data; the types cover what iacm emits, not the whole OpenAPI specification.
 */

/** A JSON Schema (draft 2020-12, the OpenAPI 3.1 dialect), as plain data. */
export type JsonSchema = { [keyword: string]: unknown };

/** A reference to a component of the document (`#/components/...`). */
export interface OpenApiReference {
  /** The JSON pointer of the component, like `#/components/schemas/ErrorBody`. */
  $ref: string;
}

/** A server the API is reachable at. */
export interface OpenApiServer {
  /** The base URL; operation paths are relative to it. */
  url: string;
  /** What this server is. */
  description?: string;
}

/** A tag grouping operations (one per endpoint group: `workspaces`, `guardrails`, ...). */
export interface OpenApiTag {
  /** The group name, the part of the endpoint name before the first dot. */
  name: string;
  /** What the group covers. */
  description?: string;
}

/** A response header. */
export interface OpenApiHeader {
  /** What the header carries. */
  description: string;
  /** Whether every answer that lists the header carries it. */
  required?: boolean;
  /** The header value's schema. */
  schema: JsonSchema;
}

/** A media type of a request or response body. */
export interface OpenApiMediaType {
  /** The body's schema. */
  schema: JsonSchema;
  /** An example body. */
  example?: unknown;
}

/** A response of an operation. */
export interface OpenApiResponse {
  /** What the response means. */
  description: string;
  /** Response headers by name. */
  headers?: Record<string, OpenApiHeader | OpenApiReference>;
  /** The body by media type; absent when the response has no body. */
  content?: Record<string, OpenApiMediaType>;
}

/** A request body. */
export interface OpenApiRequestBody {
  /** What the body is, and what an absent body means. */
  description?: string;
  /** Whether the body must be sent. */
  required: boolean;
  /** The body by media type. */
  content: Record<string, OpenApiMediaType>;
}

/** A path or query parameter. */
export interface OpenApiParameter {
  /** The parameter name. */
  name: string;
  /** Where the parameter goes. */
  in: 'path' | 'query';
  /** What the parameter means. */
  description?: string;
  /** Whether the parameter must be given (always true for path parameters). */
  required: boolean;
  /** The parameter value's schema. */
  schema: JsonSchema;
}

/** One operation: one endpoint of the endpoint table (or one webhook delivery). */
export interface OpenApiOperation {
  /** The endpoint name (`workspaces.search`). */
  operationId: string;
  /** One-line summary. */
  summary: string;
  /** Longer description: paging, retry safety and iacm's additions to the spec. */
  description?: string;
  /** The endpoint group. */
  tags: string[];
  /** Path and query parameters. */
  parameters?: OpenApiParameter[];
  /** The request body, when the endpoint takes one. */
  requestBody?: OpenApiRequestBody;
  /**
   * Responses by status code, with `default` for every status not listed (the error statuses an
   * operation answers only in rare cases, and those fault injection produces).
   */
  responses: Record<string, OpenApiResponse | OpenApiReference>;
  /**
   * The security requirements: bearer authentication where the endpoint needs it, `[]` where it is
   * open (login, health); for a webhook delivery, the integration's credentials or none.
   */
  security?: Array<Record<string, string[]>>;
  /** iacm extension: how the endpoint's results are paged (`page`, `offset`, `continuation`, `none`). */
  'x-iacm-pagination'?: string;
  /** iacm extension: whether a client may retry the request on its own. */
  'x-iacm-retry-safe'?: boolean;
  /** iacm extension: whether the body's `projection` may trim the answer's items. */
  'x-iacm-projection'?: boolean;
}

/** The operations of one path, by lower-case HTTP method. */
export type OpenApiPathItem = Partial<Record<'get' | 'post' | 'put' | 'patch' | 'delete', OpenApiOperation>>;

/**
 * A security scheme: an HTTP authentication scheme (`bearer`, `basic`), or a value sent verbatim in
 * a header (`apiKey`, the `Authorization` value a webhook integration is configured with).
 */
export type OpenApiSecurityScheme =
  | {
      /** The scheme kind. */
      type: 'http';
      /** The HTTP authentication scheme. */
      scheme: string;
      /** The token format. */
      bearerFormat?: string;
      /** How to obtain credentials. */
      description?: string;
    }
  | {
      /** The scheme kind. */
      type: 'apiKey';
      /** Where the value is sent. */
      in: 'header';
      /** The header's name. */
      name: string;
      /** How to obtain credentials. */
      description?: string;
    };

/** An OpenAPI 3.1.0 document of the IaC management service API, as {@link buildOpenApiDocument} builds it. */
export interface OpenApiDocument {
  /** The OpenAPI version. */
  openapi: '3.1.0';
  /**
   * The JSON Schema dialect of the schemas: draft 2020-12, as they are generated (validators such
   * as Prism pick their draft from it).
   */
  jsonSchemaDialect: string;
  /** Title, version and description of the API. */
  info: {
    /** The API's title. */
    title: string;
    /** The version of this description of the API. */
    version: string;
    /** What the document covers. */
    description: string;
    /** The license of the document. */
    license: { name: string; identifier: string };
  };
  /** Where the API is reachable (by default the local mock). */
  servers: OpenApiServer[];
  /** The endpoint groups. */
  tags: OpenApiTag[];
  /** The operations, by path template. */
  paths: Record<string, OpenApiPathItem>;
  /** The notifications the service sends to a configured webhook URL. */
  webhooks: Record<string, OpenApiPathItem>;
  /** Schemas, responses, headers and security schemes shared by the operations. */
  components: {
    /** Schemas by name: resources, request bodies, answers, `ErrorBody`. */
    schemas: Record<string, JsonSchema>;
    /** The error responses, each with an `ErrorBody`. */
    responses: Record<string, OpenApiResponse>;
    /** Response headers. */
    headers: Record<string, OpenApiHeader>;
    /** `bearerAuth`: the JWT from `POST /v2/login`. */
    securitySchemes: Record<string, OpenApiSecurityScheme>;
  };
}
