import { readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const require = createRequire(import.meta.url);

/**
 * Serves MSW's service worker script at `/mockServiceWorker.js`: from `node_modules` in dev, and as
 * an emitted asset in the build. The script comes from the installed `msw`, so it always matches the
 * library version and no copy is committed.
 */
function mswServiceWorker(): Plugin {
  const fileName = 'mockServiceWorker.js';
  const source = () => readFileSync(require.resolve(`msw/${fileName}`), 'utf8');
  return {
    name: 'iacm:msw-service-worker',
    configureServer(server) {
      server.middlewares.use(`/${fileName}`, (_req, res) => {
        res.setHeader('Content-Type', 'text/javascript; charset=utf-8');
        res.setHeader('Cache-Control', 'no-store');
        res.end(source());
      });
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName, source: source() });
    },
  };
}

const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/**
 * Fails the build when browser code imports a Node built-in (Vite would otherwise replace it with an
 * empty stub and only warn): `@iacm/mock-server` and `@iacm/sdk` must stay browser-safe.
 */
function noNodeBuiltins(): Plugin {
  return {
    name: 'iacm:no-node-builtins',
    enforce: 'pre',
    resolveId(id, importer) {
      if (nodeBuiltins.has(id)) {
        this.error(
          `"${id}" is a Node built-in, imported by ${importer ?? 'an entry'}: browser code cannot use it`,
        );
      }
      return null;
    },
  };
}

/** The dashboard runs against the packages' sources, so no package build is needed. */
export default defineConfig({
  root: here('.'),
  base: '/',
  publicDir: false,
  resolve: {
    alias: [
      { find: /^@iacm\/sdk\/contract$/, replacement: here('../../packages/sdk/src/contract/index.ts') },
      { find: /^@iacm\/sdk$/, replacement: here('../../packages/sdk/src/index.ts') },
      { find: /^@iacm\/mock-server$/, replacement: here('../../packages/mock-server/src/index.ts') },
      {
        find: /^@iacm\/webhook-receiver$/,
        replacement: here('../../packages/webhook-receiver/src/index.ts'),
      },
    ],
  },
  plugins: [noNodeBuiltins(), mswServiceWorker()],
  build: { target: 'es2022', sourcemap: true, chunkSizeWarningLimit: 1024 },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
