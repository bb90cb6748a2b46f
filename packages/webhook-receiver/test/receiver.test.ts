import {
  createTestDelivery,
  createWebhookReceiver,
  encodeAuthorization,
  generateNotification,
  WEBHOOK_ERROR_STATUS,
  WebhookError,
  type WebhookNotification,
} from '@iacm/webhook-receiver';
import { describe, expect, it, vi } from 'vitest';
import { basic, header, json } from './helpers.js';

const drift = generateNotification('Drift');

function delivery(credentials: Parameters<typeof createTestDelivery>[0]['credentials'] = basic) {
  return createTestDelivery({ notification: drift, credentials });
}

describe('HTTP answers (the documented table)', () => {
  const receiver = createWebhookReceiver({ credentials: basic });
  const good = delivery();

  it('200: a valid delivery with the right credentials', async () => {
    const answer = await receiver.handle(good);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(json(answer)).toEqual({ ok: true, kind: 'Drift' });
  });

  it('405 with Allow: POST for any other method', async () => {
    for (const method of ['GET', 'PUT', 'HEAD', 'OPTIONS', 'delete']) {
      const answer = await receiver.handle({ ...good, method });
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('POST');
      expect(json(answer)).toMatchObject({ status: 405, code: 'method_not_allowed' });
    }
  });

  it('the method is not checked when omitted (the framework routed it)', async () => {
    const { method: _method, ...rest } = good;
    expect((await receiver.handle(rest)).status).toBe(200);
  });

  it('401 missing_credentials with a Basic challenge when no Authorization header came', async () => {
    const answer = await receiver.handle(delivery('none'));
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBe('Basic realm="iacm-webhooks", charset="UTF-8"');
    expect(json(answer)).toMatchObject({ code: 'missing_credentials' });
    expect(json(answer).message).toBe(
      'no Authorization header: the integration must be configured with credentials, or configure the receiver with credentials: "none"',
    );
  });

  it('an empty Authorization header counts as missing', async () => {
    const answer = await receiver.handle({ ...good, headers: { ...good.headers, authorization: '  ' } });
    expect(json(answer).code).toBe('missing_credentials');
  });

  it('401 invalid_credentials for a wrong password, a wrong username, or another scheme', async () => {
    const wrong = [
      encodeAuthorization({ ...basic, password: 'nope' }),
      encodeAuthorization({ type: 'basic', username: 'someone', password: 'x' }),
      'Bearer abc',
      'Basic', // no token at all is malformed, checked below
    ];
    for (const authorization of wrong.slice(0, 3)) {
      const answer = await receiver.handle({ ...good, headers: { ...good.headers, authorization } });
      expect(answer.status).toBe(401);
      expect(json(answer).code).toBe('invalid_credentials');
      expect(answer.headers['www-authenticate']).toMatch(/^Basic realm=/);
    }
  });

  it('400 malformed_authorization for a Basic header that is not base64 of user:pass', async () => {
    for (const authorization of [
      'Basic',
      'Basic !!!!',
      'Basic dXNlcg==' /* "user", no colon */,
      'Basic abc',
    ]) {
      const answer = await receiver.handle({ ...good, headers: { ...good.headers, authorization } });
      expect(answer.status, authorization).toBe(400);
      expect(json(answer).code).toBe('malformed_authorization');
    }
  });

  it('a malformed Basic header is only 401 when no Basic credential is configured', async () => {
    const headerOnly = createWebhookReceiver({ credentials: header });
    const answer = await headerOnly.handle({
      ...good,
      headers: { ...good.headers, authorization: 'Basic !!!!' },
    });
    expect(answer.status).toBe(401);
    expect(answer.headers['www-authenticate']).toBeUndefined();
  });

  it('415 for a missing or non-JSON content type, or a charset other than UTF-8', async () => {
    for (const contentType of [
      undefined,
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
    ]) {
      const headers: Record<string, string> = { authorization: good.headers.authorization ?? '' };
      if (contentType) headers['content-type'] = contentType;
      const answer = await receiver.handle({ ...good, headers });
      expect(answer.status, String(contentType)).toBe(415);
      expect(json(answer).code).toBe('unsupported_media_type');
    }
  });

  it('accepts JSON content types with parameters and +json types', async () => {
    for (const contentType of [
      'application/json; charset=utf-8',
      'Application/JSON',
      'application/vnd.iacm+json',
    ]) {
      const answer = await receiver.handle({
        ...good,
        headers: { ...good.headers, 'content-type': contentType },
      });
      expect(answer.status, contentType).toBe(200);
    }
  });

  it('413 for a body over the limit; exactly the limit is accepted', async () => {
    const body = good.body;
    const exact = createWebhookReceiver({
      credentials: basic,
      maxBodyBytes: new TextEncoder().encode(body).length,
    });
    expect((await exact.handle(good)).status).toBe(200);
    const smaller = createWebhookReceiver({ credentials: basic, maxBodyBytes: body.length - 1 });
    const answer = await smaller.handle(good);
    expect(answer.status).toBe(413);
    expect(json(answer).code).toBe('payload_too_large');
  });

  it('413 from a declared Content-Length over the limit, without calling the body reader', async () => {
    const reader = vi.fn(async () => good.body);
    const answer = await receiver.handle({
      ...good,
      headers: { ...good.headers, 'content-length': String(2 * 1024 * 1024) },
      body: reader,
    });
    expect(answer.status).toBe(413);
    expect(reader).not.toHaveBeenCalled();
  });

  it('a body reader gets the limit, and its too_large answers 413', async () => {
    const reader = vi.fn(async () => ({ problem: 'too_large' as const }));
    const answer = await receiver.handle({ ...good, body: reader });
    expect(reader).toHaveBeenCalledWith(1024 * 1024);
    expect(answer.status).toBe(413);
  });

  it('400 invalid_json for an empty body, malformed JSON or invalid UTF-8', async () => {
    for (const body of ['', '{"notificationType":', 'not json', new Uint8Array([0x7b, 0xff, 0x7d])]) {
      const answer = await receiver.handle({ ...good, body });
      expect(answer.status).toBe(400);
      expect(json(answer).code).toBe('invalid_json');
    }
  });

  it('the JSON error does not quote the body', async () => {
    const answer = await receiver.handle({ ...good, body: '{"x": unquoted-value-here}' });
    expect(answer.body).not.toContain('unquoted-value-here');
    expect(json(answer).message).toBe('the body is not valid JSON: it has an unexpected character');
    const truncated = await receiver.handle({ ...good, body: '{"a":' });
    expect(json(truncated).message).toBe('the body is not valid JSON: it ends too early (truncated?)');
    const trailing = await receiver.handle({ ...good, body: '{"a":1,}' });
    expect(json(trailing).message).toMatch(/^the body is not valid JSON \(syntax error at character 7\)$/);
  });

  it('422 invalid_payload naming each bad field with expected and received', async () => {
    const sample = drift.samples[0];
    if (!sample) throw new Error('fixture has samples');
    const bad = {
      ...drift,
      accountId: 42,
      samples: [{ ...sample, firstSeen: '2024-05-01T12:30:00.123Z', isChild: 'no' }],
    };
    const answer = await receiver.handle({ ...good, body: JSON.stringify(bad) });
    expect(answer.status).toBe(422);
    const body = json(answer);
    expect(body.code).toBe('invalid_payload');
    const issues = body.issues as Array<Record<string, string>>;
    expect(issues.map((issue) => issue.path)).toEqual([
      'accountId',
      'samples[0].firstSeen',
      'samples[0].isChild',
    ]);
    expect(issues[0]).toMatchObject({ expected: 'string', received: 'number 42' });
    expect(issues[1]?.message).toContain('nanosecond');
    expect(issues[1]?.received).toBe('"2024-05-01T12:30:00.123Z"');
    expect(issues[2]).toMatchObject({ expected: 'boolean', received: '"no"' });
    expect(body.message).toContain('accountId');
    expect(body.message).toContain('(and 2 more issues)');
  });

  it('422 for an unknown notificationType, listing the known ones', async () => {
    const answer = await receiver.handle({
      ...good,
      body: JSON.stringify({ ...drift, notificationType: 'Heartbeat' }),
    });
    expect(answer.status).toBe(422);
    const [issue] = json(answer).issues as Array<Record<string, string>>;
    expect(issue).toMatchObject({ path: 'notificationType', received: '"Heartbeat"' });
    expect(issue?.expected).toContain('"Drift"');
  });

  it('422 for drifts on a sample of another kind (drifts only on Drift)', async () => {
    const ghost = generateNotification('GhostResource');
    const withDrifts = { ...ghost, samples: [{ ...ghost.samples[0], drifts: [] }] };
    const answer = await receiver.handle({ ...good, body: JSON.stringify(withDrifts) });
    expect(answer.status).toBe(422);
    const [issue] = json(answer).issues as Array<Record<string, string>>;
    expect(issue?.path).toBe('samples[0].drifts');
    expect(issue?.message).toContain('drifts appears only on Drift notifications');
  });

  it('422 for JSON that is not an object, or an object that is neither kind', async () => {
    for (const body of ['[]', '"text"', 'null', '42', '{"hello":"world"}', '{"text":5}']) {
      const answer = await receiver.handle({ ...good, body });
      expect(answer.status, body).toBe(422);
      expect((json(answer).issues as unknown[]).length).toBeGreaterThan(0);
    }
  });

  it('lists at most 100 issues and stops validating there, saying so', async () => {
    const sample = { ...drift.samples[0], isLocked: 'x' };
    const many = { ...drift, samples: Array.from({ length: 150 }, () => sample) };
    const answer = await receiver.handle({ ...good, body: JSON.stringify(many) });
    const issues = json(answer).issues as Array<{ path: string }>;
    expect(issues).toHaveLength(100);
    expect(issues.at(-1)?.path).toBe('samples[99].isLocked');
    expect(json(answer).message).toContain(
      '(and 99 more issues listed; validation stopped at 100 issues, so there may be more)',
    );
  });

  it('counts every issue when validation did not stop', async () => {
    const sample = { ...drift.samples[0], isLocked: 'x' };
    const some = { ...drift, samples: Array.from({ length: 60 }, () => sample) };
    const answer = await receiver.handle({ ...good, body: JSON.stringify(some) });
    expect(json(answer).issues).toHaveLength(60);
    expect(json(answer).message).toMatch(/\(and 59 more issues\)$/);
  });

  it('500 handler_failed without internals when a handler throws; onError gets the cause', async () => {
    const errors: WebhookError[] = [];
    const failing = createWebhookReceiver({ credentials: basic })
      .on('Drift', () => {
        throw new Error('database password is hunter2 at /srv/app/db.ts:12');
      })
      .onError((error) => errors.push(error));
    const answer = await failing.handle(good);
    expect(answer.status).toBe(500);
    expect(json(answer).code).toBe('handler_failed');
    expect(answer.body).not.toContain('hunter2');
    expect(answer.body).not.toContain('db.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.code).toBe('handler_failed');
    expect(String((errors[0]?.cause as Error | undefined)?.message)).toContain('hunter2');
  });

  it('500 with every failure in the cause when several handlers throw; the other handlers still run', async () => {
    const causes: unknown[] = [];
    let ran = false;
    const failing = createWebhookReceiver({ credentials: basic })
      .on('Drift', () => {
        throw new Error('first');
      })
      .on('Drift', () => {
        ran = true;
      })
      .onAny(() => {
        throw new Error('second');
      })
      .onError((error) => causes.push(error.cause));
    expect((await failing.handle(good)).status).toBe(500);
    expect(ran).toBe(true);
    expect(causes[0]).toBeInstanceOf(AggregateError);
    expect((causes[0] as AggregateError).errors.map((error: Error) => error.message)).toEqual([
      'first',
      'second',
    ]);
  });

  it('waits for every handler, lists failures in handler order whether thrown or rejected, and calls handlers as plain functions', async () => {
    const causes: unknown[] = [];
    const order: string[] = [];
    let late = false;
    const receivers = createWebhookReceiver({ credentials: basic });
    receivers
      .on('Drift', async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push('slow');
        throw new Error('async first');
      })
      .on('Drift', function (this: unknown) {
        order.push(`this ${String(this)}`);
        // Registered while the delivery runs its handlers: not called for this delivery.
        receivers.on('Drift', () => {
          late = true;
        });
        throw new Error('sync second');
      })
      .onAny(() => ({
        // A thenable that is not a promise: the answer waits for it too.
        // biome-ignore lint/suspicious/noThenProperty: the thenable is the point of the test
        then: (_: unknown, reject: (error: Error) => void) => reject(new Error('thenable third')),
      }))
      .onError((error) => causes.push(error.cause));
    expect((await receivers.handle(good)).status).toBe(500);
    expect(order).toEqual(['this undefined', 'slow']);
    expect(late).toBe(false);
    expect((causes[0] as AggregateError).errors.map((error: Error) => error.message)).toEqual([
      'async first',
      'sync second',
      'thenable third',
    ]);
  });

  it('200 only once an async handler has finished', async () => {
    let done = false;
    const slow = createWebhookReceiver({ credentials: basic }).on('Drift', async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      done = true;
    });
    const answer = await slow.handle(good);
    expect(answer.status).toBe(200);
    expect(done).toBe(true);
    expect(JSON.parse(answer.body)).toEqual({ ok: true, kind: 'Drift' });
  });

  it('500 when an async handler rejects', async () => {
    const failing = createWebhookReceiver({ credentials: basic }).onAny(async () => {
      await Promise.resolve();
      throw new Error('boom');
    });
    expect((await failing.handle(good)).status).toBe(500);
  });

  it('500 body_already_parsed when given a parsed object instead of the raw body', async () => {
    const answer = await receiver.handle({ ...good, body: drift as never });
    expect(answer.status).toBe(500);
    expect(json(answer).code).toBe('body_already_parsed');
    expect(json(answer).message).toContain('express.json()');
  });

  it('400 body_read_failed when the body reader throws (connection broke)', async () => {
    const answer = await receiver.handle({
      ...good,
      body: async () => {
        throw new Error('aborted');
      },
    });
    expect(answer.status).toBe(400);
    expect(json(answer).code).toBe('body_read_failed');
  });

  it('every documented code has the status of the table', () => {
    expect(WEBHOOK_ERROR_STATUS).toEqual({
      method_not_allowed: 405,
      missing_credentials: 401,
      invalid_credentials: 401,
      malformed_authorization: 400,
      unsupported_media_type: 415,
      payload_too_large: 413,
      body_read_failed: 400,
      invalid_json: 400,
      invalid_payload: 422,
      body_already_parsed: 500,
      handler_failed: 500,
      internal_error: 500,
    });
  });
});

