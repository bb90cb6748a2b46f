/**
 * `#msw-http` in the published builds on Node (ES and CommonJS, one source): msw 2's `msw/core/http`
 * (its `http` without the main entry's graphql), else msw 3's `msw/http` (2 to 3 ms where its main
 * entry takes 7 to 11), else msw's main entry (an msw with neither; or no msw at all, which then fails
 * as a static import would). See `./index.ts`.
 *
 * It loads them with a `require` made for this file, synchronously: no top-level `await`, so that a
 * bundler that turns this ES build into CommonJS (esbuild `--format=cjs --platform=node`) can still
 * bundle it. msw 2 comes as its CommonJS build (`msw/node`'s bundle is its own copy either way: msw
 * tells handlers by their kind, not their class); msw 3, ESM only, through `require(esm)` (Node 20.19
 * and 22.12 on, which msw 3 needs anyway) as the same module instance an `import` gets.
 *
 * @module
 */
import type * as mswMain from 'msw';

type MswHttpModule = { http?: typeof mswMain.http; RequestHandler?: unknown };

/** The CommonJS module's own path, where this runs as CommonJS (a bundle made CommonJS). */
declare const __filename: string | undefined;

/** A `require` that resolves from this file (msw is our peer, found beside us). */
function requireHere(): (id: string) => unknown {
  // In an ES module, its URL; in CommonJS output, `import.meta` is empty and `__filename` is the file.
  const here =
    typeof import.meta.url === 'string'
      ? import.meta.url
      : typeof __filename === 'string'
        ? __filename
        : `${process.cwd()}/`;
  return process.getBuiltinModule('node:module').createRequire(here);
}

function load(): MswHttpModule {
  const require = requireHere();
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
