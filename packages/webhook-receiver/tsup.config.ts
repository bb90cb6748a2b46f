import { defineConfig } from 'tsup';

export default defineConfig({
  // The payload schema comes from `@iacm/sdk/contract` (a devDependency, read from the SDK's sources
  // through this package's tsconfig paths) and is bundled, code and declarations, so that the published
  // receiver depends on no sibling package; zod stays an external dependency.
  entry: { index: 'src/index.ts', node: 'src/node.ts' },
  noExternal: ['@iacm/sdk'],
  format: ['esm', 'cjs'],
  dts: { resolve: ['@iacm/sdk'] },
  clean: true,
  sourcemap: false, // a map would point at src/, which is not published (the release rehearsal checks)
  target: 'es2022',
  platform: 'neutral',
  // zod schema builders are pure: unused contract schemas next to the webhook ones are dropped.
  treeshake: { preset: 'recommended', manualPureFunctions: ['z'] },
});
