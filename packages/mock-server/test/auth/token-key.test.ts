import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';

const NOW = Date.UTC(2026, 0, 15, 12);

async function tokenOf(core: MockCore): Promise<string> {
  const [primary] = core.accounts();
  if (!primary) throw new Error('no account');
  const { accessKey, secretKey } = primary;
  const res = await core.handle({ method: 'POST', path: '/v2/login', body: { accessKey, secretKey } });
  expect(res.status).toBe(200);
  return (res.body as { accessToken: string }).accessToken;
}

async function statusWith(core: MockCore, token: string): Promise<number> {
  const res = await core.handle({
    method: 'POST',
    path: '/v2/workspaces/search',
    headers: { authorization: `Bearer ${token}` },
    body: {},
  });
  return res.status;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the token signing key (M1)', () => {
  it('differs between two mocks of the same seed: a token of one is refused by the other', async () => {
    const a = new MockCore({ seed: 7, sizes: { workspaces: 3 }, clock: () => NOW });
    const b = new MockCore({ seed: 7, sizes: { workspaces: 3 }, clock: () => NOW });
    const token = await tokenOf(a);
    expect(await statusWith(a, token)).toBe(200);
    expect(await statusWith(b, token)).toBe(401);
  });

  it('is kept across reset (earlier tokens stay valid) and never appears in a snapshot', async () => {
    const key = 'k'.repeat(64);
    const core = new MockCore({
      seed: 7,
      sizes: { workspaces: 3 },
      clock: () => NOW,
      unsafeTokenSigningKey: key,
    });
    const token = await tokenOf(core);
    await core.control.reset();
    expect(await statusWith(core, token)).toBe(200);
    expect(JSON.stringify(await core.control.getState())).not.toContain(key);
  });

  it("is the given one with unsafeTokenSigningKey: two mocks then accept each other's tokens", async () => {
    const options = {
      seed: 7,
      sizes: { workspaces: 3 },
      clock: () => NOW,
      unsafeTokenSigningKey: 'test-only',
    };
    const a = new MockCore(options);
    const b = new MockCore(options);
    expect(await statusWith(b, await tokenOf(a))).toBe(200);
  });

  it('comes from crypto.getRandomValues: no source file of the mock calls Math.random', () => {
    const root = join(import.meta.dirname, '../../src');
    const offenders = sourceFiles(root).filter((file) => readFileSync(file, 'utf8').includes('Math.random'));
    expect(offenders).toEqual([]);
  });
});