describe('order of checks: method → auth → content type → size → JSON → schema', () => {
  const receiver = createWebhookReceiver({ credentials: basic, maxBodyBytes: 10 });
  // Breaks every rule at once, then fixes them one by one.
  const steps: Array<[string, Parameters<typeof receiver.handle>[0]]> = [
    [
      'method_not_allowed',
      { method: 'GET', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(20) },
    ],
    [
      'missing_credentials',
      { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(20) },
    ],
    [
      'unsupported_media_type',
      {
        method: 'POST',
        headers: { authorization: encodeAuthorization(basic), 'content-type': 'text/plain' },
        body: 'x'.repeat(20),
      },
    ],
    [
      'payload_too_large',
      {
        method: 'POST',
        headers: { authorization: encodeAuthorization(basic), 'content-type': 'application/json' },
        body: 'x'.repeat(20),
      },
    ],
    [
      'invalid_json',
      {
        method: 'POST',
        headers: { authorization: encodeAuthorization(basic), 'content-type': 'application/json' },
        body: 'x',
      },
    ],
    [
      'invalid_payload',
      {
        method: 'POST',
        headers: { authorization: encodeAuthorization(basic), 'content-type': 'application/json' },
        body: '{}',
      },
    ],
  ];
  for (const [code, request] of steps) {
    it(code, async () => {
      const result = await receiver.verify(request);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe(code);
    });
  }

  it('the body reader is not called when an earlier check fails', async () => {
    const reader = vi.fn(async () => '{}');
    await receiver.verify({ method: 'POST', headers: { 'content-type': 'application/json' }, body: reader });
    expect(reader).not.toHaveBeenCalled();
  });
});

