/**
 * The OpenAPI lint (`pnpm lint:openapi`): Redocly CLI (pinned in tools/redocly/, installed with
 * `npm ci --prefix tools/redocly --no-audit --no-fund`) lints docs/openapi.json with its
 * `recommended-strict` ruleset: the recommended rules, each warning counted as an error, so the
 * lint fails on anything the recommended ruleset reports (0 errors and 0 warnings to pass).
 * No rule is switched off (there is no redocly.yaml).
 *
 * Usage: node tools/redocly/lint.mjs [<document>]   (default docs/openapi.json)
 *
 * Runs on the running Node (20.19+ or 22.12+, the CLI's `engines`). Telemetry and update notices
 * are off.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const cli = fileURLToPath(new URL('./node_modules/@redocly/cli/bin/cli.js', import.meta.url));
const document = process.argv[2] === undefined ? 'docs/openapi.json' : resolve(process.argv[2]);

if (!existsSync(cli)) {
  process.stderr.write(
    'Redocly CLI is not installed: run `npm ci --prefix tools/redocly --no-audit --no-fund`\n',
  );
  process.exit(1);
}
const started = performance.now();
const result = spawnSync(
  process.execPath,
  [cli, 'lint', '--extends=recommended-strict', '--format=stylish', document],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
  },
);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (result.error) throw result.error;
process.stdout.write(
  `redocly lint (recommended-strict) of ${document}: ${result.status === 0 ? 'passed' : 'FAILED'} in ${seconds} s\n`,
);
process.exit(result.status ?? 1);
