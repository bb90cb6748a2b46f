/**
 * P6: bundle size, min+gzip, dependencies included, counting every chunk a first call loads, of
 * `import { IacmClient } from '@iacm/sdk'` (validating, the default, and with `validation: 'off'`,
 * which loads neither zod nor the schemas), `import { createMockServer } from '@iacm/mock-server'`
 * (the MSW entry) and `import { createWebhookReceiver } from '@iacm/webhook-receiver'` (the receiver
 * core). Bundled as size-limit's esbuild plugin does (browser platform, minified, tree-shaken), but
 * as ES modules with code splitting, so that a lazily loaded chunk counts only when the first call
 * loads it: each bundle is run once (p6-child.mjs) and the chunks it loaded are summed. Absolute
 * figures; the SDK's goals (issue 36, on ky): a first call <= 32 kB, the whole client <= 36 kB. Beside it, the anchors (other SDKs, pinned in
 * tools/bench-anchors/package.json) are bundled the same way in this run, each whole (every chunk of
 * its main import: they are not run); without `npm ci --prefix tools/bench-anchors` the row says so.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { BENCH, DIST, ROOT } from './lib/paths.mjs';
import { runChild } from './lib/processes.mjs';
import { atMost, row } from './lib/rows.mjs';
import { size } from './lib/stats.mjs';

export const id = 'P6';
export const title = 'bundle size, min+gzip, every chunk a first call loads';

/** Where the anchors are installed (their own package.json and lock, outside the workspace). */
const ANCHORS_DIR = join(ROOT, 'tools', 'bench-anchors');

/** The anchors: another SDK's main import, bundled whole as ours is (min+gzip of every chunk). */
const ANCHORS = [
  { name: 'openai', code: "export { default } from 'openai';", what: "import OpenAI from 'openai'" },
  {
    name: '@anthropic-ai/sdk',
    code: "export { default } from '@anthropic-ai/sdk';",
    what: "import Anthropic from '@anthropic-ai/sdk'",
  },
  {
    name: '@octokit/rest',
    code: "export { Octokit } from '@octokit/rest';",
    what: "import { Octokit } from '@octokit/rest'",
  },
  {
    name: 'openapi-fetch',
    code: "export { default } from 'openapi-fetch';",
    what: "import createClient from 'openapi-fetch'",
  },
];

/** The options every bundle of this row is built with (esbuild as size-limit runs it, split ESM). */
const BUNDLE_OPTIONS = {
  bundle: true,
  format: 'esm',
  splitting: true,
  minifyIdentifiers: true,
  minifySyntax: true,
  minifyWhitespace: true,
  treeShaking: true,
  metafile: true,
  write: true,
  logLevel: 'silent',
};

/**
 * Bundles each anchor (installed in tools/bench-anchors) and sums the gzip -9 bytes of all its chunks.
 * @returns {Promise<{ installed: boolean, anchors: Array<{ name: string, version: string, what: string, gzipBytes?: number, error?: string }> }>}
 */
