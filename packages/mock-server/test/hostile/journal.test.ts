import { describe, expect, it } from 'vitest';
import {
  DEFAULT_JOURNAL_MAX_BYTES,
  Journal,
  NOT_KEPT,
  NOT_READ,
  tooLargeToKeep,
} from '../../src/pipeline/journal.js';
import { runInSmallHeap } from './child.js';

const ok = { status: 200, headers: {}, body: undefined };

describe('the journal holds under hostile input (H1)', () => {
  it('keeps no body of 200 unauthenticated 1 MiB requests, and its bytes stay under the bound', {
    timeout: 120_000,
  }, async () => {
    const result = await runInSmallHeap<{
      statuses: number[];
      bodies: string[];
      bytes: number;
      size: number;
    }>(`
        const { MockCore } = await import(src + '/core/mock.ts');
        const core = new MockCore({ sizes: { workspaces: 3, events: 10 } });
        const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024 - 20) });
        const statuses = new Set();
        for (let i = 0; i < 200; i++) {
          const res = await core.handle({ method: 'POST', path: '/v2/guardrails', rawBody: big, headers: { 'content-type': 'application/json' } });
          statuses.add(res.status);
        }
        const journal = core.control.journal();
        return { statuses: [...statuses], bodies: [...new Set(journal.map((e) => e.body))], bytes: JSON.stringify(journal).length, size: journal.length };
      `);
    expect(result.statuses).toEqual([401]);
    expect(result.bodies).toEqual([NOT_READ]);
    expect(result.size).toBe(200);
    expect(result.bytes).toBeLessThan(DEFAULT_JOURNAL_MAX_BYTES);
  });

  it('bounds authenticated bodies too: 300 requests of 900 KiB keep the journal under its byte bound', {
    timeout: 120_000,
  }, async () => {
    const result = await runInSmallHeap<{ kept: string[]; bytes: number; accounted: number }>(`
        const { MockCore } = await import(src + '/core/mock.ts');
        const core = new MockCore({ sizes: { workspaces: 3, events: 10 } });
        const [primary] = core.accounts();
        const login = await core.handle({ method: 'POST', path: '/v2/login', body: { accessKey: primary.accessKey, secretKey: primary.secretKey } });
        const token = login.body.accessToken;
        const big = JSON.stringify({ searchValue: 'x'.repeat(900 * 1024) });
        for (let i = 0; i < 300; i++) {
          await core.handle({ method: 'POST', path: '/v2/workspaces/search', rawBody: big, headers: { authorization: 'Bearer ' + token } });
        }
        const journal = core.control.journal();
        return { kept: [...new Set(journal.slice(-5).map((e) => typeof e.body === 'string' ? e.body.slice(0, 20) : 'object'))], bytes: JSON.stringify(journal).length, accounted: 0 };
      `);
    expect(result.kept).toEqual([tooLargeToKeep(1).slice(0, 20)]);
    expect(result.bytes).toBeLessThan(DEFAULT_JOURNAL_MAX_BYTES);
  });

  it('drops the oldest entries past its byte bound, and keeps bodies up to its body bound', () => {
    const journal = new Journal({ limit: 1000, maxBytes: 20_000, maxBodyBytes: 5_000 });
    for (let i = 0; i < 50; i++) {
      journal.record({ method: 'POST', path: `/p${i}` }, ok, journal.nextRequestId(), 0, 0, () => ({
        text: 'y'.repeat(3_000),
      }));
    }
    expect(journal.bytes).toBeLessThanOrEqual(20_000);
    expect(journal.size).toBeGreaterThan(3);
    expect(journal.size).toBeLessThan(10);
    expect(journal.list().at(-1)?.path).toBe('/p49');
    expect(journal.list().at(-1)?.body).toEqual({ text: 'y'.repeat(3_000) });
    journal.record({ method: 'POST', path: '/big' }, ok, journal.nextRequestId(), 0, 0, () => ({
      text: 'z'.repeat(6_000),
    }));
    expect(journal.list().at(-1)?.body).toMatch(/^\[too large to keep: about \d+ bytes\]$/);
  });

  it('keeps no body of a request answered 401, 413, 415 or 429 even when a stage read it', () => {
    const journal = new Journal();
    for (const status of [401, 413, 415, 429, 400]) {
      journal.record(
        { method: 'POST', path: `/s${status}` },
        { status, headers: {}, body: undefined },
        journal.nextRequestId(),
        0,
        0,
        () => ({ note: 'kept only for 400' }),
      );
    }
    expect(journal.list().map((e) => e.body)).toEqual([
      NOT_KEPT,
      NOT_KEPT,
      NOT_KEPT,
      NOT_KEPT,
      { note: 'kept only for 400' },
    ]);
  });

  it('writes a webhook URL with its user name, password and secret query values redacted (L2)', () => {
    const journal = new Journal();
    journal.record(
      { method: 'POST', path: '/__mock/integrations/webhook' },
      ok,
      journal.nextRequestId(),
      0,
      0,
      () => ({
        nickname: 'hook',
        url: 'https://user:pw-very-secret@hooks.example.test/in?token=tok-very-secret&team=a',
      }),
    );
    const text = JSON.stringify(journal.list());
    expect(text).not.toContain('pw-very-secret');
    expect(text).not.toContain('tok-very-secret');
    expect(text).toContain('hooks.example.test/in');
    expect(text).toContain('team=a');
  });
});
