/**
 * `#msw-http` in the published CommonJS build on Node: msw 2's `msw/core/http`, else msw 3's
 * `msw/http` (loaded through `require(esm)` on the Node it supports), else msw's main entry. See
 * `./index.ts` and `./node.ts`.
 *
 * @module
 */
import type * as mswMain from 'msw';

type MswHttpModule = { http?: typeof mswMain.http; RequestHandler?: unknown };

declare const require: (id: string) => unknown;

function load(): MswHttpModule {
  try {
    return require('msw/core/http') as MswHttpModule;
  } catch {}
  try {
    return require('msw/http') as MswHttpModule;
  } catch {
    return require('msw') as MswHttpModule;
  }
}

const loaded = load();

/** msw's `http` namespace (typed as msw 2 and 3 have it; undefined at run time in msw 1, which had `rest`: the check in createMockServer reads it). */
export const http = loaded.http as typeof mswMain.http;

/** msw's `RequestHandler` class, where the entry loaded exports it (undefined from `msw/core/http`). */
export const RequestHandler: unknown = loaded.RequestHandler;
