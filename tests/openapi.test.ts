import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { listen, type RunningMockServer } from '@iacm/mock-server/node';
import {
  ErrorBody,
  endpointList,
  endpoints,
  GUARDRAIL_FIELDS,
  RUN_FIELDS,
  responseSchemaFor,
  WEBHOOK_DELIVERY_RETRIES,
  WORKSPACE_FIELDS,
} from '@iacm/sdk/contract';
import { buildOpenApiDocument, DEFAULT_SERVER_URL, type OpenApiDocument } from '@iacm/sdk/openapi';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookRetriesText } from '../packages/sdk/src/openapi/document.js';
import {
  backend,
  createBodies,
  driftPayload,
  event,
  facetResult,
  guardrailRule,
  iacModule,
  payloadBase,
  providerAggregation,
  repository,
  sample,
  stack,
  workspaceRun,
  workspaceSummary,
} from '../packages/sdk/test/fixtures.js';

const committedPath = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
const REGENERATE =
  'docs/openapi.json is out of date with the contract: run `pnpm openapi` (tsx scripts/generate-openapi.ts)';

/** The document as JSON carries it. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = (item as Record<string, { operationId: string } | undefined>)[method];
      return operation ? [{ method: method.toUpperCase(), path, operationId: operation.operationId }] : [];
    }),
  );
}

function refsOf(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsOf(item, out);
  else if (value !== null && typeof value === 'object') {
    for (const [key, member] of Object.entries(value)) {
      if (key === '$ref' && typeof member === 'string') out.push(member);
      else refsOf(member, out);
    }
  }
  return out;
}

/**
 * A JSON Schema 2020-12 validator over the document's component schemas: ajv, the validator the
 * OpenAPI schema validator itself runs on (resolved through it, it is not a direct dependency).
 */
