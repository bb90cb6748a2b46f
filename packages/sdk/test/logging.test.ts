import { Writable } from 'node:stream';
import {
  type ClientOptions,
  type DetailsFirstLogger,
  IacmClient,
  IacmError,
  type Logger,
  NotFoundError,
} from '@iacm/sdk';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { workspaceSummary } from './fixtures.js';

/** A fetch that answers every request with `answer()`; it counts the calls. */
function fakeFetch(answer: () => Response | Promise<Response>): typeof fetch {
  return (async () => answer()) as typeof fetch;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req_42', ...headers },
  });

const notFound = () =>
  json(404, { status: 404, code: 'not_found', message: 'no such workspace', requestId: 'req_42' });

/** A console-like logger that records `level message details` lines. */
function recorder() {
  const calls: Array<{ level: string; args: unknown[] }> = [];
  const method =
    (level: string) =>
    (...args: unknown[]) => {
      calls.push({ level, args });
    };
  const logger: Logger = {
    error: method('error'),
    warn: method('warn'),
    info: method('info'),
    debug: method('debug'),
  };
  return { logger, calls, levels: () => calls.map((c) => c.level) };
}

function client(options: ClientOptions): IacmClient {
  return new IacmClient({ baseUrl: 'https://iacm.test', auth: { token: 't' }, maxRetries: 0, ...options });
}

let savedLog: string | undefined;
beforeEach(() => {
  savedLog = process.env.IACM_LOG;
  delete process.env.IACM_LOG;
});
afterEach(() => {
  if (savedLog === undefined) delete process.env.IACM_LOG;
  else process.env.IACM_LOG = savedLog;
});

describe('what is logged at which level', () => {
  it('does not log an error the caller receives above debug (4xx, 5xx, no answer)', async () => {
    const { logger, calls } = recorder();
    const answers = [
      notFound,
      () => json(503, { status: 503, code: 'service_unavailable', message: 'down' }),
    ];
    for (const answer of answers) {
      await expect(client({ logger, fetch: fakeFetch(answer) }).workspaces.search()).rejects.toBeInstanceOf(
        IacmError,
      );
    }
    const refused = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    await expect(client({ logger, fetch: refused }).workspaces.search()).rejects.toThrow(/could not reach/);
    expect(calls).toEqual([]);
  });

  it('logs the error the caller receives at debug, with its request id', async () => {
    const { logger, calls } = recorder();
    const error = await client({ logger, logLevel: 'debug', fetch: fakeFetch(notFound) })
      .workspaces.search()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const line = calls.find((c) => String(c.args[0]).includes('404 not_found'));
    expect(line).toEqual({
      level: 'debug',
      args: [`[iacm] ${(error as Error).message}`, { requestId: 'req_42' }],
    });
    expect(calls.every((c) => c.level === 'debug')).toBe(true);
  });

  it('still shows at the default level what validation "warn" lets through', async () => {
    const { logger, calls } = recorder();
    const broken = [{ ...workspaceSummary, runsCount: 'many' }];
    const lenient = client({ logger, validation: 'warn', fetch: fakeFetch(() => json(200, broken)) });
    expect(await lenient.workspaces.search()).toEqual(broken);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.level).toBe('warn');
    expect(calls[0]?.args[0]).toBe('[iacm] workspaces.search: the answer does not match the contract');
    expect(calls[0]?.args[1]).toMatchObject({ requestId: 'req_42', issues: [{ path: '[0].runsCount' }] });
  });
});

