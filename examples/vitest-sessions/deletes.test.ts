import { mockMatchers, useMockSession } from '@iacm/mock-server/vitest';
import { beforeAll, expect, it } from 'vitest';
import { allAtOnce } from './all-at-once.js';

expect.extend(mockMatchers);

const session = useMockSession({ sizes: { workspaces: 6 } });
beforeAll(() => allAtOnce(session.url, 4));

it('deletes a workspace in its own data only', async () => {
  const client = session.client({ logLevel: 'off' });
  const [first] = await client.workspaces.search({});
  await client.workspaces.delete(first?.id as string);

  // Five left here; the other files' sessions still hold six each.
  await expect(client.workspaces.search({})).resolves.toHaveLength(5);
  await expect(session.remote).toHaveReceived('workspaces.delete', {
    params: { workspaceId: first?.id as string },
    times: 1,
  });
});
