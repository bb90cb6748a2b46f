/**
 * Where the benchmark finds the built packages and their dependencies. Every subject is measured as
 * a user gets it: the built `dist/` of each package, never the TypeScript sources.
 */
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The benchmark folder. */
export const BENCH = join(ROOT, 'bench');

const packages = {
  sdk: join(ROOT, 'packages', 'sdk'),
  mock: join(ROOT, 'packages', 'mock-server'),
  receiver: join(ROOT, 'packages', 'webhook-receiver'),
};

/** Built files the benchmark runs. */
export const DIST = {
  sdk: join(packages.sdk, 'dist', 'index.js'),
  mock: join(packages.mock, 'dist', 'index.js'),
  mockNode: join(packages.mock, 'dist', 'node.js'),
  mockCli: join(packages.mock, 'dist', 'cli.js'),
  receiver: join(packages.receiver, 'dist', 'index.js'),
  receiverNode: join(packages.receiver, 'dist', 'node.js'),
};

/** A file path as an `import()` specifier. */
export function url(path) {
  return pathToFileURL(path).href;
}

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const time = entry.isDirectory() ? newest(path) : statSync(path).mtimeMs;
    if (time > latest) latest = time;
  }
  return latest;
}

/**
 * Checks that every package is built. Returns the packages whose sources changed after their build
 * (measured anyway, with a warning); throws, naming the command, when a build is missing.
 * @returns {string[]}
 */
export function checkBuilds() {
  const missing = Object.entries(DIST).filter(([, path]) => !existsSync(path));
  if (missing.length > 0) {
    throw new Error(
      `the benchmark measures the built packages, and ${missing.map(([, p]) => p.slice(ROOT.length + 1)).join(', ')} ` +
        'is missing: run `pnpm build` first',
    );
  }
  const stale = [];
  for (const [name, dir] of Object.entries(packages)) {
    const built = statSync(join(dir, 'dist')).mtimeMs;
    const sources = newest(join(dir, 'src'));
    if (sources > built)
      stale.push(
        name === 'mock' ? '@iacm/mock-server' : name === 'sdk' ? '@iacm/sdk' : '@iacm/webhook-receiver',
      );
  }
  return stale;
}

/**
 * The ESM entry file of `specifier` (a package name with an optional subpath) as installed for one of
 * our packages: the same instance that package's `dist` imports.
 * @param {'sdk' | 'mock' | 'receiver'} from the package whose dependency it is
 * @param {string} specifier like `msw/node`
 * @returns {string} a file URL
 */
export function dependencyUrl(from, specifier) {
  const parts = specifier.split('/');
  const nameLength = specifier.startsWith('@') ? 2 : 1;
  const name = parts.slice(0, nameLength).join('/');
  const subpath = ['.', ...parts.slice(nameLength)].join('/');
  const dir = realpathSync(join(packages[from], 'node_modules', name));
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const pick = (target) => {
    if (typeof target === 'string') return target;
    if (target === null || typeof target !== 'object') return undefined;
    for (const condition of ['node', 'import', 'default']) {
      const found = pick(target[condition]);
      if (found !== undefined && !found.endsWith('.d.ts') && !found.endsWith('.d.mts')) return found;
    }
    return undefined;
  };
  // `exports` may be the root's conditions themselves (ky's: `{ types, default }`), or a map of subpaths.
  const exportsMap = manifest.exports;
  const sugar =
    exportsMap &&
    typeof exportsMap === 'object' &&
    !Object.keys(exportsMap).some((key) => key.startsWith('.'));
  const entry = pick(sugar ? (subpath === '.' ? exportsMap : undefined) : exportsMap?.[subpath]);
  if (entry === undefined) throw new Error(`cannot find the ESM entry of ${specifier} in ${dir}`);
  return url(join(dir, entry));
}
