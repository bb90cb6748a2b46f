import { execFileSync } from 'node:child_process';
import { posix } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { packages } from './lib.js';

/** What is inside each packed tarball: its file list, README and package.json. */
const prepared = inject('prepared');
const contents = Object.fromEntries(
  packages.map((name) => {
    const tarball = prepared.tarballs[name];
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
    const read = (file: string) => execFileSync('tar', ['-xOzf', tarball, file], { encoding: 'utf8' });
    const manifest = JSON.parse(read('package/package.json')) as {
      repository: { url: string };
      engines: { node: string };
      dependencies?: Record<string, string>;
      peerDependencies?: Record<string, string>;
      peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    };
    return [name, { files, readme: read('package/README.md'), manifest }];
  }),
);

/** Every link target of a Markdown text: inline links and images, reference definitions, HTML hrefs. */
function links(markdown: string): string[] {
  const text = markdown.replace(/```[\s\S]*?```/g, ''); // code blocks hold no links
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string);
  const definitions = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] as string);
  const hrefs = [...text.matchAll(/\b(?:href|src)="([^"]+)"/g)].map((m) => m[1] as string);
  return [...inline, ...definitions, ...hrefs];
}

describe.each(packages)('the packed tarball of @iacm/%s', (name) => {
  const { files, readme, manifest } = contents[name] as (typeof contents)[string];

  it('ships its README, CHANGELOG and LICENSE', () => {
    expect(files).toEqual(
      expect.arrayContaining(['package/README.md', 'package/CHANGELOG.md', 'package/LICENSE']),
    );
  });

  it("links from its README only to files in the tarball or to the package's repository", () => {
    const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(repository).toBe('https://github.com/iacm/iacm');
    const found = links(readme);
    expect(found.length).toBeGreaterThan(0);
    const broken = found.filter((target) => {
      if (target.startsWith('#')) return false; // a heading of the README itself
      if (/^[a-z][a-z+.-]*:/i.test(target))
        return !(target === repository || target.startsWith(`${repository}/`));
      const path = posix.normalize(posix.join('package', decodeURI(target.split('#')[0] as string)));
      return !files.includes(path);
    });
    expect(broken).toEqual([]);
  });

  it('promises the Node versions of the toolkit (require() of ESM-only msw 3 by the mock: 20.19+, 22.12+)', () => {
    expect(manifest.engines.node).toBe('^20.19.0 || >=22.12.0');
  });
});

describe('the packed @iacm/mock-server', () => {
  it('takes msw as an optional peer dependency (^2.15.0 || ^3.0.0), not a dependency', () => {
    const { manifest } = contents['mock-server'] as (typeof contents)[string];
    expect(manifest.dependencies?.msw).toBeUndefined();
    expect(manifest.peerDependencies?.msw).toBe('^2.15.0 || ^3.0.0');
    expect(manifest.peerDependenciesMeta?.msw?.optional).toBe(true);
  });
});
