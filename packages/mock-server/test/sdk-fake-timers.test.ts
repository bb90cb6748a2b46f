// Issue 35, finding 5: the calls of a test on vitest's fake timers, as users write them. The pattern
// of the releases before the lazy parts (start the call, move the clock, await the call) must keep
// working, whether or not the call logs in first: the login, the schemas loaded on first use and
// the answer each take real turns of the event loop, and `advanceTimersByTimeAsync` jumps the clock
// after one of them.
import { createMockServer } from '@iacm/mock-server';
import { IacmClient, type RetryInfo } from '@iacm/sdk';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

const baseUrl = 'https://iacm-fake-timers.example.test';
const mock = createMockServer({ baseUrl, sizes: { workspaces: 3, events: 10 } });
const server = setupServer(...mock.handlers);
const [first] = mock.control.accounts();
if (!first) throw new Error('expected an account');
const account = first;

function newClient(extra: ConstructorParameters<typeof IacmClient>[0] = {}) {
  return new IacmClient({
    baseUrl,
    auth: { accessKey: account.accessKey, secretKey: account.secretKey },
    logLevel: 'off',
    ...extra,
  });
}

function tooManyOnce() {
  mock.control.addFault({
    path: '/v2/workspaces/search',
    status: 429,
    headers: { 'Retry-After': '2' },
    times: 1,
  });
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  vi.useRealTimers();
  mock.control.reset();
});
afterAll(() => server.close());

describe('start the call, advance the fake clock by the Retry-After, await the call', () => {
  it('retries once the clock passed the wait, when the client has logged in already', async () => {
    const client = newClient();
    await client.workspaces.search({ pageSize: 1 });
    vi.useFakeTimers();
    for (let round = 0; round < 3; round += 1) {
      tooManyOnce();
      const pending = client.workspaces.search({ pageSize: 1 });
      await vi.advanceTimersByTimeAsync(2000);
      expect(await pending).toHaveLength(1);
    }
    const statuses = mock.control.calls('workspaces.search').map((call) => call.status);
    expect(statuses).toEqual([200, 429, 200, 429, 200, 429, 200]);
  });

  it("retries when the call's own login comes first (the first call of a new client)", async () => {
    vi.useFakeTimers();
    tooManyOnce();
    const client = newClient();
    const pending = client.workspaces.search({ pageSize: 1 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(await pending).toHaveLength(1);
    expect(mock.control.calls('auth.login')).toHaveLength(1);
    expect(mock.control.calls('workspaces.search').map((call) => call.status)).toEqual([429, 200]);
  });

  it('needs the clock moved once per wait: the second wait begins when the second attempt does', async () => {
    const client = newClient();
    await client.workspaces.search({ pageSize: 1 });
    const retries: RetryInfo[] = [];
    let second: () => void = () => {};
    const secondRetry = new Promise<void>((resolve) => {
      second = resolve;
    });
    const watched = client.withOptions({
      hooks: {
        onRetry: (info) => {
          retries.push(info);
          if (retries.length === 2) second();
        },
      },
    });
    mock.control.addFault({
      path: '/v2/workspaces/search',
      status: 429,
      headers: { 'Retry-After': '2' },
      times: 2,
    });
    vi.useFakeTimers();
    let settled = false;
    const pending = watched.workspaces.search({ pageSize: 1 }).then((page) => {
      settled = true;
      return page.length;
    });
    await vi.advanceTimersByTimeAsync(2000);
    await secondRetry; // the second 429 came: its wait is set from now
    expect(settled).toBe(false);
    expect(retries.map((r) => r.delayMs)).toEqual([2000, 2000]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await pending).toBe(1);
  });

  it('does not count clock moved before the call was made', async () => {
    const client = newClient();
    await client.workspaces.search({ pageSize: 1 });
    vi.useFakeTimers();
    vi.advanceTimersByTime(5000);
    tooManyOnce();
    let settled = false;
    let waiting: () => void = () => {};
    const retried = new Promise<void>((resolve) => {
      waiting = resolve;
    });
    const pending = client
      .withOptions({ hooks: { onRetry: () => waiting() } })
      .workspaces.search({ pageSize: 1 })
      .then((page) => {
        settled = true;
        return page.length;
      });
    await retried;
    await vi.advanceTimersByTimeAsync(1999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await pending).toBe(1);
  });
});

describe('a call starts when it is made', () => {
  it('is sent without being awaited, and its failure, never awaited, is no unhandled rejection', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const client = newClient();
      const arrived = mock.control.waitFor('workspaces.delete', { timeout: 10_000 });
      void client.workspaces.delete('0123456789abcdef01234567');
      const call = await arrived;
      expect(call.status).toBe(404);
      // Give the rejection's turn time to be reported, if it were unhandled.
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('still gives its error to whoever awaits it later', async () => {
    const client = newClient();
    const arrived = mock.control.waitFor('workspaces.delete', { timeout: 10_000 });
    const later = client.workspaces.delete('0123456789abcdef01234567');
    await arrived;
    await expect(later).rejects.toMatchObject({ status: 404 });
    // Awaited twice, sent once.
    await expect(later).rejects.toMatchObject({ status: 404 });
    expect(mock.control.calls('workspaces.delete')).toHaveLength(1);
  });

  it('a paged call iterated at once is sent by its iteration only: toArray({ limit: 0 }) sends nothing', async () => {
    const client = newClient();
    await client.workspaces.search({ pageSize: 1 });
    mock.control.clearJournal();
    expect(await client.workspaces.search({ pageSize: 1 }).toArray({ limit: 0 })).toEqual([]);
    expect(await client.workspaces.search({ pageSize: 1 }).toArray({ limit: 2 })).toHaveLength(2);
    expect(mock.control.calls('workspaces.search')).toHaveLength(2);
  });
});
