/**
 * `@iacm/mock-server/vitest`: `toHaveReceived` and `toHaveReceivedNothingElse` over the journal, for
 * a MockCore and for what `createMockServer` answers; their failure messages list what arrived,
 * bounded.
 */
import { createMockServer } from '@iacm/mock-server';
import { mockMatchers } from '@iacm/mock-server/vitest';
import { beforeAll, describe, expect, it } from 'vitest';
import { setup } from './helpers.js';

beforeAll(() => {
  expect.extend(mockMatchers);
});

describe('toHaveReceived', () => {
  it('passes on matching calls (times, body, query) and fails listing the calls that arrived', async () => {
    const ctx = await setup();
    const mock = ctx.core;
    mock.control.clearJournal();
    await ctx.call('POST', '/v2/workspaces/search', { query: { page: '2' }, body: { searchValue: 'web' } });
    await ctx.call('POST', '/v2/guardrails/search', { body: {} });
    expect(mock).toHaveReceived('workspaces.search');
    expect(mock).toHaveReceived('workspaces.search', {
      times: 1,
      body: expect.objectContaining({ searchValue: 'web' }),
      query: { page: 2 },
      status: 200,
      accountId: ctx.primary.id,
    });
    expect(mock).not.toHaveReceived('workspaces.delete');
    expect(() =>
      expect(mock).toHaveReceived('workspaces.search', { times: 2, body: { searchValue: 'api' } }),
    ).toThrow(
      /expected the mock to have received workspaces\.search 2 times with body \{"searchValue": "api"\}, but 0 of its 1 calls of workspaces\.search matched\ncalls that arrived \(2, oldest first\):\n {2}req_\d+ POST \/v2\/workspaces\/search -> 200 workspaces\.search: \{"searchValue":"web"\}\n {2}req_\d+ POST \/v2\/guardrails\/search -> 200 guardrails\.search: \{\}\nnearest miss: req_\d+ POST \/v2\/workspaces\/search -> 200, at body\.searchValue: expected "api", received "web"$/,
    );
    expect(() => expect(mock).not.toHaveReceived('workspaces.search')).toThrow(
      /expected the mock not to have received workspaces\.search at least once, but 1 of its 1 calls of workspaces\.search matched\nmatching calls \(1, oldest first\)/,
    );
    expect(() => expect(mock).toHaveReceived('workspace.search' as 'health')).toThrow(
      /the closest: workspaces\.search/,
    );
    expect(() => expect(mock).toHaveReceived('health', { times: -1 })).toThrow(
      'toHaveReceived: times: expected a non-negative integer, received -1',
    );
    expect(() => expect({}).toHaveReceived('health')).toThrow(
      "toHaveReceived: expected the mock (what createMockServer returns, a MockCore, or connect()'s remote client), received object",
    );
  });

  it('names the nearest miss: the call with the most of the expected values, and the first member that differed', async () => {
    const ctx = await setup();
    ctx.core.control.clearJournal();
    const query = { filters: [{ key: 'eventType', values: ['guardrails_violation'] }], searchText: 'drift' };
    await ctx.call('POST', '/v2/event-center', { body: { query: { searchText: 'other' }, size: 5 } });
    await ctx.call('POST', '/v2/event-center', { body: { query, size: 5 } });
    await ctx.call('POST', '/v2/event-center', { body: { query: { searchText: 'drift' }, size: 9 } });
    const failure = () =>
      expect(ctx.core).toHaveReceived('eventCenter.query', {
        body: {
          query: { ...query, filters: [{ key: 'eventType', values: ['iac_status_change'] }] },
          size: 5,
        },
      });
    // The second call had the size, the key and the text: it is named, at the one value that differed.
    const second = ctx.core.control.calls('eventCenter.query')[1];
    let message = '';
    try {
      failure();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n').at(-1)).toBe(
      `nearest miss: ${second?.requestId} POST /v2/event-center -> 200, at body.query.filters[0].values[0]: expected "iac_status_change", received "guardrails_violation"`,
    );
    // An asymmetric matcher is compared whole; a member the call has and the expectation lacks differs too.
    expect(() =>
      expect(ctx.core).toHaveReceived('eventCenter.query', {
        body: { query: expect.objectContaining({ searchText: 'drift' }) },
      }),
    ).toThrow(
      /\nnearest miss: req_\d+ POST \/v2\/event-center -> 200, at body\.size: expected nothing, received 9$/,
    );
  });

  it('takes what createMockServer answers', async () => {
    const server = createMockServer({ baseUrl: 'https://iacm.example.com' });
    await server.core.handle({ method: 'GET', path: '/v2/health' });
    expect(server).toHaveReceived('health', { times: 1, status: 204 });
    expect(server).toHaveReceivedNothingElse();
  });

  it('bounds its failure message: at most 20 calls, each body cut at 100 characters', async () => {
    const ctx = await setup();
    ctx.core.control.clearJournal();
    for (let i = 0; i < 30; i++) {
      await ctx.call('POST', '/v2/workspaces/search', { body: { searchValue: `${i}-${'x'.repeat(200)}` } });
    }
    let message = '';
    try {
      expect(ctx.core).toHaveReceived('workspaces.search', { times: 1 });
    } catch (error) {
      message = (error as Error).message;
    }
    const lines = message.split('\n');
    expect(lines[1]).toBe('calls that arrived (30, oldest first):');
    expect(lines[2]).toBe('  … 10 earlier not shown');
    expect(lines.length).toBe(3 + 20);
    expect(lines[3]).toContain('{"searchValue":"10-xxx');
    for (const line of lines.slice(3)) expect(line.length).toBeLessThan(200);
    expect(lines[3]?.endsWith('…')).toBe(true);
  });
});

describe('toHaveReceivedNothingElse', () => {
  it('passes when every call was matched before (or is of a named endpoint); fails listing the others', async () => {
    const ctx = await setup();
    const mock = ctx.core;
    mock.control.clearJournal();
    await ctx.call('POST', '/v2/workspaces/search', { body: { searchValue: 'web' } });
    await ctx.call('GET', '/__mock/clock');
    await ctx.call('POST', '/v2/guardrails/search', { body: {} });
    expect(mock).toHaveReceived('workspaces.search', { times: 1 });
    expect(() => expect(mock).toHaveReceivedNothingElse()).toThrow(
      /expected the mock to have received nothing besides what earlier toHaveReceived assertions matched\nother calls that arrived \(1, oldest first\):\n {2}req_\d+ POST \/v2\/guardrails\/search -> 200 guardrails\.search: \{\}$/,
    );
    expect(mock).toHaveReceivedNothingElse(['guardrails.search']);
    expect(mock).toHaveReceived('guardrails.search');
    expect(mock).toHaveReceivedNothingElse();
    expect(() => expect(mock).not.toHaveReceivedNothingElse()).toThrow(
      'expected the mock to have received calls besides what earlier toHaveReceived assertions matched, but it received none',
    );
  });

  it('counts a call matched only in an earlier test as not matched', async () => {
    const ctx = await setup();
    ctx.core.control.clearJournal();
    await ctx.call('GET', '/v2/health', { token: null });
    expect(() => expect(ctx.core).toHaveReceivedNothingElse()).toThrow(
      /GET \/v2\/health -> 204 health: no body/,
    );
    expect(() => expect(ctx.core).toHaveReceivedNothingElse(['helth' as 'health'])).toThrow(
      /the closest: health/,
    );
  });
});
