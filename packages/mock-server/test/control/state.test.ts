/**
 * Snapshots (issue 20): `PUT /__mock/state` takes back what `GET /__mock/state` gives (finding 8: it
 * refused any list past 10,000 items, the bound of a request body), a state too large for a snapshot
 * is a clear 409 rather than a snapshot nothing takes back, and the `state` option checks a snapshot
 * exactly as `setState` does (finding 11: it took a workspace without `repoUrl`, which failed later
 * in the SDK as the API's fault).
 */
import { createMockServer } from '@iacm/mock-server';
import { describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/adapters/cli-options.js';
import { MockCore } from '../../src/app/mock.js';
import type { ControlContext } from '../../src/control/route.js';
import { CONTROL_ROUTES } from '../../src/control/routes.js';
import { MAX_SNAPSHOT_BYTES, snapshotBytes } from '../../src/control/state.js';
import { HttpError } from '../../src/errors.js';
import type { MockState } from '../../src/store/state.js';
import { expectError, rejection, setup } from '../helpers.js';

/** What `fn` threw (it must throw). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('snapshots round-trip (finding 8)', () => {
  it('takes back a snapshot with 12,000 events (a list past the 10,000 of a request body) through PUT /__mock/state and --state', async () => {
    const ctx = await setup({ sizes: { workspaces: 3, events: 12_000 } });
    const got = await ctx.call('GET', '/__mock/state', { token: null });
    expect(got.status).toBe(200);
    const text = JSON.stringify(got.body);
    expect((got.body as MockState).accounts[0]?.events.length).toBe(12_000);

    const put = await ctx.call('PUT', '/__mock/state', { token: null, rawBody: text });
    expect(put.status, JSON.stringify(put.body).slice(0, 300)).toBe(200);
    expect(JSON.stringify((await ctx.call('GET', '/__mock/state', { token: null })).body)).toBe(text);

    const command = parseCommandLine(['--state', 'snap.json'], () => text, {});
    if (command.kind !== 'serve' || !command.options.state) throw new Error('expected a serve command');
    const loaded = new MockCore({ state: command.options.state.snapshot });
    expect(JSON.stringify(await loaded.control.getState())).toBe(text);
  });

  it('still bounds a snapshot: nesting deeper than 64 levels is a 400 naming the path', async () => {
    const ctx = await setup({ sizes: { workspaces: 3, events: 10 } });
    const deep = `{"version":1,"seed":1,"sizes":{},"accounts":${'['.repeat(100)}${']'.repeat(100)}}`;
    const res = await ctx.call('PUT', '/__mock/state', { token: null, rawBody: deep });
    expect(expectError(res, 400, 'validation_failed').message).toMatch(/at most 64 levels of nesting/);
  });

  it('counts the bytes of a snapshot as JSON.stringify writes them, stopping past the limit', () => {
    const state = {
      version: 1,
      seed: 'é',
      sizes: { workspaces: 3 },
      accounts: [{ account: { name: 'Zoë 🚀 \ud800' }, events: [{ a: 1 }, { b: [1, 2] }], none: [] }],
    };
    expect(snapshotBytes(state, 1e9)).toBe(Buffer.byteLength(JSON.stringify(state)));
    const many = { accounts: [{ events: new Array(1000).fill({ text: 'x'.repeat(100) }) }] };
    const counted = snapshotBytes(many, 5000);
    expect(counted).toBeGreaterThan(5000);
    expect(counted).toBeLessThan(5000 + 200);
  });

  it('answers 409 for a state larger than a snapshot can be, naming the limit and the seed and sizes', async () => {
    // 30,000 references to one record of 10 kB: about 300 MB of JSON, made of little memory.
    const record = { id: 'x'.repeat(10_000) };
    const large = {
      version: 1,
      seed: 7,
      sizes: { events: 1_000_000 },
      accounts: [{ events: new Array(30_000).fill(record) }],
    };
    const route = CONTROL_ROUTES.find((r) => r.method === 'GET' && r.path === '/__mock/state');
    const context = {
      core: { store: { toState: () => large } },
      transport: 'http',
    } as unknown as ControlContext;
    const error = await Promise.resolve()
      .then(() => route?.handler(context))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(HttpError);
    expect([(error as HttpError).status, (error as HttpError).code]).toEqual([409, 'conflict']);
    expect((error as HttpError).message).toContain(`${MAX_SNAPSHOT_BYTES} bytes of JSON`);
    expect((error as HttpError).message).toContain('{"seed":7,"sizes":{"events":1000000}}');
  });
});

describe('the state option checks a snapshot as setState does (finding 11)', () => {
  it('refuses a workspace without repoUrl in new MockCore({ state }), createMockServer({ state }) and setState alike', async () => {
    const state = await new MockCore({ sizes: { workspaces: 3, events: 10 } }).control.getState();
    const workspace = state.accounts[0]?.workspaces[1] as { repoUrl?: string } | undefined;
    if (!workspace) throw new Error('expected a second workspace');
    delete workspace.repoUrl;

    const bySetState = await rejection(
      new MockCore({ sizes: { workspaces: 3, events: 10 } }).control.setState(structuredClone(state)),
    );
    const byCore = thrown(() => new MockCore({ state: structuredClone(state) }));
    const byServer = thrown(() => createMockServer({ state: structuredClone(state) }));
    for (const error of [bySetState, byCore, byServer]) {
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).message).toBe(
        'state.accounts[0].workspaces[1].repoUrl: expected string, received nothing',
      );
      expect((error as HttpError).issues).toEqual((bySetState as HttpError).issues);
    }
  });

  it('refuses a snapshot of the wrong shape or sizes out of range, in the option as over HTTP', async () => {
    const ctx = await setup({ sizes: { workspaces: 3, events: 10 } });
    const good = await ctx.core.control.getState();
    for (const bad of [
      {},
      { ...good, accounts: [] },
      { ...good, sizes: { workspaces: 1e308 } },
      { ...good, sizes: { events: -1 } },
      { ...good, sizes: { shoes: 1 } },
    ]) {
      const option = thrown(() => new MockCore({ state: bad as MockState }));
      const http = await ctx.call('PUT', '/__mock/state', { token: null, body: bad });
      expect(option).toBeInstanceOf(HttpError);
      expect(expectError(http, 400, 'validation_failed').message).toBe((option as HttpError).message);
    }
    // A valid snapshot is loaded as it was given.
    expect(JSON.stringify(await new MockCore({ state: good }).control.getState())).toBe(JSON.stringify(good));
  });
});
