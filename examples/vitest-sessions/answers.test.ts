import { mockMatchers, useMockSession } from '@iacm/mock-server/vitest';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { allAtOnce } from './all-at-once.js';

expect.extend(mockMatchers);

const session = useMockSession({ sizes: { workspaces: 6 } });
beforeAll(() => allAtOnce(session.url, 4));
afterEach(() => session.remote.reset()); // this session's start again; the others are untouched

it('answers one search 404, and waits for the call that follows', async () => {
  const client = session.client({ logLevel: 'off' });
  await session.remote.respond('workspaces.search', {
    status: 404,
    match: { body: { searchValue: 'gone' } },
  });

  await expect(client.workspaces.search({ searchValue: 'gone' })).rejects.toMatchObject({ status: 404 });

  const next = session.remote.waitFor('workspaces.search', { match: { body: { searchValue: 'web' } } });
  const searched = client.workspaces.search({ searchValue: 'web' });
  expect((await next).status).toBe(200);
  await searched;
  await expect(session.remote).toHaveReceived('workspaces.search', { times: 2 });
});
