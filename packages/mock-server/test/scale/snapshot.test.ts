/**
 * Snapshots at their documented maximum (issue 20, finding 8), in `pnpm test:scale` because they take
 * a minute and more than a gigabyte of memory: a state whose snapshot is close to
 * `MAX_SNAPSHOT_BYTES` (256 MiB of JSON: 14,000 workspaces with their runs and 140,000 events) goes
 * out through `GET /__mock/state` and back in through `PUT /__mock/state` and `--state` unchanged; a
 * state of the largest seed sizes (100,000 workspaces, 1,000,000 events), whose JSON would be several
 * times that, answers a 409 that names its seed and sizes, never a 500 or a snapshot nothing takes.
 */
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/adapters/cli-options.js';
import { MockCore } from '../../src/app/mock.js';
import { MAX_SNAPSHOT_BYTES } from '../../src/control/state.js';
import { expectError, setup } from '../helpers.js';

describe('snapshots at their maximum size', () => {
  it('takes back a snapshot of nearly 256 MiB through PUT /__mock/state and --state, unchanged', async () => {
    const ctx = await setup({ sizes: { workspaces: 14_000, events: 140_000 } });
    const got = await ctx.call('GET', '/__mock/state', { token: null });
    expect(got.status).toBe(200);
    const text = JSON.stringify(got.body);
    got.body = undefined;
    const bytes = Buffer.byteLength(text);
    // Close to the maximum (so that the test is at it), and within it.
    expect(bytes).toBeGreaterThan(0.85 * MAX_SNAPSHOT_BYTES);
    expect(bytes).toBeLessThanOrEqual(MAX_SNAPSHOT_BYTES);

    const put = await ctx.call('PUT', '/__mock/state', { token: null, rawBody: text });
    expect(put.status, JSON.stringify(put.body).slice(0, 500)).toBe(200);
    expect(JSON.stringify(await ctx.core.control.getState()) === text).toBe(true);

    const command = parseCommandLine(['--state', 'snap.json'], () => text, {});
    if (command.kind !== 'serve' || !command.options.state) throw new Error('expected a serve command');
    const loaded = new MockCore({ state: command.options.state.snapshot });
    expect(JSON.stringify(await loaded.control.getState()) === text).toBe(true);
  }, 900_000);

  it('answers 409 naming the seed and sizes for a state of the largest sizes, whose snapshot would be too large', async () => {
    const sizes = { workspaces: 100_000, events: 1_000_000 };
    const ctx = await setup({ sizes });
    const res = await ctx.call('GET', '/__mock/state', { token: null });
    const error = expectError(res, 409, 'conflict');
    expect(error.message).toContain(`${MAX_SNAPSHOT_BYTES} bytes of JSON`);
    expect(error.message).toContain('"workspaces":100000');
    expect(error.message).toContain('"events":1000000');
    // The mock answers on.
    expect((await ctx.call('GET', '/v2/health')).status).toBe(204);
  }, 900_000);
});
