/**
 * The bodies of the requests being handled are charged to the memory budget's `requests` store, by
 * what their text takes once parsed and checked (`jsonTextHeapBytes`), from before they are parsed
 * until they are answered: many large bodies at once get a 409 `budget_exceeded` naming the store,
 * parsed never, and the charge goes back whatever the answer (issue 34, finding 5 started at once).
 * Counted, never timed.
 */
import { describe, expect, it, vi } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { HEAP_BYTES, jsonTextHeapBytes, textBytes } from '../../src/store/budget.js';

/** The JSON text of `n` empty objects in one array, as a body member. */
const empties = (n: number) =>
  `{"endpoint":"workspaces.search","timeout":1,"match":{"body":{"v":[${'{},'.repeat(n - 1)}{}]}}}`;

describe('the bodies being handled in the memory budget', () => {
  it('measures a text by its containers and slots, twice (the parsed value and its checked copy), and the text', () => {
    expect(jsonTextHeapBytes('')).toBe(textBytes(''));
    expect(jsonTextHeapBytes('{"a":[1,2]}')).toBe(
      textBytes('{"a":[1,2]}') +
        2 * (HEAP_BYTES.object + HEAP_BYTES.array + HEAP_BYTES.perItem + HEAP_BYTES.perMember),
    );
    // A megabyte of empty objects: tens of megabytes once parsed.
    expect(jsonTextHeapBytes(empties(340_000))).toBeGreaterThan(40 * 1024 * 1024);
  });

  it('refuses the bodies past the budget at once with 409 budget_exceeded naming requests, parsing none of them; then gives every charge back', async () => {
    const core = new MockCore({ sizes: { workspaces: 3, events: 0 }, budget: { bytes: 64 * 1024 * 1024 } });
    const text = empties(150_000);
    const one = jsonTextHeapBytes(text);
    expect(one).toBeGreaterThan(16 * 1024 * 1024);
    const parse = vi.spyOn(JSON, 'parse');
    const answers = await Promise.all(
      Array.from({ length: 8 }, () =>
        core.handle({
          method: 'POST',
          path: '/__mock/journal/wait',
          headers: { 'content-type': 'application/json' },
          rawBody: text,
        }),
      ),
    );
    const parsed = parse.mock.calls.filter(([value]) => value === text).length;
    parse.mockRestore();
    const refused = answers.filter((res) => res.status === 409);
    // At most what fits the budget was read at once; the others were refused before parsing.
    expect(refused.length).toBeGreaterThanOrEqual(8 - Math.floor((64 * 1024 * 1024) / one));
    expect(parsed).toBe(8 - refused.length);
    for (const res of refused) {
      expect(res.body).toMatchObject({ code: 'budget_exceeded' });
      expect((res.body as { message: string }).message).toMatch(
        /^requests \(the bodies of the requests being handled\) would take [\d.]+ MiB more, past the mock's memory budget of 64\.0 MiB \(budget\.bytes\)/,
      );
    }
    // Every charge went back once answered.
    expect(core.control.budget().stores.requests).toBe(0);
  });

  it('gives a body’s charge back once it is checked: a pending wait holds none (its match is the waits’ store), nor an answered request', async () => {
    const core = new MockCore({ sizes: { workspaces: 3, events: 0 } });
    const text = JSON.stringify({
      endpoint: 'workspaces.search',
      timeout: 2_000,
      match: { body: { searchValue: 'x'.repeat(1000) } },
    });
    const pending = core.handle({
      method: 'POST',
      path: '/__mock/journal/wait',
      headers: { 'content-type': 'application/json' },
      rawBody: text,
    });
    await vi.waitFor(() => expect(core.control.budget().stores.waits).toBeGreaterThan(0));
    expect(core.control.budget().stores.requests).toBe(0);
    expect(core.control.cancelWaits()).toBe(1);
    expect((await pending).status).toBeGreaterThanOrEqual(400);
    expect(core.control.budget().stores.requests).toBe(0);
    // A body given parsed (in process) is the caller's: not charged.
    const parsed = await core.handle({
      method: 'POST',
      path: '/__mock/faults',
      headers: { 'content-type': 'application/json' },
      body: { path: '/v2/x', status: 503 },
    });
    expect(parsed.status).toBe(201);
    expect(core.control.budget().stores.requests).toBe(0);
  });

  it('reads the only body in flight whatever the budget says (a large snapshot), and refuses one that comes while it is held', async () => {
    const core = new MockCore({ sizes: { workspaces: 3, events: 0 }, budget: { bytes: 8 * 1024 * 1024 } });
    const text = empties(150_000);
    expect(jsonTextHeapBytes(text)).toBeGreaterThan(8 * 1024 * 1024);
    const alone = await core.handle({
      method: 'POST',
      path: '/__mock/journal/wait',
      headers: { 'content-type': 'application/json' },
      rawBody: text,
    });
    // Read and checked (its match is past the waits' own bound: that store's 409, not the body's).
    expect((alone.body as { code: string }).code).not.toBe('budget_exceeded');
    expect(core.control.budget().stores.requests).toBe(0);
    const [first, second] = await Promise.all(
      [text, text].map((rawBody) =>
        core.handle({
          method: 'POST',
          path: '/__mock/journal/wait',
          headers: { 'content-type': 'application/json' },
          rawBody,
        }),
      ),
    );
    expect((first?.body as { code?: string } | undefined)?.code).not.toBe('budget_exceeded');
    expect(second?.body).toMatchObject({ code: 'budget_exceeded' });
  });

  it('reads only one body in flight in the whole mock: a session’s large body is refused while another session’s is held', async () => {
    const core = new MockCore({ sizes: { workspaces: 3, events: 0 }, budget: { bytes: 8 * 1024 * 1024 } });
    const text = empties(150_000);
    const ids = [(await core.control.createSession()).id, (await core.control.createSession()).id];
    const answers = await Promise.all(
      ids.map((id) =>
        core.handle({
          method: 'POST',
          path: '/__mock/journal/wait',
          headers: { 'content-type': 'application/json', 'x-iacm-mock-session': id },
          rawBody: text,
        }),
      ),
    );
    const codes = answers.map((res) => (res.body as { code?: string } | undefined)?.code);
    expect(codes[0]).not.toBe('budget_exceeded');
    expect(codes[1]).toBe('budget_exceeded');
    expect(core.control.budget().stores.requests).toBe(0);
    expect(core.control.budget().used).toBeLessThan(8 * 1024 * 1024);
  });
});
