/**
 * An ignored `Prefer: code=` is journalled as ignored (issue 22, point 5): the entry says why, as the
 * answer's `x-iacm-mock-prefer` header does, in `control.journal()`, `control.calls()` and
 * `GET /__mock/journal`; an honoured or absent one leaves no such member.
 */
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import type { JournalEntry } from '../../src/pipeline/journal.js';
import { expectError, searchOverHttp } from '../helpers.js';

const TOKEN = 'control-token-for-prefer-journal-0123456789';
const REASON = 'over HTTP, Prefer: code= needs an open control plane or the X-Iacm-Mock-Control-Token header';

async function mockWithToken() {
  const core = new MockCore({ sizes: { workspaces: 3, events: 10 }, controlToken: TOKEN });
  return { core, search: await searchOverHttp(core) };
}

describe('an ignored Prefer: code= in the journal', () => {
  it('says why in control.journal() and control.calls(); an honoured or absent one says nothing', async () => {
    const { core, search } = await mockWithToken();
    const ignored = await search({ prefer: 'code=429' });
    expect(ignored.status).toBe(200);
    expect(ignored.headers['x-iacm-mock-prefer']).toBe(`ignored: ${REASON}`);
    expectError(await search({ prefer: 'code=404', 'x-iacm-mock-control-token': TOKEN }), 404, 'not_found');
    await search({});
    const entries = core.control.journal().filter((e) => e.endpoint === 'workspaces.search');
    expect(entries.map((e) => [e.status, e.preferIgnored])).toEqual([
      [200, REASON],
      [404, undefined],
      [200, undefined],
    ]);
    expect(entries[0]?.headers.prefer).toBe('code=429');
    expect(Object.hasOwn(entries[1] as JournalEntry, 'preferIgnored')).toBe(false);
    const calls = core.control.calls('workspaces.search');
    expect(calls.map((c) => c.preferIgnored)).toEqual([REASON, undefined, undefined]);
    // The control token is never in the journal, whether it was given or not.
    expect(JSON.stringify(core.control.journal())).not.toContain(TOKEN);
  });

  it('shows in GET /__mock/journal?endpoint=; on an open control plane Prefer is honoured, nothing ignored', async () => {
    const { core, search } = await mockWithToken();
    await search({ prefer: 'code=500' });
    const res = await core.handle({
      method: 'GET',
      path: '/__mock/journal',
      query: { endpoint: 'workspaces.search' },
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([expect.objectContaining({ status: 200, preferIgnored: REASON })]);
    const open = new MockCore({ sizes: { workspaces: 3, events: 10 } });
    await open.handle(
      { method: 'GET', path: '/v2/health', headers: { prefer: 'code=500' } },
      { preferHeader: 'control' },
    );
    const [health] = open.control.journal();
    expect(health?.status).toBe(500);
    expect(health).not.toHaveProperty('preferIgnored');
  });
});
