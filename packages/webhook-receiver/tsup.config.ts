import { defineConfig } from 'tsup';

export default defineConfig({
  // The payload schema comes from packages/sdk/src/contract/webhooks.ts by relative path and is bundled;
  // zod stays an external dependency.
  entry: { index: 'src/index.ts', node: 'src/node.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
  platform: 'neutral',
  // zod schema builders are pure: unused contract schemas next to the webhook ones are dropped.
  treeshake: { preset: 'recommended', manualPureFunctions: ['z'] },
});
