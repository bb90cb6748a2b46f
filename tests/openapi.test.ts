import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { listen, type RunningMockServer } from '@iacm/mock-server/node';
import { endpointList } from '@iacm/sdk/contract';
import { buildOpenApiDocument, DEFAULT_SERVER_URL, type OpenApiDocument } from '@iacm/sdk/openapi';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      for (const status of ['400', '404', '405', '429', '500']) {
        expect(operation.responses[status]).toHaveProperty('$ref');
      }
      if (endpoint.auth) {
        expect(operation.security).toEqual([{ bearerAuth: [] }]);
        expect(operation.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
        expect(operation.responses['403']).toEqual({ $ref: '#/components/responses/Forbidden' });
      } else {
        expect(operation.security).toBeUndefined();
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