describe('verify', () => {
  it('returns the typed notification for each kind, keeping unknown members', async () => {
    const receiver = createWebhookReceiver({ credentials: 'none' });
    for (const kind of ['Drift', 'UnmanagedResource', 'GhostResource', 'InsightDetected', 'test'] as const) {
      const payload = { ...generateNotification(kind), futureMember: { a: 1 } };
      const result = await receiver.verify(
        createTestDelivery({ notification: payload, credentials: 'none' }),
      );
      expect(result.ok, kind).toBe(true);
      if (!result.ok) continue;
      expect(result.notification.kind).toBe(kind);
      expect(result.notification.payload).toEqual(payload);
    }
  });

  it('recognises the test delivery (a JSON object with text) as kind "test"', async () => {
    const receiver = createWebhookReceiver({ credentials: header });
    const result = await receiver.verify(
      createTestDelivery({ notification: { text: 'ping' }, credentials: header }),
    );
    expect(result).toEqual({ ok: true, notification: { kind: 'test', payload: { text: 'ping' } } });
  });

  it('accepts the body as a string, a Uint8Array or an ArrayBuffer', async () => {
    const receiver = createWebhookReceiver({ credentials: basic });
    const good = delivery();
    const bytes = new TextEncoder().encode(good.body);
    for (const body of [good.body, bytes, bytes.buffer.slice(0)]) {
      const result = await receiver.verify({ ...good, body });
      expect(result.ok).toBe(true);
    }
  });

  it('reads headers from a web Headers object and from records with any case', async () => {
    const receiver = createWebhookReceiver({ credentials: basic });
    const good = delivery();
    expect((await receiver.verify({ ...good, headers: new Headers(good.headers) })).ok).toBe(true);
    const upper = { Authorization: good.headers.authorization, 'Content-Type': 'application/json' };
    expect((await receiver.verify({ ...good, headers: upper })).ok).toBe(true);
    const listed = {
      authorization: [good.headers.authorization ?? ''],
      'content-type': ['application/json'],
    };
    expect((await receiver.verify({ ...good, headers: listed })).ok).toBe(true);
  });

  it('returns a WebhookError whose JSON is the answer body', async () => {
    const receiver = createWebhookReceiver({ credentials: basic });
    const result = await receiver.verify({ ...delivery(), method: 'GET' });
    if (result.ok) throw new Error('expected a refusal');
    expect(result.error).toBeInstanceOf(WebhookError);
    expect(result.error.status).toBe(405);
    expect(JSON.parse(JSON.stringify(result.error))).toEqual({
      status: 405,
      code: 'method_not_allowed',
      message: result.error.message,
    });
  });
});

