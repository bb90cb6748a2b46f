import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { listen } from '@iacm/mock-server/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const sdkDir = fileURLToPath(new URL('../packages/sdk', import.meta.url));
let consumer: string;
let mock: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  const packDir = mkdtempSync(join(tmpdir(), 'iacm-pack-'));
  execFileSync('pnpm', ['pack', '--pack-destination', packDir], { cwd: sdkDir, stdio: 'pipe' });
  const tarball = join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz')) as string);
  consumer = mkdtempSync(join(tmpdir(), 'iacm-consumer-'));
  writeFileSync(
    join(consumer, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, dependencies: { '@iacm/sdk': `file:${tarball}` } }),
  );
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: consumer,
    stdio: 'pipe',
  });
  mock = await listen({ port: 0, sizes: { workspaces: 12 } });
}, 180_000);

afterAll(() => mock?.close());

/** Runs a consumer program (asynchronously: the mock answers from this process). */
async function run(args: string[]): Promise<unknown> {
  const [primary] = mock.control.accounts();
  const { stdout: out } = await promisify(execFile)(process.execPath, args, {
    cwd: consumer,
    encoding: 'utf8',
    env: {
      ...process.env,
      IACM_BASE_URL: mock.url,
      IACM_ACCESS_KEY: primary?.accessKey,
      IACM_SECRET_KEY: primary?.secretKey,
    },
  });
  return JSON.parse(out);
}

const program = (load: string) => `${load}
(async () => {
  const client = new IacmClient({ logLevel: 'off' });
  const all = await client.workspaces.search({ pageSize: 5 }).toArray({ limit: 100 });
  let refused = false;
  try { await client.workspaces.search({ pageSize: 0 }); } catch (e) { refused = e instanceof RequestValidationError; }
  console.log(JSON.stringify({ count: all.length, refused, endpoints: Object.keys(endpoints).length }));
})().catch((e) => { console.error(e); process.exit(1); });`;

describe('the packed @iacm/sdk tarball', () => {
  it('works from an ESM consumer', async () => {
    const load =
      "import { IacmClient, RequestValidationError } from '@iacm/sdk';\nimport { endpoints } from '@iacm/sdk/contract';";
    expect(await run(['--input-type=module', '-e', program(load)])).toEqual({
      count: 12,
      refused: true,
      endpoints: 17,
    });
  });

  it('works from a CJS consumer', async () => {
    const load =
      "const { IacmClient, RequestValidationError } = require('@iacm/sdk');\nconst { endpoints } = require('@iacm/sdk/contract');";
    expect(await run(['-e', program(load)])).toEqual({ count: 12, refused: true, endpoints: 17 });
  });
});
