import { defineConfig, type Options } from 'tsup';

/**
 * The published builds import `#msw-http` (package.json `imports`) where the source imports
 * `./msw-http/index.js`: on Node it resolves to a module that loads msw 2's `msw/core/http` instead of
 * msw's main entry (80 to 130 ms of a test file's start: docs/performance.md, ST); elsewhere
 * (bundlers for the browser) to the namespace import the source has.
 */
const mswHttpAsPackageImport: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'msw-http-as-package-import',
  setup(build) {
    build.onResolve({ filter: /\/msw-http\/index\.js$/ }, () => ({ path: '#msw-http', external: true }));
  },
};

/** The options of every `#msw-http` build: one module, msw external. */
const mswHttpBuild = {
  dts: false,
  sourcemap: false,
  target: 'es2022',
  platform: 'neutral',
  clean: false,
} as const;

export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      node: 'src/node.ts',
      vitest: 'src/vitest.ts',
      remote: 'src/remote.ts',
      'vitest-setup': 'src/vitest-setup.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    clean: false,
    sourcemap: false, // a map would point at src/, which is not published (the release rehearsal checks)
    target: 'es2022',
    platform: 'neutral',
    treeshake: true,
    esbuildPlugins: [mswHttpAsPackageImport],
  },
  // `#msw-http`: the source's namespace import (browsers, bundlers), and the Node builds.
  { ...mswHttpBuild, entry: { 'msw-http': 'src/adapters/msw-http/index.ts' }, format: ['esm', 'cjs'] },
  {
    ...mswHttpBuild,
    entry: { 'msw-http-node': 'src/adapters/msw-http/node.ts' },
    format: ['esm', 'cjs'],
    platform: 'node',
    // Its CommonJS build reads `__filename` where `import.meta` is empty, as the module says.
    esbuildOptions(options) {
      options.logOverride = { 'empty-import-meta': 'silent' };
    },
  },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    dts: false,
    sourcemap: false, // a map would point at src/, which is not published (the release rehearsal checks)
    target: 'es2022',
    platform: 'node',
  },
]);