async function measureAnchors(build, dir) {
  if (!existsSync(join(ANCHORS_DIR, 'node_modules'))) return { installed: false, anchors: [] };
  const anchors = [];
  for (const anchor of ANCHORS) {
    const key = anchor.name.replace(/[^a-z0-9]+/gi, '-');
    const entry = join(dir, `anchor-${key}.mjs`);
    writeFileSync(entry, `${anchor.code}\n`);
    const outdir = join(dir, `anchor-${key}-out`);
    let version = '?';
    try {
      const manifest = join(ANCHORS_DIR, 'node_modules', anchor.name, 'package.json');
      version = JSON.parse(readFileSync(manifest, 'utf8')).version;
      const result = await build({
        ...BUNDLE_OPTIONS,
        entryPoints: [entry],
        outdir,
        nodePaths: [join(ANCHORS_DIR, 'node_modules')],
      });
      let gzipBytes = 0;
      for (const file of Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')))
        gzipBytes += gzipSync(readFileSync(join(process.cwd(), file)), { level: 9 }).length;
      anchors.push({ name: anchor.name, version, what: anchor.what, gzipBytes });
    } catch (error) {
      anchors.push({ name: anchor.name, version, what: anchor.what, error: String(error).split('\n')[0] });
    }
  }
  return { installed: true, anchors };
}

/** The anchors as the SDK row's text says them. */
function anchorsText({ installed, anchors }, gzip) {
  if (!installed) return '; anchors not installed (npm ci --prefix tools/bench-anchors)';
  const each = anchors.map((a) =>
    a.gzipBytes === undefined
      ? `${a.name} ${a.version}: error ${a.error}`
      : `${a.name} ${a.version} ${size(a.gzipBytes)} (${(gzip / a.gzipBytes).toFixed(2)}x)`,
  );
  return `; anchors bundled the same way, whole: ${each.join(', ')}`;
}

const SUBJECTS = [
  {
    key: 'sdk',
    what: "import { IacmClient } from '@iacm/sdk'",
    name: 'IacmClient',
    from: DIST.sdk,
    goal: atMost(32, ' kB'),
    wholeGoal: atMost(36, ' kB'),
  },
  {
    key: 'sdkOff',
    what: "import { IacmClient } from '@iacm/sdk', validation: 'off'",
    name: 'IacmClient',
    from: DIST.sdk,
  },
  {
    key: 'mock',
    what: "import { createMockServer } from '@iacm/mock-server' (MSW entry)",
    name: 'createMockServer',
    from: DIST.mock,
  },
  {
    key: 'receiver',
    what: "import { createWebhookReceiver } from '@iacm/webhook-receiver'",
    name: 'createWebhookReceiver',
    from: DIST.receiver,
  },
];

/** esbuild, as size-limit's esbuild plugin has it installed. */
function esbuild() {
  const plugin = fileURLToPath(import.meta.resolve('@size-limit/esbuild'));
  return createRequire(plugin)('esbuild');
}

/** Which part of the bundle an input file is. */
function part(input) {
  if (/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?zod\//.test(input)) {
    return /\/locales?\//.test(input) ? 'zod locales' : 'zod';
  }
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (dependency) return dependency[1];
  const ours = /packages\/([^/]+)\//.exec(input);
  if (ours) return `@iacm/${ours[1]} (own code)`;
  return 'other';
}

/** @param {import('./main.mjs').Context} ctx */
export async function run(ctx) {
  const build = esbuild().build;
  const dir = mkdtempSync(join(tmpdir(), 'iacm-bench-bundle-'));
  try {
    const rows = [];
    const anchors = await measureAnchors(build, dir);
    for (const subject of SUBJECTS) {
      const entry = join(dir, `${subject.key}.mjs`);
      writeFileSync(entry, `export { ${subject.name} } from ${JSON.stringify(subject.from)};\n`);
      const outdir = join(dir, `${subject.key}-out`);
      const result = await build({ ...BUNDLE_OPTIONS, entryPoints: [entry], outdir });
      const entryOut = join(outdir, `${subject.key}.js`);
      const loaded = await runChild(
        join(BENCH, 'p6-child.mjs'),
        { subject: subject.key, entry: entryOut, outdir },
        { execArgv: ctx.serverOptions(`p6-${subject.key}`).execArgv },
      );
      const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith('.js'));
      let gzip = 0;
      let minified = 0;
      let allGzip = 0;
      /** @type {Record<string, number>} */
      const parts = {};
      for (const [file, output] of outputs) {
        const absolute = join(process.cwd(), file);
        const bytes = readFileSync(absolute);
        const gz = gzipSync(bytes, { level: 9 }).length;
        allGzip += gz;
        if (!loaded.includes(relative(outdir, absolute))) continue;
        gzip += gz;
        minified += bytes.length;
        for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
          parts[part(input)] = (parts[part(input)] ?? 0) + bytesInOutput;
        }
      }
      const ranked = Object.entries(parts)
        .filter(([, bytes]) => bytes >= 100)
        .sort((a, b) => b[1] - a[1]);
      const rest = ranked.slice(5).reduce((sum, [, bytes]) => sum + bytes, 0);
      const breakdown = [
        ...ranked.slice(0, 5).map(([name, bytes]) => `${name} ${size(bytes)}`),
        ...(rest > 0 ? [`${ranked.length - 5} more ${size(rest)}`] : []),
      ].join(', ');
      const kB = gzip / 1000;
      // The whole SDK too (every chunk, as `esbuild --bundle --minify` of the import gives it), ky included.
      if (subject.wholeGoal) {
        // One file, no splitting (the lazily loaded parts inlined), with ky and without it.
        const whole = async (external) => {
          const outfile = join(dir, `${subject.key}-whole${external.length > 0 ? '-no-ky' : ''}.js`);
          await build({ ...BUNDLE_OPTIONS, splitting: false, entryPoints: [entry], outfile, external });
          return gzipSync(readFileSync(outfile), { level: 9 }).length;
        };
        const withKy = await whole([]);
        const withoutKy = await whole(['ky']);
        rows.push(
          row({
            id,
            what: `${subject.what}: min+gzip of the whole client in one bundle (esbuild --bundle --minify, ky included)`,
            figure: withKy / 1000,
            unit: 'kB',
            text: `${size(withKy)} (without ky: ${size(withoutKy)}, so ky takes ${size(withKy - withoutKy)}; the ${outputs.length} chunks of the split bundle, each gzipped: ${size(allGzip)})`,
            goal: subject.wholeGoal,
            details: {
              wholeGzipBytes: withKy,
              wholeWithoutKyGzipBytes: withoutKy,
              allChunksGzipBytes: allGzip,
            },
          }),
        );
      }
      const vsAnchors = subject.key === 'sdk' ? anchorsText(anchors, gzip) : '';
      rows.push(
        row({
          id,
          what: `${subject.what}: min+gzip of the ${loaded.length} of ${outputs.length} chunk(s) a first call loads`,
          figure: kB,
          unit: 'kB',
          text: `${size(gzip)} (minified ${size(minified)}: ${breakdown})${vsAnchors}`,
          goal: subject.goal,
          details: {
            gzipBytes: gzip,
            minifiedBytes: minified,
            allChunksGzipBytes: allGzip,
            chunksLoaded: loaded.length,
            chunks: outputs.length,
            minifiedByPart: parts,
            anchors: subject.key === 'sdk' ? anchors : undefined,
            root: relative(ROOT, dir),
          },
        }),
      );
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