describe('IACM_LOG', () => {
  const debugLines = async (options: ClientOptions = {}) => {
    const { logger, levels } = recorder();
    await client({ logger, fetch: fakeFetch(() => json(200, [])), ...options }).workspaces.search();
    return levels().filter((level) => level === 'debug').length;
  };

  it('sets the level when the logLevel option is absent, in any case', async () => {
    expect(await debugLines()).toBe(0);
    process.env.IACM_LOG = 'debug';
    expect(await debugLines()).toBeGreaterThan(0);
    process.env.IACM_LOG = ' DEBUG ';
    expect(await debugLines()).toBeGreaterThan(0);
  });

  it('gives way to the logLevel option', async () => {
    process.env.IACM_LOG = 'debug';
    expect(await debugLines({ logLevel: 'warn' })).toBe(0);
    process.env.IACM_LOG = 'loud';
    expect(await debugLines({ logLevel: 'debug' })).toBeGreaterThan(0);
  });

  it('refuses an unknown value, naming the variable and the valid values', () => {
    process.env.IACM_LOG = 'verbose';
    expect(() => client({})).toThrow(
      new IacmError(
        'environment variable IACM_LOG: expected one of off, error, warn, info, debug, received "verbose"',
      ),
    );
  });
});

describe('the logger and loggerStyle options', () => {
  it('refuses a logger without the four methods, and an unknown style', () => {
    expect(() => client({ logger: { warn() {}, error() {} } as never })).toThrow(
      'option logger: expected an object with error, warn, info and debug methods; info, debug are missing',
    );
    expect(() => client({ logger: 'console' as never })).toThrow(/option logger: expected an object/);
    expect(() => client({ loggerStyle: 'pino' as never })).toThrow(
      'option loggerStyle: expected "message-first" or "details-first", received "pino"',
    );
    expect(() => client({ logLevel: 'verbose' as never })).toThrow(
      'option logLevel: expected one of off, error, warn, info, debug, received "verbose"',
    );
  });

  const lenientCall = async (options: ClientOptions) => {
    const broken = [{ ...workspaceSummary, runsCount: 'many' }];
    await client({
      validation: 'warn',
      fetch: fakeFetch(() => json(200, broken)),
      ...options,
    }).workspaces.search();
  };

  it('calls a console-like logger (message, details)', async () => {
    const { logger, calls } = recorder();
    await lenientCall({ logger });
    expect(typeof calls[0]?.args[0]).toBe('string');
    expect(calls[0]?.args[1]).toMatchObject({ requestId: 'req_42' });
  });

  it('calls a pino-like logger, or any logger given loggerStyle "details-first", (details, message)', async () => {
    const { logger, calls } = recorder();
    const pinoLike = { ...logger, child: () => pinoLike, bindings: () => ({}), levels: { values: {} } };
    await lenientCall({ logger: pinoLike });
    await lenientCall({ logger, loggerStyle: 'details-first' });
    expect(calls).toHaveLength(2);
    for (const call of calls) {
      expect(call.args[0]).toMatchObject({ requestId: 'req_42' });
      expect(call.args[1]).toBe('[iacm] workspaces.search: the answer does not match the contract');
    }
    calls.length = 0;
    await lenientCall({ logger: pinoLike, loggerStyle: 'message-first' });
    expect(typeof calls[0]?.args[0]).toBe('string');
  });

  it('gives a details-first logger an object even when a line has no details', async () => {
    const { logger, calls } = recorder();
    await client({
      logger: logger as unknown as DetailsFirstLogger,
      loggerStyle: 'details-first',
      logLevel: 'debug',
      fetch: fakeFetch(() => Promise.reject(new TypeError('fetch failed'))),
    })
      .workspaces.search()
      .catch(() => undefined);
    const failure = calls.find((c) => String(c.args[1]).includes('could not reach'));
    expect(failure?.args).toEqual([
      {},
      '[iacm] workspaces.search: could not reach https://iacm.test: fetch failed',
    ]);
  });

  it('puts the message and the details in the right fields of a real pino logger', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    });
    const logger = pino({ level: 'debug' }, stream);
    await lenientCall({ logger });
    await lenientCall({ logger: logger.child({ component: 'sync' }) });
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatchObject({
        level: 40,
        msg: '[iacm] workspaces.search: the answer does not match the contract',
        requestId: 'req_42',
        issues: [{ path: '[0].runsCount' }],
      });
    }
    expect(lines[1]).toMatchObject({ component: 'sync' });
  });
});