async function schemaValidator(document: OpenApiDocument) {
  const fromValidator = createRequire(
    createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator'),
  );
  const { default: Ajv2020 } = (await import(fromValidator.resolve('ajv/dist/2020'))) as {
    default: new (
      options: object,
    ) => {
      addSchema(schema: object, key?: string): unknown;
      getSchema(key: string): ((data: unknown) => boolean) & { errors?: unknown };
    };
  };
  const { default: addFormats } = (await import(fromValidator.resolve('ajv-formats'))) as {
    default: (ajv: unknown) => void;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const id = 'https://iacm.invalid/openapi.json';
  ajv.addSchema({ $id: id, components: { schemas: document.components.schemas } });
  return (name: string, data: unknown) => {
    const validate = ajv.getSchema(`${id}#/components/schemas/${name}`);
    const valid = validate(data);
    return { valid, errors: validate.errors };
  };
}

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument();

  it('docs/openapi.json is what the contract generates (else run `pnpm openapi`)', () => {
    const committed: unknown = JSON.parse(readFileSync(committedPath, 'utf8'));
    expect(committed, REGENERATE).toEqual(plain(document));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(plain(document) as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(document.openapi).toBe('3.1.0');
  });

  it('has exactly one operation per endpoint of the endpoint table, same method and path', () => {
    const operations = operationsOf(document);
    expect(operations).toHaveLength(endpointList.length);
    const key = (o: { method: string; path: string; operationId: string }) =>
      `${o.method} ${o.path} ${o.operationId}`;
    expect(operations.map(key).sort()).toEqual(
      endpointList.map((e) => key({ method: e.method, path: e.path, operationId: e.name })).sort(),
    );
  });

  it('describes each endpoint: tags, parameters, bodies, success and error answers, security', () => {
    for (const endpoint of endpointList) {
      const operation = document.paths[endpoint.path]?.[endpoint.method.toLowerCase() as 'get'];
      if (!operation) throw new Error(`missing ${endpoint.method} ${endpoint.path}`);
      expect(operation.summary).toBe(endpoint.summary);
      expect(operation.tags).toEqual([endpoint.name.split('.')[0]]);
      expect(document.tags.map((tag) => tag.name)).toContain(operation.tags[0]);
      const pathParams = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(
        (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => [p.name, p.required]),
      ).toEqual(pathParams.map((name) => [name, true]));
      expect(operation.requestBody?.required).toBe(endpoint.body ? endpoint.bodyRequired : undefined);
      const success = operation.responses[String(endpoint.successStatus)];
      expect(success).toBeDefined();
      if (endpoint.successStatus === 204) expect(success).not.toHaveProperty('content');
      else expect(success).toHaveProperty(['content', 'application/json', 'schema', '$ref']);
      for (const status of ['400', '404', '405', '413', '415', '429', '500']) {
        expect(operation.responses[status]).toHaveProperty('$ref');
      }
      expect(operation.responses.default).toEqual({ $ref: '#/components/responses/OtherError' });
      if (endpoint.auth) {
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        expect(operation.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
        expect(operation.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
      } else {
        expect(operation.security).toEqual([]);
      }
    }
    for (const response of Object.values(document.components.responses)) {
      expect(response.content?.['application/json']?.schema).toEqual({
        $ref: '#/components/schemas/ErrorBody',
      });
    }
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    expect(document.info.title).toBe('IaC Management Service API (iacm)');
    expect(document.servers).toEqual([expect.objectContaining({ url: DEFAULT_SERVER_URL })]);
  });

  it('requires x-request-id on every answer of every operation, the errors and default included', () => {
    expect(document.components.headers.RequestId).toMatchObject({ required: true });
    let answers = 0;
    for (const endpoint of endpointList) {
      const operation = document.paths[endpoint.path]?.[endpoint.method.toLowerCase() as 'get'];
      for (const [status, entry] of Object.entries(operation?.responses ?? {})) {
        const response =
          '$ref' in entry
            ? document.components.responses[entry.$ref.replace('#/components/responses/', '')]
            : entry;
        expect(response?.headers?.['x-request-id'], `${endpoint.name} ${status}`).toEqual({
          $ref: '#/components/headers/RequestId',
        });
        answers++;
      }
    }
    expect(answers).toBeGreaterThanOrEqual(endpointList.length * 9);
  });

  it('lists 413 and 415 with the error body, and a default error response for every other status', () => {
    expect(document.components.responses.PayloadTooLarge?.description).toContain('`payload_too_large`');
    expect(document.components.responses.UnsupportedMediaType?.description).toContain(
      '`unsupported_media_type`',
    );
    expect(document.components.responses.OtherError?.description).toContain('fault injection');
    expect(document.jsonSchemaDialect).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('describes query values as integers (the contract also takes their decimal text)', () => {
    const search = document.paths['/v2/workspaces/search']?.post;
    const query = (search?.parameters ?? []).filter((p) => p.in === 'query');
    expect(query.map((p) => [p.name, p.required, p.schema.type])).toEqual([
      ['page', false, 'integer'],
      ['pageSize', false, 'integer'],
    ]);
    expect(query[1]?.schema).toMatchObject({ minimum: 1, maximum: 500 });
  });

  it('resolves every $ref to a component of the document', () => {
    const refs = new Set(refsOf(document));
    expect(refs.size).toBeGreaterThan(10);
    for (const ref of refs) {
      const [, kind, name] = /^#\/components\/(\w+)\/([\w.-]+)$/.exec(ref) ?? [];
      expect(kind, ref).toBeDefined();
      const section = (document.components as Record<string, Record<string, unknown>>)[kind as string];
      expect(section?.[name as string], ref).toBeDefined();
    }
  });

  it("describes webhook retries from the contract's WEBHOOK_DELIVERY_RETRIES, not from a copied sentence", () => {
    const description = document.webhooks?.notification?.post?.description ?? '';
    const { retriedStatuses, defaults, jitter } = WEBHOOK_DELIVERY_RETRIES;
    expect(description).toContain(webhookRetriesText());
    expect(description).toContain(`5xx, ${retriedStatuses.join(', ')} and network errors are retried`);
    for (const value of [
      `${defaults.attempts} attempts`,
      `${defaults.baseDelayMs / 1000} s doubling`,
      `from ${jitter[0]} up to ${jitter[1]}`,
      `at most ${defaults.maxDelayMs / 1000} s apart`,
      `${defaults.maxTotalMs / 1000} s in all`,
      `${defaults.timeoutMs / 1000} s timeout`,
    ]) {
      expect(description).toContain(value);
    }
    // Other numbers give other text: the sentence follows the constant.
    const other = webhookRetriesText({
      retriedStatuses: [408, 425, 429],
      defaults: {
        attempts: 7,
        baseDelayMs: 2500,
        maxDelayMs: 90_000,
        maxTotalMs: 1_200_000,
        timeoutMs: 5000,
      },
      jitter: [0.75, 1],
    });
    expect(other).toBe(
      '5xx, 408, 425, 429 and network errors are retried: 7 attempts in all, 2.5 s doubling, each delay times a ' +
        'jitter factor from 0.75 up to 1, at most 90 s apart (`Retry-After` honoured up to that), 1200 s in all, ' +
        '5 s timeout per attempt. 401 and 403 are not retried, and set the integration status.',
    );
  });

  it('is built afresh each time (no shared objects) and deterministically', () => {
    const again = buildOpenApiDocument({ serverUrl: 'https://iac.example.com' });
    expect(again.servers[0]?.url).toBe('https://iac.example.com');
    expect({ ...again, servers: document.servers }).toEqual(document);
    expect(again.components.schemas.ErrorBody).not.toBe(document.components.schemas.ErrorBody);
  });

  describe('its schemas accept the contract fixtures and refuse what the contract refuses', () => {
    let check: Awaited<ReturnType<typeof schemaValidator>>;
    beforeAll(async () => {
      check = await schemaValidator(document);
    });

    it.each(Object.entries(createBodies))('GuardrailCreateBody accepts the %s rule', (_, body) => {
      expect(check('GuardrailCreateBody', body)).toMatchObject({ valid: true });
    });

    it.each([
      ['WorkspaceSummary', workspaceSummary],
      ['WorkspaceRun', workspaceRun],
      ['GuardrailRule', guardrailRule],
      ['IacStack', stack],
      ['Backend', backend],
      ['Repository', repository],
      ['Module', iacModule],
      ['ProviderAggregation', providerAggregation],
      ['Event', event],
      ['FacetResult', facetResult],
      ['WebhookPayload', driftPayload],
      ['WebhookPayload', { ...payloadBase, notificationType: 'GhostResource', samples: [sample] }],
      ['WorkspaceSearchResponse', [workspaceSummary]],
      ['EventQueryResponse', { events: [event], facets: [facetResult], continuationToken: null }],
    ] as const)('%s accepts its fixture', (name, value) => {
      expect(check(name, value)).toMatchObject({ valid: true });
    });

    it.each([
      ['GuardrailCreateBody', { ...createBodies.cost, colour: 'red' }],
      ['GuardrailCreateBody', { ...createBodies.cost, severity: 4 }],
      ['WorkspaceSearchBody', { filters: { status: ['done'] } }],
      ['WorkspaceSearchBody', { sort: [{ lastRunTime: { order: 2 } }] }],
      ['WorkspaceLabelsBody', { labels: ['a', 'a'] }],
      ['EventQueryBody', { size: 151 }],
      ['PathId', 'not-an-id'],
      ['WorkspaceSummary', { ...workspaceSummary, createdAt: '2024-05-01T12:30:00Z' }],
      [
        'WebhookPayload',
        { ...payloadBase, notificationType: 'GhostResource', samples: [{ ...sample, drifts: [] }] },
      ],
    ] as const)('%s refuses %j', (name, value) => {
      expect(check(name, value).valid).toBe(false);
    });

    const PROJECTED = [
      ['workspaces.search', 'WorkspaceSearchResponse', 'WorkspaceSummary', workspaceSummary],
      ['workspaces.runs.search', 'RunSearchResponse', 'WorkspaceRun', workspaceRun],
      ['guardrails.search', 'GuardrailSearchResponse', 'GuardrailRule', guardrailRule],
    ] as const;

    it('offers each searched item whole or projected (oneOf), for exactly the endpoints with a projection', () => {
      expect(endpointList.filter((e) => e.projection).map((e) => e.name)).toEqual(
        PROJECTED.map(([name]) => name),
      );
      for (const [, response, item] of PROJECTED) {
        expect(document.components.schemas[response]).toMatchObject({
          type: 'array',
          items: {
            oneOf: [
              { $ref: `#/components/schemas/${item}` },
              { $ref: `#/components/schemas/${item}Projected` },
            ],
          },
        });
        const whole = document.components.schemas[item] as { properties: object; required: string[] };
        expect(whole.required.length).toBeGreaterThan(1);
        expect(document.components.schemas[`${item}Projected`]).toMatchObject({
          properties: whole.properties,
          required: ['id'],
          additionalProperties: false,
        });
      }
    });

    it.each(PROJECTED)(
      '%s: a whole item is a whole item, a projected one is projected, never both',
      (_, response, item, fixture) => {
        const whole = fixture as Record<string, unknown>;
        const projected = { id: whole.id, [Object.keys(whole)[2] as string]: Object.values(whole)[2] };
        expect(check(item, whole).valid).toBe(true);
        expect(check(`${item}Projected`, whole).valid).toBe(false);
        expect(check(item, projected).valid).toBe(false);
        expect(check(`${item}Projected`, projected).valid).toBe(true);
        expect(check(`${item}Projected`, { id: whole.id }).valid).toBe(true);
        expect(check(response, [whole, projected, { id: whole.id }])).toMatchObject({ valid: true });
        // Not without `id`, with a member the item does not have, or with a member of the wrong type.
        const { id: _id, ...withoutId } = projected;
        for (const bad of [withoutId, { ...projected, colour: 'red' }, { id: 7 }]) {
          expect(check(`${item}Projected`, bad).valid, JSON.stringify(bad)).toBe(false);
          expect(check(response, [bad]).valid, JSON.stringify(bad)).toBe(false);
        }
      },
    );

    it('a search body and the workspace search query as the document describes them', () => {
      expect(
        check('WorkspaceSearchBody', { sort: { lastRunTime: { order: -1 } }, searchValue: 'net' }),
      ).toMatchObject({
        valid: true,
      });
      expect(check('PathId', '65a1f0c2e4b0a1b2c3d4e600').valid).toBe(true);
      expect(check('PathId', '00000000-65a1-f0c2-e4b0-a1b2c3d4e600').valid).toBe(true);
    });
  });
});

describe('the standalone mock serves the document', () => {
  let mock: RunningMockServer;
  beforeAll(async () => {
    mock = await listen({ port: 0, sizes: { workspaces: 5, events: 10 } });
  });
  afterAll(async () => {
    await mock.close();
  });

  it('answers GET /openapi.json without auth, naming itself as the server', async () => {
    const response = await fetch(`${mock.url}/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
    const served = (await response.json()) as OpenApiDocument;
    expect(served).toEqual(plain(buildOpenApiDocument({ serverUrl: mock.url })));
    expect(served.servers[0]?.url).toBe(mock.url);
  });

  async function login(): Promise<Record<string, string>> {
    const [account] = mock.control.accounts();
    const response = await fetch(`${mock.url}/v2/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: account?.accessKey, secretKey: account?.secretKey }),
    });
    const { accessToken } = (await response.json()) as { accessToken: string };
    return { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` };
  }

  it('answers searches with a projection as the document and the SDK describe them', async () => {
    const check = await schemaValidator(buildOpenApiDocument());
    const headers = await login();
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${mock.url}${path}?pageSize=50`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      expect(response.status, path).toBe(200);
      return (await response.json()) as Array<Record<string, unknown>>;
    };
    const [workspace] = await post('/v2/workspaces/search', {});
    const cases = [
      ['workspaces.search', '/v2/workspaces/search', 'WorkspaceSearchResponse', WORKSPACE_FIELDS],
      [
        'workspaces.runs.search',
        `/v2/workspaces/${String(workspace?.id)}/runs/search`,
        'RunSearchResponse',
        RUN_FIELDS,
      ],
      ['guardrails.search', '/v2/guardrails/search', 'GuardrailSearchResponse', GUARDRAIL_FIELDS],
    ] as const;
    for (const [name, path, component, fields] of cases) {
      const projections: string[][] = [
        [],
        fields.slice(1, 2),
        fields.slice(0, 4),
        [...fields],
        fields.slice(1),
      ];
      for (const projection of projections) {
        const items = await post(path, { projection });
        expect(items.length, `${name} ${projection}`).toBeGreaterThan(0);
        expect(check(component, items), `${name} ${projection}`).toMatchObject({ valid: true });
        expect(
          responseSchemaFor(endpoints[name as 'workspaces.search'], { projection }).safeParse(items),
        ).toMatchObject({ success: true });
        if (projection.length > 0) {
          for (const item of items)
            expect(Object.keys(item).every((k) => k === 'id' || projection.includes(k))).toBe(true);
        }
      }
    }
  });

  it('answers 413 and 415 with x-request-id and the error body, as the document lists them', async () => {
    const headers = await login();
    const tooLarge = await fetch(`${mock.url}/v2/workspaces/search`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ searchValue: 'x'.repeat(1024 * 1024) }),
    });
    const seq = await fetch(`${mock.url}/v2/workspaces/search`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json-seq' },
      body: '{}',
    });
    for (const [response, status] of [
      [tooLarge, 413],
      [seq, 415],
    ] as const) {
      expect(response.status).toBe(status);
      const requestId = response.headers.get('x-request-id');
      expect(requestId).toMatch(/^req_/);
      const body = ErrorBody.parse(await response.json());
      expect([body.status, body.requestId]).toEqual([status, requestId]);
      const operation = buildOpenApiDocument().paths['/v2/workspaces/search']?.post;
      expect(operation?.responses[String(status)]).toHaveProperty('$ref');
    }
  });

  it('routes every documented operation (no 404 route_not_found, no 405)', async () => {
    for (const { method, path } of operationsOf(buildOpenApiDocument())) {
      const concrete = path.replace(/\{\w+\}/g, '65a1f0c2e4b0a1b2c3d4e5f6');
      const response = await fetch(`${mock.url}${concrete}`, {
        method,
        ...(method === 'GET' || method === 'DELETE'
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      const body = response.status === 204 ? undefined : ((await response.json()) as { code?: string });
      expect([response.status, body?.code], `${method} ${path}`).not.toEqual([404, 'route_not_found']);
      expect(response.status, `${method} ${path}`).not.toBe(405);
    }
  });
});