describe('handlers', () => {
  it('on(kind) gets the payload typed for its kind; onAny gets every delivery', async () => {
    const receiver = createWebhookReceiver({ credentials: 'none' });
    const seen: string[] = [];
    receiver
      .on('Drift', (payload) => {
        // Typed: drifts exist on Drift samples.
        seen.push(`drift:${payload.samples[0]?.drifts[0]?.keyName}`);
      })
      .on('test', (payload) => {
        seen.push(`test:${payload.text}`);
      })
      .on(['GhostResource', 'UnmanagedResource'], (payload) => {
        seen.push(`resource:${payload.notificationType}`);
      })
      .onAny((notification: WebhookNotification) => {
        seen.push(`any:${notification.kind}`);
      });
    for (const kind of ['Drift', 'test', 'GhostResource', 'InsightDetected'] as const) {
      const answer = await receiver.handle(
        createTestDelivery({ notification: generateNotification(kind), credentials: 'none' }),
      );
      expect(answer.status).toBe(200);
    }
    expect(seen).toEqual([
      'drift:versioning.status',
      'any:Drift',
      `test:${generateNotification('test').text}`,
      'any:test',
      'resource:GhostResource',
      'any:GhostResource',
      'any:InsightDetected',
    ]);
  });

  it('the answer waits for async handlers', async () => {
    let done = false;
    const receiver = createWebhookReceiver({ credentials: 'none' }).on('Drift', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      done = true;
    });
    await receiver.handle(createTestDelivery({ notification: drift, credentials: 'none' }));
    expect(done).toBe(true);
  });

  it('onError gets every refused delivery; its own failures do not change the answer', async () => {
    const codes: string[] = [];
    const receiver = createWebhookReceiver({ credentials: basic })
      .onError(() => {
        throw new Error('logger down');
      })
      .onError(async (error) => {
        codes.push(error.code);
        throw new Error('async logger down');
      });
    expect((await receiver.handle({ ...delivery(), method: 'GET' })).status).toBe(405);
    expect((await receiver.handle(delivery('none'))).status).toBe(401);
    expect(codes).toEqual(['method_not_allowed', 'missing_credentials']);
  });
});

