/**
 * The release rehearsal (`pnpm release:rehearse`): the real release steps, run on a scratch copy of
 * the repository and published to a local registry instead of npm.
 *
 * 1. scratch    `git clone` of the repository's HEAD into a temporary directory: the rehearsal is of
 *               what is committed (uncommitted changes in the working tree are not part of it; it
 *               says how many there are). The working tree is never written.
 * 2. install    `pnpm install --frozen-lockfile --prefer-offline` there (the store is warm).
 * 3. version    tools/release/version.ts: `changeset version`, the version constants, docs/openapi.json.
 *               With no changeset pending (the versioned tree of a release commit, as right after
 *               `pnpm release:version`), nothing is versioned: the versions are published as they
 *               are, after checking that each CHANGELOG has its section and each constant its version.
 * 4. build      `pnpm build`.
 * 5. registry   Verdaccio (tools/verdaccio, `npm ci --prefix tools/verdaccio` first) on 127.0.0.1 and
 *               a free port, storing in the temporary directory; @iacm/* published anonymously and
 *               never proxied, everything else proxied to the public registry.
 * 6. publish    `pnpm publish` of the three packages to it (`workspace:*` becomes the version).
 * 7. inspect    each published tarball, as the registry serves it.
 * 8. install    a fresh npm project installs @iacm/sdk, @iacm/mock-server and @iacm/webhook-receiver by
 *    by name    name (`@iacm:registry=` in its .npmrc), plus msw.
 * 9. smoke      the packed-tarball suite's smoke programs (tests/packed/programs.ts, ESM and CJS: every
 *               entry point of the three packages), the version constants and `iacm-mock --version`.
 *
 * It fails (exit 1, naming every problem) when:
 * - the three versions differ after `changeset version` (they are a
 *   `fixed` group in .changeset/config.json), or a version did not go up; on a versioned tree, the
 *   three versions differ, or a `VERSION` constant or docs/openapi.json's `info.version` is not
 *   the packages' version;
 * - a package's CHANGELOG.md has no section for its new version, the section is empty, or it lacks
 *   the text of a changeset that names the package;
 * - a published tarball: is not the version, has a `files` without `dist`, misses a file its
 *   package.json points at (main, module, types, exports, bin), README.md, CHANGELOG.md or LICENSE,
 *   ships tests, configuration, sources (src/, unless `files` names it) or a source map whose
 *   `sources` are not in the tarball, keeps a `workspace:` range, or depends on a sibling at
 *   another version;
 * - the fresh project does not get the three packages from the local registry at the new version, or
 *   a smoke program does not print what it should, or a `VERSION` constant is not the package's version.
 *
 * Each phase prints its time; the total is printed at the end.
 *
 * Usage: pnpm release:rehearse [--repo <dir>] [--keep]
 *   --repo <dir>  rehearse the HEAD of this git repository instead of this one (to rehearse a branch
 *                 or a deliberately broken commit: the rehearsal's own tools come from this one)
 *   --keep        keep the temporary directory (printed) instead of removing it
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { PACKAGE_DIRS, packageVersions, VERSION_CONSTANTS, versionRelease } from './version.js';

const here = fileURLToPath(new URL('../..', import.meta.url));
const verdaccioDir = join(here, 'tools', 'verdaccio');
const verdaccioBin = join(verdaccioDir, 'node_modules', '.bin', 'verdaccio');

// ---------------------------------------------------------------------------------------------------
// Arguments

const argv = process.argv.slice(2);
const options = { repo: here, keep: false };
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  if (arg === '--keep') options.keep = true;
  else if (arg === '--repo') {
    const value = argv[++i];
    if (!value || !existsSync(join(value, '.git'))) {
      fail(`--repo: expected the directory of a git repository, received ${JSON.stringify(value ?? null)}`);
    }
    options.repo = value as string;
  } else
    fail(`unknown argument ${JSON.stringify(arg)}; usage: pnpm release:rehearse [--repo <dir>] [--keep]`);
}

function fail(message: string): never {
  console.error(`release rehearsal: ${message}`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------------
// Child processes and phases

interface Ran {
  code: number | null;
  output: string;
}

/** The environment for the tools: ours without pnpm's run-script variables (npm_config_*...). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|pnpm_)/i.test(key)) continue;
    if (/^(NODE_OPTIONS|NODE_PATH|INIT_CWD)$/.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command to its end (killed after `timeoutMs`); throws with its output unless it exits 0. */
