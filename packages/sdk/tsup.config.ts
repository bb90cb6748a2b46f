import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'contract/index': 'src/contract/index.ts',
    'openapi/index': 'src/openapi/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false, // a map would point at src/, which is not published (the release rehearsal checks)
  target: 'es2022',
  platform: 'neutral',
  treeshake: true,
});
