import { mockMatchers, useMockSession } from '@iacm/mock-server/vitest';
import { beforeAll, expect, it } from 'vitest';
import { allAtOnce } from './all-at-once.js';

expect.extend(mockMatchers);

// This file's own session of the run's mock: created before its tests, ended after them.
const session = useMockSession({ sizes: { workspaces: 6 } });
beforeAll(() => allAtOnce(session.url, 4));

it('rides out a 503 that only this session sees', async () => {
  const client = session.client({ sleep: async () => {}, logLevel: 'off' });
  await session.remote.addFault({ endpoint: 'workspaces.search', status: 503, times: 1 });

  await expect(client.workspaces.search({})).resolves.toHaveLength(6);

  await expect(session.remote).toHaveReceived('workspaces.search', { status: 503, times: 1 });
  await expect(session.remote).toHaveReceived('workspaces.search', { status: 200, times: 1 });
  await expect(session.remote).toHaveReceivedNothingElse(['auth.login']);
});