function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv = cleanEnv(),
  timeoutMs = 300_000,
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve({ code, output });
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} (in ${cwd}) exited ${code ?? signal}\n${output.trimEnd().slice(-6000)}`,
          ),
        );
    });
  });
}

const times: string[] = [];
const started = Date.now();

/** Runs one phase, printing its name and how long it took. */
async function phase<T>(name: string, body: () => Promise<T> | T): Promise<T> {
  console.log(`\n::: ${name}`);
  const start = Date.now();
  try {
    return await body();
  } finally {
    const took = ((Date.now() - start) / 1000).toFixed(1);
    times.push(`${name.padEnd(34)} ${took.padStart(6)} s`);
    console.log(`::: ${name} took ${took} s`);
  }
}

/** The problems found by the checks; the rehearsal fails at the end of a phase that found any. */
const problems: string[] = [];
function check(ok: boolean, problem: string): void {
  if (!ok) problems.push(problem);
}
function stopOnProblems(phaseName: string): void {
  if (problems.length === 0) return;
  throw new Error(
    `${phaseName}: ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`,
  );
}

// ---------------------------------------------------------------------------------------------------
// Changesets

interface Changeset {
  file: string;
  packages: Record<string, string>;
  summary: string;
}

/** The pending changesets of a repository (.changeset/*.md but its README). */
function pendingChangesets(root: string): Changeset[] {
  const dir = join(root, '.changeset');
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md') && file.toLowerCase() !== 'readme.md')
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8').replace(/\r\n/g, '\n');
      const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
      if (!match) throw new Error(`.changeset/${file}: expected a front matter between --- lines`);
      const packages = Object.fromEntries(
        (match[1] as string)
          .split('\n')
          .map((line) => /^\s*["']?([^"':]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line))
          .filter((m): m is RegExpExecArray => m !== null)
          .map((m) => [m[1] as string, m[2] as string]),
      );
      return { file, packages, summary: (match[2] as string).trim() };
    });
}

/** The section of a CHANGELOG under `## <version>`, up to the next `## ` heading. */
function changelogSection(text: string, version: string): string | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${version}`);
  if (start < 0) return undefined;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => /^## /.test(line));
  return (end < 0 ? rest : rest.slice(0, end)).join('\n').trim();
}

/** a.b.c greater than x.y.z (release versions only, as changesets writes them here). */
function greater(a: string, b: string): boolean {
  const pa = a.split(/[.-]/).map(Number);
  const pb = b.split(/[.-]/).map(Number);
  for (let i = 0; i < 3; i++) {
    if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) > (pb[i] ?? 0);
  }
  return false;
}

// ---------------------------------------------------------------------------------------------------
// Tarballs

/** The `package/...` paths of a tarball. */
async function tarList(tarball: string): Promise<string[]> {
  const { output } = await run('tar', ['-tzf', tarball], dirname(tarball));
  return output
    .trim()
    .split('\n')
    .filter((line) => line && !line.endsWith('/'));
}

/** Every string under an `exports` value (conditions and subpaths). */
function exportTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value && typeof value === 'object') return Object.values(value).flatMap(exportTargets);
  return [];
}

interface Manifest {
  name: string;
  version: string;
  files?: string[];
  main?: string;
  module?: string;
  types?: string;
  exports?: unknown;
  bin?: string | Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/** What must not ship: tests, configuration and sources (unless `files` names src). */
const UNPUBLISHED: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|\/)(test|tests|__tests__|__mocks__|fixtures)\//, 'a test directory'],
  [/\.(test|spec|bench)\.[cm]?[jt]sx?$/, 'a test file'],
  [
    /(^|\/)(tsconfig[^/]*\.json|tsup\.config\.[cm]?[jt]s|vitest\.config\.[cm]?[jt]s|typedoc\.json|biome\.json)$/,
    'a build or test configuration file',
  ],
  [/(^|\/)\.[^/]+$/, 'a dotfile'],
  [/\.tgz$/, 'a tarball'],
  [/(^|\/)node_modules\//, 'node_modules'],
];

/**
 * Checks an extracted published package (`dir`, holding `package/`) against its file list; pushes
 * each problem onto {@link problems}.
 */
function inspectPackage(
  name: string,
  dir: string,
  files: string[],
  version: string,
  changelog: string,
): void {
  const root = join(dir, 'package');
  const inPackage = new Set(files.map((file) => file.replace(/^package\//, '')));
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
  const where = `${name}@${manifest.version}`;
  check(manifest.version === version, `${name}: published version ${manifest.version}, expected ${version}`);
  check(
    Array.isArray(manifest.files) &&
      manifest.files.some((entry) => entry.replace(/^\.\//, '').replace(/\/$/, '') === 'dist'),
    `${where}: its package.json \`files\` must keep "dist" (it has ${JSON.stringify(manifest.files)})`,
  );
  for (const required of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) {
    check(inPackage.has(required), `${where}: the tarball lacks ${required}`);
  }
  const pointers = [
    manifest.main,
    manifest.module,
    manifest.types,
    ...exportTargets(manifest.exports),
    ...(typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {})),
  ].filter((p): p is string => typeof p === 'string');
  for (const pointer of new Set(pointers)) {
    const path = posix.normalize(pointer.replace(/^\.\//, ''));
    if (path.includes('*')) continue;
    check(inPackage.has(path), `${where}: package.json points at ./${path}, which is not in the tarball`);
  }
  const shipsSrc = (manifest.files ?? []).some((entry) => /^(\.\/)?src(\/|$)/.test(entry));
  for (const file of inPackage) {
    for (const [pattern, what] of UNPUBLISHED) {
      check(!pattern.test(file), `${where}: ships ${file} (${what})`);
    }
    if (!shipsSrc)
      check(!/^src\//.test(file), `${where}: ships ${file} (sources; \`files\` does not name src)`);
    if (file.endsWith('.map')) {
      let map: { sources?: unknown; sourceRoot?: unknown };
      try {
        map = JSON.parse(readFileSync(join(root, file), 'utf8')) as typeof map;
      } catch {
        check(false, `${where}: ${file} is not a JSON source map`);
        continue;
      }
      const sources = Array.isArray(map.sources) ? (map.sources as unknown[]) : [];
      const base = posix.join(posix.dirname(file), typeof map.sourceRoot === 'string' ? map.sourceRoot : '');
      const missing = sources.filter(
        (source) => typeof source !== 'string' || !inPackage.has(posix.normalize(posix.join(base, source))),
      );
      check(
        missing.length === 0,
        `${where}: ${file} is a source map whose ${missing.length} of ${sources.length} sources are not in the tarball (first: ${JSON.stringify(missing[0])})`,
      );
    }
  }
  for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'] as const) {
    for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
      check(!range.startsWith('workspace:'), `${where}: ${field}.${dependency} is still ${range}`);
      if (field === 'dependencies' && dependency.startsWith('@iacm/')) {
        check(
          range === version,
          `${where}: depends on ${dependency}@${range}, not on the version released with it (${version})`,
        );
      }
    }
  }
  if (inPackage.has('CHANGELOG.md')) {
    check(
      readFileSync(join(root, 'CHANGELOG.md'), 'utf8') === changelog,
      `${where}: the CHANGELOG.md it ships is not the one \`changeset version\` wrote`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// Verdaccio

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

interface Registry {
  url: string;
  child: ChildProcess;
  log: () => string;
}

/** Starts Verdaccio from a copy of tools/verdaccio/config.yaml in `dir`; resolves once it answers. */
async function startRegistry(dir: string): Promise<Registry> {
  mkdirSync(dir, { recursive: true });
  cpSync(join(verdaccioDir, 'config.yaml'), join(dir, 'config.yaml'));
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/`;
    const child = spawn(
      verdaccioBin,
      ['--config', join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`],
      {
        cwd: dir,
        env: cleanEnv(),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let log = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      log += chunk;
    });
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    const deadline = Date.now() + 60_000;
    while (!exited && Date.now() < deadline) {
      try {
        const answer = await fetch(`${url}-/ping`);
        if (answer.ok) return { url, child, log: () => log };
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    stopRegistry({ url, child, log: () => log });
    if (attempt >= 3 || !/EADDRINUSE/.test(log))
      throw new Error(`Verdaccio did not start on ${url}:\n${log}`);
  }
}

function stopRegistry(registry: Registry | undefined): void {
  if (!registry?.child.pid || registry.child.exitCode !== null) return;
  try {
    process.kill(-registry.child.pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

// ---------------------------------------------------------------------------------------------------
// The rehearsal

/** What the smoke programs print: tests/packed/suite.ts's `sdkExpected` (that file needs vitest). */
function sdkExpected(endpointCount: number) {
  return {
    count: 12,
    refused: true,
    endpoints: endpointCount,
    health: 204,
    webhook: true,
    openapi: '3.1.0',
    node: 'function',
  };
}

/** The last line a program printed, as JSON. */
function lastJson(output: string): unknown {
  const lines = output.trim().split('\n');
  try {
    return JSON.parse(lines[lines.length - 1] ?? 'null');
  } catch {
    return output.trim();
  }
}

/** Prints the version constants of the installed packages and their package.json versions. */
const versionsProgram = `import { VERSION as sdk } from '@iacm/sdk';
import { OPENAPI_DOCUMENT_VERSION as openapi } from '@iacm/sdk/openapi';
import { VERSION as mock } from '@iacm/mock-server';
import { VERSION as receiver } from '@iacm/webhook-receiver';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const manifest = (name) => require(name + '/package.json').version;
console.log(JSON.stringify({
  constants: { sdk, openapi, mock, receiver },
  packages: { sdk: manifest('@iacm/sdk'), mock: manifest('@iacm/mock-server'), receiver: manifest('@iacm/webhook-receiver') },
}));
`;

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'iacm-release-'));
  const scratch = join(work, 'repo');
  let registry: Registry | undefined;
  console.log(`release rehearsal in ${work}${options.keep ? ' (kept)' : ''}`);
  if (!existsSync(verdaccioBin)) {
    throw new Error(
      `Verdaccio is not installed: run \`npm ci --prefix tools/verdaccio --no-audit --no-fund\` first`,
    );
  }
  try {
    const changesets = await phase('scratch copy of HEAD', async () => {
      const head = (await run('git', ['rev-parse', 'HEAD'], options.repo)).output.trim();
      const dirty = (await run('git', ['status', '--porcelain'], options.repo)).output.trim();
      try {
        await run('git', ['clone', '--quiet', options.repo, scratch], work);
      } catch {
        // A shallow clone cannot always be cloned: take the commit's tree into a new repository.
        mkdirSync(scratch);
        await run('sh', ['-c', `git -C '${options.repo}' archive HEAD | tar -x -C '${scratch}'`], work);
        await run('git', ['init', '--quiet'], scratch);
        await run('git', ['add', '-A'], scratch);
        await run(
          'git',
          [
            '-c',
            'user.name=rehearsal',
            '-c',
            'user.email=rehearsal@localhost',
            'commit',
            '--quiet',
            '-m',
            `rehearsal of ${head}`,
          ],
          scratch,
        );
      }
      console.log(`rehearsing ${options.repo} at ${head}`);
      if (dirty) {
        console.log(
          `(${dirty.split('\n').length} uncommitted change(s) in that working tree are not rehearsed: commit them to include them)`,
        );
      }
      const pending = pendingChangesets(scratch);
      console.log(
        pending.length === 0
          ? 'no pending changeset: a versioned tree, published at the versions it has'
          : `${pending.length} pending changeset(s)`,
      );
      const config = JSON.parse(readFileSync(join(scratch, '.changeset', 'config.json'), 'utf8')) as {
        fixed?: string[][];
      };
      const names = PACKAGE_DIRS.map((dir) => `@iacm/${dir}`);
      check(
        (config.fixed ?? []).some((group) => names.every((name) => group.includes(name))),
        `.changeset/config.json: the three packages are not one \`fixed\` group (${JSON.stringify(config.fixed)}); they are released at one version`,
      );
      stopOnProblems('scratch copy');
      return pending;
    });

    await phase('pnpm install (scratch)', () =>
      run('pnpm', ['install', '--frozen-lockfile', '--prefer-offline', '--reporter=append-only'], scratch),
    );

    const { before, after, version } = await phase(
      changesets.length === 0 ? 'versions as they are' : 'changeset version',
      async () => (changesets.length === 0 ? versionsAsTheyAre(scratch) : versionWithChangesets(scratch)),
    );

    /** The versions of a tree with no pending changeset, checked: one version, its CHANGELOG sections, its constants. */
    function versionsAsTheyAre(root: string) {
      const versions = packageVersions(root);
      const distinct = [...new Set(Object.values(versions))];
      check(distinct.length === 1, `the packages have different versions: ${JSON.stringify(versions)}`);
      const version = distinct[0] as string;
      console.log(`versions: ${JSON.stringify(versions)} (nothing pending: published as they are)`);
      for (const dir of PACKAGE_DIRS) {
        const changelog = readFileSync(join(root, 'packages', dir, 'CHANGELOG.md'), 'utf8');
        const section = changelogSection(changelog, version);
        check(section !== undefined, `packages/${dir}/CHANGELOG.md: no "## ${version}" section`);
        check(!!section, `packages/${dir}/CHANGELOG.md: the "## ${version}" section is empty`);
      }
      for (const constant of VERSION_CONSTANTS) {
        const text = readFileSync(join(root, constant.file), 'utf8');
        const expected = versions[constant.dir] as string;
        check(
          text.includes(`export const ${constant.name} = '${expected}';`),
          `${constant.file}: ${constant.name} is not '${expected}' (run pnpm release:version)`,
        );
      }
      const openapi = JSON.parse(readFileSync(join(root, 'docs', 'openapi.json'), 'utf8')) as {
        info?: { version?: string };
      };
      check(
        openapi.info?.version === versions.sdk,
        `docs/openapi.json: info.version is ${JSON.stringify(openapi.info?.version)}, not '${versions.sdk}'`,
      );
      stopOnProblems('versions as they are');
      return { before: versions, after: versions, version };
    }

    /** `changeset version` on the scratch copy, checked: one version, gone up, every changeset in each CHANGELOG. */
    function versionWithChangesets(scratch: string) {
      const result = versionRelease(scratch);
      const version = Object.values(result.after)[0] as string;
      console.log(`versions: ${JSON.stringify(result.before)} -> ${JSON.stringify(result.after)}`);
      for (const dir of PACKAGE_DIRS) {
        const name = `@iacm/${dir}`;
        check(
          greater(result.after[dir] as string, result.before[dir] as string),
          `${name}: version ${result.before[dir]} -> ${result.after[dir]} did not go up`,
        );
        const changelog = readFileSync(join(scratch, 'packages', dir, 'CHANGELOG.md'), 'utf8');
        const section = changelogSection(changelog, version);
        check(section !== undefined, `packages/${dir}/CHANGELOG.md: no "## ${version}" section`);
        check(!!section, `packages/${dir}/CHANGELOG.md: the "## ${version}" section is empty`);
        for (const changeset of changesets.filter((c) => name in c.packages)) {
          const first = (changeset.summary.split('\n')[0] as string).trim();
          check(
            !!section && section.includes(first),
            `packages/${dir}/CHANGELOG.md: the ${version} section lacks .changeset/${changeset.file} ("${first.slice(0, 60)}")`,
          );
        }
      }
      check(
        !existsSync(join(scratch, '.changeset', changesets[0]?.file ?? 'none')),
        '`changeset version` left the changesets in .changeset/',
      );
      stopOnProblems('changeset version');
      return { ...result, version };
    }

    await phase('pnpm build (scratch)', () => run('pnpm', ['run', 'build'], scratch));

    registry = await phase('start Verdaccio', async () => {
      const started = await startRegistry(join(work, 'verdaccio'));
      console.log(`Verdaccio at ${started.url}`);
      return started;
    });
    const url = registry.url;
    const host = url.replace(/^http:/, '');

    await phase('pnpm publish (3 packages)', async () => {
      // npm (which pnpm publish runs) asks for a token before it sends anything; Verdaccio lets
      // @iacm/* be published anonymously and takes this one as anonymous.
      const npmrc = join(work, 'publish.npmrc');
      writeFileSync(npmrc, `${host}:_authToken=rehearsal-anonymous\n`);
      const env = cleanEnv({ NPM_CONFIG_USERCONFIG: npmrc });
      // Dependencies first: mock-server depends on the other two.
      for (const dir of ['sdk', 'webhook-receiver', 'mock-server']) {
        const { output } = await run(
          'pnpm',
          ['publish', '--registry', url, '--no-git-checks', '--access', 'public', '--tag', 'latest'],
          join(scratch, 'packages', dir),
          env,
        );
        console.log(
          output
            .trim()
            .split('\n')
            .filter((line) => line.startsWith('+ '))
            .join('\n'),
        );
      }
    });

    /** The integrity of each published tarball, as the local registry serves it, by directory. */
    const integrity: Record<string, string | undefined> = {};
    await phase('inspect the published tarballs', async () => {
      for (const dir of PACKAGE_DIRS) {
        const name = `@iacm/${dir}`;
        const packument = (await (await fetch(`${url}${name.replace('/', '%2f')}`)).json()) as {
          'dist-tags'?: Record<string, string>;
          versions?: Record<string, { dist?: { tarball?: string; integrity?: string } }>;
        };
        check(
          packument['dist-tags']?.latest === version,
          `${name}: the registry's latest is ${packument['dist-tags']?.latest}, not ${version}`,
        );
        const tarballUrl = packument.versions?.[version]?.dist?.tarball;
        integrity[dir] = packument.versions?.[version]?.dist?.integrity;
        if (!tarballUrl) {
          check(false, `${name}@${version} is not on the registry`);
          continue;
        }
        const target = join(work, 'published', dir);
        mkdirSync(target, { recursive: true });
        const tarball = join(target, `${dir}.tgz`);
        writeFileSync(tarball, Buffer.from(await (await fetch(tarballUrl)).arrayBuffer()));
        const files = await tarList(tarball);
        await run('tar', ['-xzf', tarball], target);
        console.log(`${name}@${version}: ${files.length} files`);
        inspectPackage(
          name,
          target,
          files,
          version,
          readFileSync(join(scratch, 'packages', dir, 'CHANGELOG.md'), 'utf8'),
        );
      }
      stopOnProblems('the published tarballs');
    });

    const consumer = join(work, 'consumer');
    const consumerEnv = cleanEnv();
    await phase('fresh project: npm install by name', async () => {
      mkdirSync(consumer);
      writeFileSync(
        join(consumer, 'package.json'),
        `${JSON.stringify({ name: 'consumer', private: true }, null, 2)}\n`,
      );
      writeFileSync(join(consumer, '.npmrc'), `@iacm:registry=${url}\n`);
      await run(
        'npm',
        [
          'install',
          '@iacm/sdk',
          '@iacm/mock-server',
          '@iacm/webhook-receiver',
          'msw@^2.15',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
        ],
        consumer,
        consumerEnv,
      );
      const lock = JSON.parse(readFileSync(join(consumer, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { version?: string; resolved?: string; integrity?: string }>;
      };
      for (const dir of PACKAGE_DIRS) {
        const entries = Object.entries(lock.packages).filter(([path]) =>
          path.endsWith(`node_modules/@iacm/${dir}`),
        );
        check(
          entries.length === 1,
          `the fresh project has ${entries.length} copies of @iacm/${dir} (expected 1)`,
        );
        for (const [path, entry] of entries) {
          check(entry.version === version, `${path}: installed ${entry.version}, expected ${version}`);
          // npm leaves `resolved` out of the lockfile for a scope's registry; the integrity says which
          // tarball it installed.
          check(
            entry.resolved === undefined || entry.resolved.startsWith(url),
            `${path}: resolved from ${entry.resolved}, not from the local registry ${url}`,
          );
          check(
            !!entry.integrity && entry.integrity === integrity[dir],
            `${path}: installed the tarball ${entry.integrity}, not the one published to ${url} (${integrity[dir]})`,
          );
        }
      }
      stopOnProblems('the fresh project');
    });

    await phase('smoke test', async () => {
      const programs = (await import(
        pathToFileURL(join(scratch, 'tests', 'packed', 'programs.ts')).href
      )) as {
        sdkEsm: string;
        sdkCjs: string;
      };
      const contract = (await import(
        pathToFileURL(join(scratch, 'packages', 'sdk', 'src', 'contract', 'index.ts')).href
      )) as {
        endpoints: Record<string, unknown>;
      };
      writeFileSync(join(consumer, 'sdk.mjs'), programs.sdkEsm);
      writeFileSync(join(consumer, 'sdk.cjs'), programs.sdkCjs);
      writeFileSync(join(consumer, 'versions.mjs'), versionsProgram);
      const expected = sdkExpected(Object.keys(contract.endpoints).length);
      for (const program of ['sdk.mjs', 'sdk.cjs']) {
        const printed = lastJson((await run('node', [program], consumer, consumerEnv, 60_000)).output);
        check(
          isDeepStrictEqual(printed, expected),
          `${program} printed ${JSON.stringify(printed)}, expected ${JSON.stringify(expected)}`,
        );
        console.log(`${program}: ${JSON.stringify(printed)}`);
      }
      const versions = lastJson((await run('node', ['versions.mjs'], consumer, consumerEnv, 60_000)).output);
      const all = { sdk: version, mock: version, receiver: version };
      check(
        isDeepStrictEqual(versions, { constants: { ...all, openapi: version }, packages: all }),
        `the installed packages' versions and VERSION constants are not all ${version}: ${JSON.stringify(versions)}`,
      );
      const cli = (
        await run(
          join(consumer, 'node_modules', '.bin', 'iacm-mock'),
          ['--version'],
          consumer,
          consumerEnv,
          60_000,
        )
      ).output.trim();
      check(cli === version, `iacm-mock --version printed ${JSON.stringify(cli)}, expected ${version}`);
      console.log(`versions: ${JSON.stringify(versions)}; iacm-mock --version: ${cli}`);
      stopOnProblems('smoke test');
    });

    console.log(
      `\nrehearsed: ${JSON.stringify(before)} -> ${JSON.stringify(after)}, published to ${url}, installed by name`,
    );
  } finally {
    stopRegistry(registry);
    console.log('\n::: phase times');
    for (const line of times) console.log(`    ${line}`);
    console.log(`    ${'total'.padEnd(34)} ${((Date.now() - started) / 1000).toFixed(1).padStart(6)} s`);
    if (!options.keep) rmSync(work, { recursive: true, force: true });
    else console.log(`kept ${work}`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`\nrelease rehearsal FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
