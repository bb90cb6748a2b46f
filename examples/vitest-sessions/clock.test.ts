import { mockMatchers, useMockSession } from '@iacm/mock-server/vitest';
import { beforeAll, expect, it } from 'vitest';
import { allAtOnce } from './all-at-once.js';

expect.extend(mockMatchers);

const session = useMockSession({ sizes: { workspaces: 6 } });
beforeAll(() => allAtOnce(session.url, 4));

it('moves its own clock: the token expires here, and the client logs in again', async () => {
  const client = session.client({ logLevel: 'off' });
  await client.workspaces.search({});
  await session.remote.clock.advance(2 * 60 * 60 * 1000); // the mock's tokens live an hour

  await expect(client.workspaces.search({})).resolves.toHaveLength(6);

  const statuses = (await session.remote.calls('workspaces.search')).map((call) => call.status);
  expect(statuses).toEqual([200, 401, 200]);
  await expect(session.remote).toHaveReceived('auth.login', { times: 2 });
});
