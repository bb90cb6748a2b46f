/**
 * The msw pieces the MSW adapter builds with: `http` (its catch-all handlers) and `RequestHandler`
 * (which msw line is installed). This module is what source, tests and bundlers for the browser see:
 * a namespace import of msw's main entry.
 *
 * The published Node builds load a leaner one in its place (`package.json` `imports` `#msw-http`, the
 * `node` condition; `tsup.config.ts` maps this module to it): msw 2's main entry loads graphql, about 50
 * ES modules and 110 CommonJS files, 80 to 130 ms of every test file's start, none of which the mock
 * uses; `msw/core/http` (msw 2) has `http` alone. msw 3 has no `msw/core/http` but `msw/http` (its main
 * entry is cheap, and the last fallback): `./node.ts`. docs/performance.md, ST.
 *
 * @module
 */
// A namespace import: an msw without some of these exports (msw 1 has no `http`) must reach the check
// in createMockServer instead of failing at link time.
import * as msw from 'msw';

/** msw's `http` namespace (typed as msw 2 and 3 have it; undefined at run time in msw 1, which had `rest`: the check in createMockServer reads it). */
export const http: typeof msw.http = msw.http;

/** msw's `RequestHandler` class, where the entry loaded exports it (undefined from `msw/core/http`). */
export const RequestHandler: unknown = msw.RequestHandler;
