import * as installedMsw from 'msw';
import * as installedMswHttp from 'msw/core/http';
import { describe, expect, it } from 'vitest';
import {
  assertSupportedMsw,
  currentRuntime,
  detectMswLine,
  type RuntimeFacts,
  SUPPORTED_MSW_RANGE,
  UnsupportedMswError,
} from '../src/adapters/msw-support.js';

/**
 * Module namespaces shaped like each msw line's exports (the members the check reads, as each
 * release defines them): msw 1 exports `rest` and no `http`; msw 2.0 to 2.14 have no
 * `RequestHandler.prototype.complete`; msw 3's handlers inherit `dispose()` from a `Handler` base.
 */
const all = () => undefined;
class Handler214 {
  run() {}
}
class Handler215 {
  run() {}
  complete() {}
}
class Msw3Base {
  reset() {}
  dispose() {}
}
class Handler3 extends Msw3Base {
  run() {}
  complete() {}
}
const msw1 = { rest: { all }, RequestHandler: Handler214 };
const msw214 = { http: { all }, RequestHandler: Handler214 };
const msw215 = { http: { all }, RequestHandler: Handler215 };
const msw3 = { http: { all }, RequestHandler: Handler3 };

const node = (version: string): RuntimeFacts => ({
  node: version,
  promiseWithResolvers: Number(version.split('.')[0]) >= 22,
});
const browser = (promiseWithResolvers: boolean): RuntimeFacts => ({ promiseWithResolvers });

function problem(msw: Record<string, unknown>, runtime: RuntimeFacts): UnsupportedMswError | undefined {
  try {
    assertSupportedMsw(msw, runtime);
    return undefined;
  } catch (error) {
    return error as UnsupportedMswError;
  }
}

describe('the msw check of createMockServer', () => {
  it('accepts the msw this repository installs (2.15 or later 2.x)', () => {
    expect(detectMswLine(installedMsw)).toBe('msw2');
    expect(() => assertSupportedMsw(installedMsw)).not.toThrow();
  });

  it('tells the line from `msw/core/http` too (`http` alone, as the Node builds load it): a handler it makes', () => {
    expect(detectMswLine(installedMswHttp)).toBe('msw2');
    expect(() => assertSupportedMsw(installedMswHttp)).not.toThrow();
    const madeBy = (Handler: new () => object) => ({ http: { all: () => new Handler() } });
    expect(detectMswLine(madeBy(Handler214))).toBe('msw2<2.15');
    expect(detectMswLine(madeBy(Handler215))).toBe('msw2');
    expect(detectMswLine(madeBy(Handler3))).toBe('msw3');
    expect(problem(madeBy(Handler3), node('20.20.2'))?.message).toContain('msw 3 needs Node >= 22.12');
  });

  it('tells the msw lines apart by their exports', () => {
    expect(detectMswLine(msw1)).toBe('msw<2');
    expect(detectMswLine(msw214)).toBe('msw2<2.15');
    expect(detectMswLine(msw215)).toBe('msw2');
    expect(detectMswLine(msw3)).toBe('msw3');
    expect(detectMswLine({})).toBe('msw<2');
  });

  it('accepts msw 2.15+ everywhere and msw 3 on Node >= 22.12 and on browsers with Promise.withResolvers', () => {
    for (const runtime of [node('20.19.0'), node('22.12.0'), node('24.1.0'), browser(false), browser(true)]) {
      expect(problem(msw215, runtime)).toBeUndefined();
    }
    for (const runtime of [node('22.12.0'), node('22.23.3'), node('24.0.0'), node('26.0.0'), browser(true)]) {
      expect(problem(msw3, runtime)).toBeUndefined();
    }
  });

  it('refuses msw 3 on Node 20 (and 22 before 22.12), naming the Node version, the range and msw 2', () => {
    const error = problem(msw3, node('20.20.2'));
    expect(error).toBeInstanceOf(UnsupportedMswError);
    expect(error?.name).toBe('UnsupportedMswError');
    expect(error?.message).toBe(
      `@iacm/mock-server supports msw ${SUPPORTED_MSW_RANGE}, but msw 3 needs Node >= 22.12 and this is ` +
        'Node 20.20.2. On Node 20 install msw 2: npm i -D msw@^2.15 (or run on Node >= 22.12 to keep msw 3).',
    );
    expect(problem(msw3, node('22.11.0'))?.message).toContain('this is Node 22.11.0');
  });

  it('refuses msw 3 on a browser without Promise.withResolvers', () => {
    expect(problem(msw3, browser(false))?.message).toContain(
      'msw 3 needs Promise.withResolvers, which this runtime lacks. Install msw 2 (npm i -D msw@^2.15)',
    );
  });

  it('refuses msw 1 and msw 2.0 to 2.14, with the install line for the runtime', () => {
    expect(problem(msw1, node('20.20.2'))?.message).toBe(
      `@iacm/mock-server supports msw ${SUPPORTED_MSW_RANGE}, but the installed msw is older than 2 ` +
        '(it has no `http` export). Install a supported one: npm i -D msw@^2.15.',
    );
    expect(problem(msw214, node('24.1.0'))?.message).toBe(
      `@iacm/mock-server supports msw ${SUPPORTED_MSW_RANGE}, but the installed msw is 2.0 to 2.14 ` +
        '(its RequestHandler has no complete()). Install a supported one: npm i -D msw@^3 (or msw@^2.15).',
    );
    expect(problem(msw214, browser(true))?.message).toContain('npm i -D msw@^3 (or msw@^2.15)');
  });

  it('reads the Node version of the running Node (and none in Bun or Deno, which report a compatible one)', () => {
    expect(currentRuntime()).toEqual({
      node: process.versions.node,
      promiseWithResolvers: typeof (Promise as { withResolvers?: unknown }).withResolvers === 'function',
    });
    const versions = process.versions as Record<string, string | undefined>;
    versions.bun = '1.2.0';
    try {
      expect(currentRuntime().node).toBeUndefined();
    } finally {
      delete versions.bun;
    }
  });

  it('names the range the package.json peer dependency declares', async () => {
    const { default: pkg } = await import('../package.json', { with: { type: 'json' } });
    expect(pkg.peerDependencies.msw).toBe(SUPPORTED_MSW_RANGE);
  });
});

describe('the package entries', () => {
  it('export the msw check for instanceof and the range, and the core without msw from ./node', async () => {
    const root = await import('@iacm/mock-server');
    expect(root.SUPPORTED_MSW_RANGE).toBe('^2.15.0 || ^3.0.0');
    expect(new root.UnsupportedMswError('x')).toBeInstanceOf(Error);
    const node = await import('@iacm/mock-server/node');
    expect(node.MockCore).toBe(root.MockCore);
  });
});
