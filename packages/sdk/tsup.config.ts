import { defineConfig, type Options } from 'tsup';

const shared = {
  entry: {
    index: 'src/index.ts',
    'contract/index': 'src/contract/index.ts',
    'openapi/index': 'src/openapi/index.ts',
  },
  dts: true,
  sourcemap: false, // a map would point at src/, which is not published (the release rehearsal checks)
  target: 'es2022',
  platform: 'neutral',
  treeshake: true,
} satisfies Options;

export default defineConfig([
  // ESM: ky stays a dependency, imported as the user's npm installed it.
  { ...shared, format: ['esm'] },
  // CommonJS: ky is ESM-only, so it is bundled into the CJS output (no `require(esm)`, no warning on
  // any Node the engines allow); its types still come from the `ky` dependency.
  { ...shared, format: ['cjs'], noExternal: ['ky'] },
]);
