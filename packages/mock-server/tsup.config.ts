import { defineConfig } from 'tsup';

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
