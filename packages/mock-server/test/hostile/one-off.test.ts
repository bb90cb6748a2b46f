/**
 * One-off answers under hostile input: what they keep is bounded in heap, not in JSON bytes. The
 * attacks go through `POST /__mock/responses` in a child Node with a small heap, measure the heap
 * after full collections before and after, and assert that the growth stays within
 * `ONE_OFF_LIMITS.maxTotalBytes` plus a small constant. Before the bound counted by the heap's
 * measure, bodies with one character past Latin-1 took twice their count (132 MiB for 64 MiB), and
 * `match` values of many empty objects about 20 times (1.35 GB; such a `match` is now a 400: its
 * arrays hold at most 100 items, so the attack names a record's members instead).
 */
import { describe, expect, it } from 'vitest';
import { ONE_OFF_LIMITS } from '../../src/pipeline/one-off.js';
import { setup } from '../helpers.js';
import { runInSmallHeap } from './child.js';

const MiB = 1024 * 1024;
/** What the heap may grow beyond the bound: the mock's own caches, code, and GC slack. */
const SLACK_BYTES = 8 * MiB;

interface HeapResult {
  growth: number;
  accepted: number;
  statuses: number[];
}

/** Sends up to 1,000 answers built by `answer` to `POST /__mock/responses`, measuring the heap. */
const attack = (answer: string) => `
  const { MockCore } = await import(src + '/app/mock.ts');
  const core = new MockCore({ sizes: { workspaces: 3, events: 10 } });
  const members = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => ['k' + i, []]));
  const before = heapAfterGc();
  let accepted = 0;
  const statuses = new Set();
  for (let i = 0; i < 1000; i++) {
    const rawBody = JSON.stringify(${answer});
    const res = await core.handle({ method: 'POST', path: '/__mock/responses', rawBody, headers: { 'content-type': 'application/json' } });
    statuses.add(res.status);
    if (res.status === 201) accepted++;
    if (res.status === 409 || res.status === 400) break;
  }
  const growth = heapAfterGc() - before;
  return { growth, accepted, statuses: [...statuses].sort() };
`;

describe('one-off answers hold under hostile input', () => {
  it('1,000 answers of maximal bodies (two-byte text) grow the heap by no more than maxTotalBytes', {
    timeout: 120_000,
  }, async () => {
    const result = await runInSmallHeap<HeapResult>(
      attack(`{ endpoint: 'workspaces.search', validate: false, body: 'a'.repeat(1024 * 1024 - 200) + '€' }`),
      { heapMb: 256 },
    );
    expect(result.statuses).toEqual([201, 409]);
    expect(result.accepted).toBeGreaterThan(10);
    expect(result.growth).toBeLessThan(ONE_OFF_LIMITS.maxTotalBytes + SLACK_BYTES);
  });

  it('answers whose match holds many empty values grow the heap by no more than maxTotalBytes', {
    timeout: 120_000,
  }, async () => {
    // A match's arrays hold at most 100 items, and its members are the endpoint's; a record of the
    // schema (a tag rule's requiredValues) takes any member: 10,000 empty lists in each match.
    const result = await runInSmallHeap<HeapResult>(
      attack(
        `{ endpoint: 'guardrails.create', validate: false, status: 500, match: { body: { criteria: { tag: { requiredValues: members(10_000) } } } } }`,
      ),
      { heapMb: 256 },
    );
    expect(result.statuses).toEqual([201, 409]);
    expect(result.accepted).toBeGreaterThan(0);
    expect(result.growth).toBeLessThan(ONE_OFF_LIMITS.maxTotalBytes + SLACK_BYTES);
  });
});

describe('GET /__mock/journal?endpoint= under hostile values', () => {
  it('answers a small 400 naming `endpoint` for a huge, repeated or garbage value', async () => {
    const t = await setup();
    const values: Array<string | string[]> = [
      'x'.repeat(1_000_000),
      'workspaces.search'.repeat(50_000),
      '\u0000\u202e<script>'.repeat(10_000),
      ['workspaces.search', 'health'],
      Array.from({ length: 10_000 }, () => 'a'),
    ];
    for (const endpoint of values) {
      const res = await t.call('GET', '/__mock/journal', { query: { endpoint } });
      expect(res.status).toBe(400);
      const text = JSON.stringify(res.body);
      expect(text.length).toBeLessThan(2_000);
      expect((res.body as { issues?: Array<{ path: string }> }).issues?.[0]?.path).toBe('endpoint');
    }
  });
});
