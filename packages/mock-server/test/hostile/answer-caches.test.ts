/**
 * The per-request caches of issue 25 under hostile input, bounded in heap, not in estimates: the
 * journal's memo of header-name verdicts (`pipeline/journal-text.ts`: at most 512 names of at most
 * 128 characters), attacked by unauthenticated requests each naming a header never seen before; and
 * the answer texts of stored records (`pipeline/answer-text.ts`: at most `ANSWER_TEXT_CACHE_BYTES`,
 * 8 MiB), attacked by an API user reading every workspace of an account larger than that. Each runs in
 * a child Node with a small heap, measures the heap after full collections before and after, and
 * asserts that the growth stays within the bound plus a small constant.
 */
import { describe, expect, it } from 'vitest';
import { ANSWER_TEXT_CACHE_BYTES } from '../../src/pipeline/answer-text.js';
import { ISO_DAYS_KEPT } from '../../src/query/dates.js';
import { runInSmallHeap } from './child.js';

const MiB = 1024 * 1024;

/** What the heap may grow beyond a cache's bound: the mock's other caches, code, and GC slack. */
const SLACK_BYTES = 4 * MiB;

describe('the answer caches hold under hostile input (issue 25)', () => {
  it('remembers at most 512 header names, however many distinct ones unauthenticated requests send', {
    timeout: 120_000,
  }, async () => {
    const result = await runInSmallHeap<{ growth: number; statuses: number[] }>(`
        const { MockCore } = await import(src + '/app/mock.ts');
        const core = new MockCore({ sizes: { workspaces: 3, events: 10 } });
        // 127 characters, under the memo's key limit: each would be remembered if nothing bounded it.
        const name = (i) => 'x-' + String(i).padStart(7, '0') + 'a'.repeat(118);
        const send = (i) => core.handle({ method: 'POST', path: '/v2/workspaces/search', headers: { [name(i)]: 'v' }, body: {} });
        // The journal is filled first (its own bound is proven by journal.test.ts).
        for (let i = 0; i < 1000; i++) await send(i);
        const before = heapAfterGc();
        const statuses = new Set();
        for (let i = 1000; i < 60000; i++) statuses.add((await send(i)).status);
        return { growth: heapAfterGc() - before, statuses: [...statuses] };
      `);
    expect(result.statuses).toEqual([401]);
    // Unbounded, 59,000 names of 127 characters took about 12 MB.
    expect(result.growth).toBeLessThan(SLACK_BYTES);
  });

  it('keeps at most 8 MiB of answer texts while an API user reads every workspace of a large account', {
    timeout: 180_000,
  }, async () => {
    const result = await runInSmallHeap<{ growth: number; bytes: number; read: number }>(`
        const { MockCore } = await import(src + '/app/mock.ts');
        const { answerBytes, recordTexts } = await import(src + '/pipeline/answer-text.ts');
        const core = new MockCore({ sizes: { workspaces: 40000, events: 10 } });
        const [primary] = core.accounts();
        const login = await core.handle({ method: 'POST', path: '/v2/login', body: { accessKey: primary.accessKey, secretKey: primary.secretKey } });
        const headers = { authorization: 'Bearer ' + login.body.accessToken };
        // Each page serialised as the adapters do (answerBytes), which keeps the records' texts.
        const page = async (n) => {
          const res = await core.handle({ method: 'POST', path: '/v2/workspaces/search', query: { page: String(n), pageSize: '500' }, headers, body: {} });
          if (res.status !== 200) throw new Error('answered ' + res.status);
          return answerBytes(res.body).length;
        };
        await page(0);
        const before = heapAfterGc();
        let read = 0;
        for (let n = 0; n < 80; n++) read += await page(n);
        return { growth: heapAfterGc() - before, bytes: recordTexts.bytes, read };
      `);
    // The account's answers are several times the bound: unbounded, the texts would be kept whole.
    expect(result.read).toBeGreaterThan(3 * ANSWER_TEXT_CACHE_BYTES);
    expect(result.bytes).toBeLessThanOrEqual(ANSWER_TEXT_CACHE_BYTES);
    expect(result.growth).toBeLessThan(ANSWER_TEXT_CACHE_BYTES + SLACK_BYTES);
  });

  it('keeps the timestamp prefixes of at most 4096 days, however many days the journal writes', {
    timeout: 120_000,
  }, async () => {
    // The journal writes each entry's time with iso(); a clock moved day by day through the control
    // plane gives it a new day per request. Here the days come straight, 200,000 of them.
    const result = await runInSmallHeap<{ growth: number; kept: number }>(`
        const { iso, isoDaysKept } = await import(src + '/query/dates.ts');
        for (let day = 0; day < 5000; day++) iso(day * 86400000);
        const before = heapAfterGc();
        for (let day = 5000; day < 205000; day++) iso(day * 86400000 + 1);
        return { growth: heapAfterGc() - before, kept: isoDaysKept() };
      `);
    expect(result.kept).toBeLessThanOrEqual(ISO_DAYS_KEPT);
    // Unbounded, 200,000 day prefixes took about 50 MB.
    expect(result.growth).toBeLessThan(SLACK_BYTES);
  });
});
