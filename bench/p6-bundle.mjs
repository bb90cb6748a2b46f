/**
 * P6: bundle size, min+gzip, dependencies included, counting every chunk a first call loads, of
 * `import { IacmClient } from '@iacm/sdk'`, `import { createMockServer } from '@iacm/mock-server'`
 * (the MSW entry) and `import { createWebhookReceiver } from '@iacm/webhook-receiver'` (the receiver
 * core). Bundled as size-limit's esbuild plugin does (browser platform, minified, tree-shaken), but
 * as ES modules with code splitting, so that a lazily loaded chunk counts only when the first call
 * loads it: each bundle is run once (p6-child.mjs) and the chunks it loaded are summed. Absolute
 * figures; the SDK's goal is <= 30 kB (stretch 22 kB), below openai-node's 35.8 kB (measured the same
 * way in issue 15, not in this run).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** openai-node's figure, measured the same way in issue 15 (not in this run). */
const OPENAI_NODE_BYTES = 35_800;

const SUBJECTS = [
  {
    key: 'sdk',
    what: "import { IacmClient } from '@iacm/sdk'",
    name: 'IacmClient',
    from: DIST.sdk,
    goal: atMost(30, ' kB'),
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
    for (const subject of SUBJECTS) {
      const entry = join(dir, `${subject.key}.mjs`);
      writeFileSync(entry, `export { ${subject.name} } from ${JSON.stringify(subject.from)};\n`);
      const outdir = join(dir, `${subject.key}-out`);
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        format: 'esm',
        splitting: true,
        minifyIdentifiers: true,
        minifySyntax: true,
        minifyWhitespace: true,
        treeShaking: true,
        metafile: true,
        write: true,
        outdir,
        logLevel: 'silent',
      });
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
      const vsOpenAi =
        subject.key === 'sdk' ? `, ${(gzip / OPENAI_NODE_BYTES).toFixed(2)}x openai-node's 35.8 kB` : '';
      rows.push(
        row({
          id,
          what: `${subject.what}: min+gzip of the ${loaded.length} of ${outputs.length} chunk(s) a first call loads`,
          figure: kB,
          unit: 'kB',
          text: `${size(gzip)}${vsOpenAi} (minified ${size(minified)}: ${breakdown})`,
          goal: subject.goal,
          details: {
            gzipBytes: gzip,
            minifiedBytes: minified,
            allChunksGzipBytes: allGzip,
            chunksLoaded: loaded.length,
            chunks: outputs.length,
            minifiedByPart: parts,
            openaiNodeBytes: subject.key === 'sdk' ? OPENAI_NODE_BYTES : undefined,
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
