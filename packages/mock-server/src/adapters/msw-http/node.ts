/**
 * `#msw-http` in the published ES build on Node: msw 2's `msw/core/http` (its `http` without the main
 * entry's graphql), else msw 3's `msw/http` (2 to 3 ms where its main entry takes 7 to 11), else msw's
 * main entry (an msw with neither; or no msw at all, which then fails as a static import would). See
 * `./index.ts`.
 *
 * @module
 */
import type * as mswMain from 'msw';

type MswHttpModule = { http?: typeof mswMain.http; RequestHandler?: unknown };

/** msw 3's own `http` subpath (a variable: msw 2, which the repository types against, has none). */
const MSW3_HTTP = 'msw/http';

async function load(): Promise<MswHttpModule> {
  try {
    return (await import('msw/core/http')) as MswHttpModule;
  } catch {}
  try {
    return (await import(/* @vite-ignore */ MSW3_HTTP)) as MswHttpModule;
  } catch {
    return (await import('msw')) as MswHttpModule;
  }
}

const loaded = await load();

/** msw's `http` namespace (typed as msw 2 and 3 have it; undefined at run time in msw 1, which had `rest`: the check in createMockServer reads it). */
export const http = loaded.http as typeof mswMain.http;

/** msw's `RequestHandler` class, where the entry loaded exports it (undefined from `msw/core/http`). */
export const RequestHandler: unknown = loaded.RequestHandler;
