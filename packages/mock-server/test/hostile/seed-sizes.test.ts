import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { SEED_MEMORY_BUDGET, SIZE_MAXIMA } from '../../src/store/seed/limits.js';

describe('seed sizes are capped together, not only one by one (M4)', () => {
  const core = new MockCore({ sizes: { workspaces: 3, events: 10 } });
  const seed = (body: unknown) =>
    core.handle({
      method: 'POST',
      path: '/__mock/seed',
      headers: { 'content-type': 'application/json' },
      rawBody: JSON.stringify(body),
    });

  it('refuses sizes each within its maximum whose product exceeds the memory budget, naming sizes', async () => {
    const res = await seed({
      seed: 1,
      sizes: { workspaces: SIZE_MAXIMA.workspaces, runsPerWorkspace: SIZE_MAXIMA.runsPerWorkspace },
    });
    expect(res.status).toBe(400);
    const body = res.body as { issues: { path: string; message: string }[] };
    expect(body.issues[0]?.path).toBe('sizes');
    expect(body.issues[0]?.message).toContain(`${(SEED_MEMORY_BUDGET / 1e9).toFixed(1)} GB`);
    // Nothing was generated: the mock still has its small data.
    expect(core.store.accountOrPrimary(undefined).workspaces.size).toBe(3);
  });

  it('refuses a single size over its maximum, naming the field and the maximum', async () => {
    const res = await seed({ seed: 1, sizes: { workspaces: 1_000_000 } });
    expect(res.status).toBe(400);
    const body = res.body as { issues: { path: string; message: string }[] };
    expect(body.issues[0]?.path).toBe('sizes.workspaces');
    expect(JSON.stringify(body)).toContain(String(SIZE_MAXIMA.workspaces));
  });

  it('refuses the same sizes as a MockCore option, before generating anything', () => {
    expect(() => new MockCore({ sizes: { workspaces: 1_000_000_000 } })).toThrow(
      /^MockOptions sizes\.workspaces: expected an integer from 0 to 100000, received 1000000000$/,
    );
    expect(() => new MockCore({ sizes: { workspaces: 100_000, runsPerWorkspace: 100 } })).toThrow(
      /MockOptions sizes: /,
    );
  });
});
