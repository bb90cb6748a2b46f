/**
 * The version step of a release: `changeset version` (the repository's @changesets/cli), then the
 * version constants the packages compile in (`VERSION` of each package, `OPENAPI_DOCUMENT_VERSION`
 * of `@iacm/sdk/openapi`) set to the new versions, then `docs/openapi.json` regenerated (its
 * `info.version`). `changeset version` only writes package.json files and CHANGELOGs: without this
 * step the published `VERSION` would still say the previous version (tests/versions.test.ts checks
 * that they agree).
 *
 * Usage: pnpm exec tsx tools/release/version.ts [--root <dir>]
 *   --root <dir>  the repository to version (default: this one). The release rehearsal
 *                 (tools/release/rehearse.ts) runs it on its scratch copy.
 *
 * It prints the tracked files (outside CHANGELOGs and lockfiles) that still name the old version, so
 * the release commit can update them too; it exits 1 when the three versions are not one version
 * after `changeset version` (they are a `fixed` group in .changeset/config.json).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The packages, by directory under packages/. */
export const PACKAGE_DIRS = ['sdk', 'mock-server', 'webhook-receiver'] as const;

/** The version constants compiled into the packages: file, constant name, package directory. */
export const VERSION_CONSTANTS = [
  { file: 'packages/sdk/src/index.ts', name: 'VERSION', dir: 'sdk' },
  { file: 'packages/sdk/src/openapi/document.ts', name: 'OPENAPI_DOCUMENT_VERSION', dir: 'sdk' },
  { file: 'packages/mock-server/src/version.ts', name: 'VERSION', dir: 'mock-server' },
  { file: 'packages/webhook-receiver/src/index.ts', name: 'VERSION', dir: 'webhook-receiver' },
] as const;

/** The `version` of each package's package.json, by directory. */
export function packageVersions(root: string): Record<string, string> {
  return Object.fromEntries(
    PACKAGE_DIRS.map((dir) => {
      const manifest = JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) as {
        version: string;
      };
      return [dir, manifest.version];
    }),
  );
}

/**
 * Sets each constant of {@link VERSION_CONSTANTS} to its package's version. The line must be there
 * exactly once, as `export const <NAME> = '<version>';`; anything else is an error naming the file.
 */
export function syncVersionConstants(root: string): string[] {
  const versions = packageVersions(root);
  const changed: string[] = [];
  for (const { file, name, dir } of VERSION_CONSTANTS) {
    const path = join(root, file);
    const text = readFileSync(path, 'utf8');
    const prefix = `export const ${name} = '`;
    const lines = text.split('\n');
    const at = lines.flatMap((line, index) =>
      line.startsWith(prefix) && line.endsWith("';") ? [index] : [],
    );
    if (at.length !== 1) {
      throw new Error(
        `${file}: expected one line \`${prefix}<version>';\`, found ${at.length}; update VERSION_CONSTANTS in tools/release/version.ts`,
      );
    }
    const next = `${prefix}${versions[dir]}';`;
    if (lines[at[0] as number] !== next) {
      lines[at[0] as number] = next;
      writeFileSync(path, lines.join('\n'));
      changed.push(`${file}: ${name} = '${versions[dir]}'`);
    }
  }
  return changed;
}

/** Runs the whole step in `root`; returns the versions before and after. */
export function versionRelease(root: string): {
  before: Record<string, string>;
  after: Record<string, string>;
} {
  const before = packageVersions(root);
  const run = (command: string, args: string[]) =>
    execFileSync(command, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  run(join(root, 'node_modules', '.bin', 'changeset'), ['version']);
  const after = packageVersions(root);
  const distinct = [...new Set(Object.values(after))];
  if (distinct.length !== 1) {
    throw new Error(
      `after \`changeset version\` the packages have different versions (${JSON.stringify(after)}); ` +
        'they are released together: keep them in one `fixed` group in .changeset/config.json',
    );
  }
  for (const line of fillEmptySections(root, distinct[0] as string)) console.log(line);
  for (const line of syncVersionConstants(root)) console.log(`set ${line}`);
  run('pnpm', ['run', '--silent', 'openapi']);
  const old = [...new Set(Object.values(before))];
  for (const version of old) {
    if (version === distinct[0]) continue;
    let hits = '';
    try {
      hits = execFileSync(
        'git',
        [
          'grep',
          '-n',
          '-F',
          version,
          '--',
          '.',
          ':!**/CHANGELOG.md',
          ':!pnpm-lock.yaml',
          ':!**/package-lock.json',
        ],
        { cwd: root, encoding: 'utf8' },
      );
    } catch {
      // git grep exits 1 when nothing matches.
    }
    if (hits.trim()) {
      console.log(
        `tracked files that still name ${version} (update them in the release commit if they mean this release):`,
      );
      console.log(hits.trimEnd().replace(/^/gm, '  '));
    }
  }
  return { before, after };
}

/** What a package's CHANGELOG says for a release no changeset of it is in. */
export const NO_CHANGES_NOTE =
  'No changes of its own: released at this version with the other two packages (they share one version).';

/**
 * Gives the `## <version>` section of each package's CHANGELOG that `changeset version` left empty
 * (a package no pending changeset names, bumped with its `fixed` group) the line
 * {@link NO_CHANGES_NOTE}, so that a reader of that CHANGELOG is told why the version exists.
 */
export function fillEmptySections(root: string, version: string): string[] {
  const done: string[] = [];
  for (const dir of PACKAGE_DIRS) {
    const file = join(root, 'packages', dir, 'CHANGELOG.md');
    const lines = readFileSync(file, 'utf8').split('\n');
    const start = lines.findIndex((line) => line.trim() === `## ${version}`);
    if (start < 0) continue;
    const rest = lines.slice(start + 1);
    const end = rest.findIndex((line) => line.startsWith('## '));
    if ((end < 0 ? rest : rest.slice(0, end)).join('').trim() !== '') continue;
    lines.splice(start + 1, 0, '', NO_CHANGES_NOTE);
    writeFileSync(file, lines.join('\n'));
    done.push(`packages/${dir}/CHANGELOG.md: the ${version} section says it has no changes of its own`);
  }
  return done;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const rootAt = args.indexOf('--root');
  const root = rootAt >= 0 ? (args[rootAt + 1] ?? '') : fileURLToPath(new URL('../..', import.meta.url));
  if (!root) throw new Error('--root: expected a directory, received nothing');
  const { before, after } = versionRelease(root);
  console.log(`versions: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`);
}