describe('configuration errors', () => {
  it('requires credentials to be a decision', () => {
    expect(() => createWebhookReceiver({} as never)).toThrow(/credentials: 'none'/);
    expect(() => createWebhookReceiver({ credentials: [] })).toThrow(/empty list/);
    expect(() => createWebhookReceiver({ credentials: { type: 'oauth' } as never })).toThrow(/unknown type/);
  });

  it('refuses header values that could never arrive unchanged', () => {
    for (const value of ['', ' Bearer x', 'Bearer x ', 'Bearer\nx', 'Bearer é']) {
      expect(
        () => createWebhookReceiver({ credentials: { type: 'header', value } }),
        JSON.stringify(value),
      ).toThrow(TypeError);
    }
  });

  it('refuses a negative or fractional maxBodyBytes and a realm with quotes', () => {
    expect(() => createWebhookReceiver({ credentials: 'none', maxBodyBytes: -1 })).toThrow(/maxBodyBytes/);
    expect(() => createWebhookReceiver({ credentials: 'none', maxBodyBytes: 1.5 })).toThrow(/maxBodyBytes/);
    expect(() => createWebhookReceiver({ credentials: basic, realm: 'a"b' })).toThrow(/realm/);
  });

  it('uses the configured realm in the challenge', async () => {
    const receiver = createWebhookReceiver({ credentials: basic, realm: 'drift-alerts' });
    const answer = await receiver.handle(delivery('none'));
    expect(answer.headers['www-authenticate']).toBe('Basic realm="drift-alerts", charset="UTF-8"');
  });
});
