import { createRequire } from 'node:module';
import { inspect } from 'node:util';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  IacmClient,
  type IacmError,
  NotFoundError,
  RateLimitError,
} from '@iacm/sdk';
import { describe, expect, it } from 'vitest';

/** Vitest's own error processing (what a failing test's error goes through), resolved from vitest. */
const vitestUtils = createRequire(createRequire(import.meta.url).resolve('vitest/package.json')).resolve(
  '@vitest/utils/error',
);
const { processError } = (await import(vitestUtils)) as { processError: (error: unknown) => unknown };

const SECRET = 'tok_9f8e7d6c5b4a39281706f5e4d3c2b1a0';

function circular(): object {
  const value: Record<string, unknown> = { name: 'loop' };
  value.self = value;
  return value;
}

/** Causes of every odd kind a fetch or an abort can produce. */
const causes: Record<string, () => unknown> = {
  'a null-prototype object': () => Object.assign(Object.create(null), { token: SECRET }),
  'an object whose toString throws': () => ({
    toString() {
      throw new Error('no string for you');
    },
    secret: SECRET,
  }),
  'a symbol': () => Symbol(SECRET),
  'a bigint': () => 12345678901234567890n,
  'a circular object': circular,
  'an error with a cause of its own': () =>
    new TypeError('fetch failed', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    }),
  'a DOMException': () => new DOMException('This operation was aborted', 'AbortError'),
  'a string': () => 'the user navigated away',
  null: () => null,
  'a function': () => () => SECRET,
};

const makers: Record<string, (cause: unknown) => IacmError> = {
  APIConnectionError: (cause) => new APIConnectionError('workspaces.search', 'could not reach x', cause),
  APIConnectionTimeoutError: (cause) =>
    new APIConnectionTimeoutError('workspaces.search', 'no answer', cause),
  APIUserAbortError: (cause) => new APIUserAbortError('workspaces.search', cause),
};

/** Every way a test runner or a log pipeline turns an error into text or data. */
function serialisations(make: () => IacmError): Record<string, string> {
  return {
    String: String(make()),
    'JSON.stringify': JSON.stringify(make()),
    'util.inspect': inspect(make(), { depth: Number.POSITIVE_INFINITY }),
    'util.inspect (showHidden)': inspect(make(), { depth: 4, showHidden: true }),
    // Vitest processes a failing test's error, then posts it to the main thread (a structured clone).
    vitest: inspect(structuredClone(processError(make())), { depth: Number.POSITIVE_INFINITY }),
    toJSON: JSON.stringify(make().toJSON()),
  };
}

describe('errors with causes of every kind', () => {
  for (const [causeName, cause] of Object.entries(causes)) {
    for (const [errorName, make] of Object.entries(makers)) {
      it(`serialise without throwing: ${errorName} caused by ${causeName}`, () => {
        const forms = serialisations(() => make(cause()));
        for (const text of Object.values(forms)) expect(text).toContain('workspaces.search');
        const json = JSON.parse(forms.toJSON as string) as Record<string, unknown>;
        expect(json).toMatchObject({ name: errorName, endpoint: 'workspaces.search' });
        expect(json).toHaveProperty('cause');
        // JSON never describes an arbitrary object's content: it could hold a credential.
        expect(forms.toJSON).not.toContain(SECRET);
        expect(forms['JSON.stringify']).not.toContain(SECRET);
      });
    }
  }

  it('describe an error cause by its name and message, following its own causes', () => {
    const error = makers.APIConnectionError?.(causes['an error with a cause of its own']?.());
    expect(error?.toJSON().cause).toEqual({
      name: 'TypeError',
      message: 'fetch failed',
      cause: { name: 'Error', message: 'connect ECONNREFUSED' },
    });
  });

  it('describe other causes by their value or only their kind', () => {
    const described = Object.fromEntries(
      Object.entries(causes).map(([name, cause]) => [
        name,
        new APIUserAbortError('health', cause()).toJSON().cause,
      ]),
    );
    expect(described).toMatchObject({
      'a null-prototype object': 'an object',
      'an object whose toString throws': 'an object',
      'a symbol': 'a symbol',
      'a bigint': '12345678901234567890n',
      'a circular object': 'an object',
      'a string': 'the user navigated away',
      null: 'null',
      'a function': 'a function',
      'a DOMException': { name: 'AbortError', message: 'This operation was aborted' },
    });
  });

  it('keep the cause itself as the standard cause', () => {
    const reason = Object.create(null);
    expect(new APIUserAbortError('health', reason).cause).toBe(reason);
  });
});

describe('errors the client throws carry no credential', () => {
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_7', ...headers },
    });

  const thrownBy = (fetchImpl: typeof fetch, timeout = 60_000) =>
    new IacmClient({
      baseUrl: 'https://iacm.test',
      auth: { token: SECRET },
      maxRetries: 0,
      timeout,
      logLevel: 'off',
      fetch: fetchImpl,
    }).workspaces
      .search()
      .then(
        () => {
          throw new Error('expected the call to fail');
        },
        (error: unknown) => error as IacmError,
      );

  it('a timeout does not keep the request (whose headers hold the token)', async () => {
    const never = (() => new Promise<Response>(() => undefined)) as typeof fetch;
    const error = await thrownBy(never, 20);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(error.cause).toBeInstanceOf(Error);
    for (const text of Object.values(serialisations(() => error))) expect(text).not.toContain(SECRET);
    expect(inspect(error, { depth: Number.POSITIVE_INFINITY, showHidden: true })).not.toContain(SECRET);
  });

  it('an error answer keeps neither a secret response header nor a credential echoed in the body', async () => {
    const error = await thrownBy((async () =>
      answer(
        404,
        { status: 404, code: 'not_found', message: 'gone', accessToken: SECRET },
        { 'set-cookie': `session=${SECRET}` },
      )) as typeof fetch);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).headers['set-cookie']).toBe('[redacted]');
    expect((error as NotFoundError).body).toMatchObject({ code: 'not_found', accessToken: '[redacted]' });
    expect(error.toJSON()).toMatchObject({ status: 404, code: 'not_found', requestId: 'req_7' });
    for (const text of Object.values(serialisations(() => error))) expect(text).not.toContain(SECRET);
  });

  it('a fetch that rejects with a null-prototype object gives a connection error, not a TypeError', async () => {
    const odd = Object.assign(Object.create(null), { token: SECRET });
    const error = await thrownBy((() => Promise.reject(odd)) as typeof fetch);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error.message).toBe(
      'workspaces.search: could not reach https://iacm.test: it rejected with an object',
    );
    expect(JSON.stringify(error)).not.toContain(SECRET);
  });

  it('a base URL with a user name and password is refused without echoing them', () => {
    const make = () => new IacmClient({ baseUrl: `https://robot:${SECRET}@iacm.test`, auth: { token: 't' } });
    expect(make).toThrow(
      'option baseUrl: expected a URL without a user name or password (fetch refuses them); pass credentials with the auth option',
    );
  });

  it('a rate limit error serialises with its retryAfter', async () => {
    const error = await thrownBy((async () =>
      answer(
        429,
        { status: 429, code: 'rate_limited', message: 'slow down' },
        { 'retry-after': '3' },
      )) as typeof fetch);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'RateLimitError',
      message: 'workspaces.search: 429 rate_limited: slow down',
      endpoint: 'workspaces.search',
      status: 429,
      code: 'rate_limited',
      requestId: 'req_7',
      body: { status: 429, code: 'rate_limited', message: 'slow down' },
      retryAfter: 3,
    });
  });
});
