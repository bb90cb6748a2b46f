import type { Event } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import {
  cachedTextPredicate,
  EVENT_TEXT_FIELDS,
  isInternalId,
  searchNeedle,
  textPredicate,
} from '../../src/query/text.js';
import { EventLog } from '../../src/store/event-log.js';

describe('free-text search', () => {
  it('trims the text, treats a blank one as no filter, and lower-cases with toLowerCase()', () => {
    expect(searchNeedle('  Prod\t\n')).toBe('prod');
    expect(searchNeedle('\u00a0\u2003Prod\u3000')).toBe('prod');
    for (const blank of ['', '   ', '\t\n', '\u00a0', undefined, null])
      expect(searchNeedle(blank)).toBeUndefined();
    expect(textPredicate('   ', (s: string) => [s])).toBeUndefined();
  });

  it('matches a case-insensitive substring of any field, without locale rules or normalisation', () => {
    const match = textPredicate('  NET ', (r: { a: string; b?: string }) => [r.a, r.b]);
    expect(match?.({ a: 'core-network' })).toBe(true);
    expect(match?.({ a: 'x', b: 'Subnets' })).toBe(true);
    expect(match?.({ a: 'n-e-t' })).toBe(false);
    // toLowerCase() maps the Turkish dotted capital I to "i" + combining dot, whatever the locale.
    expect(textPredicate('i', (s: string) => [s])?.('İstanbul')).toBe(true);
    // No normalisation: a precomposed é does not match e + combining acute accent.
    expect(textPredicate('\u00e9', (s: string) => [s])?.('cafe\u0301')).toBe(false);
    // Pattern characters are literal.
    expect(textPredicate('a*', (s: string) => [s])?.('abc')).toBe(false);
  });

  it('knows internal ids: 24-hex object ids and UUIDs, either case', () => {
    expect(isInternalId('68fcd19666b53eb2c86d6919')).toBe(true);
    expect(isInternalId('68FCD19666B53EB2C86D6919')).toBe(true);
    expect(isInternalId('729779f2-43f0-4e62-ba56-8342c86d69ba')).toBe(true);
    for (const text of [
      '10600300926',
      'arn:aws:s3:::acme-logs',
      'int-aws-prod-1',
      '68fcd19666b53eb2c86d691',
    ]) {
      expect(isInternalId(text), text).toBe(false);
    }
  });

  it('never searches an event value that is an internal id', async () => {
    const event: Event = {
      id: '00000000-0000-4000-8000-000000000000',
      account_id: 'a',
      integration_id: 'int-aws-prod-1',
      event_timestamp: '2026-01-01T00:00:00.000Z',
      event_type: 'guardrails_violation',
      provider_type: 'aws',
      asset_id: '68fcd19666b53eb2c86d6919',
      asset_type: 'iacm_workspace',
      event: {
        mutation_id: 'm',
        mutation_type: 'update',
        attributes: [
          { key: 'ruleId', value: '68debceb2f9b18c9c86d6913' },
          { key: 'stackId', value: '729779f2-43f0-4e62-ba56-8342c86d69ba' },
          { key: 'ruleName', value: 'No public buckets' },
          { key: 'runId', value: '869' },
        ],
      },
    };
    const log = new EventLog([event]);
    const finds = async (text: string) =>
      (await log.search({ needle: searchNeedle(text) }, { size: 10 }, [])).page.length === 1;
    for (const text of ['guardrails_violation', 'IACM_WORKSPACE', 'public bucket', '869']) {
      expect(await finds(text), text).toBe(true);
    }
    // Parts of the asset id, the rule id and the stack id (internal ids), and the integration and
    // provider (not searched fields) never match.
    for (const text of ['68fcd196', 'c9c86d6913', '729779f2', '8342c86d69ba', 'int-aws', 'aws']) {
      expect(await finds(text), text).toBe(false);
    }
    expect(EVENT_TEXT_FIELDS).toEqual(['eventType', 'assetType', 'assetId']);
  });

  it('matches with a per-record cache exactly as without, reading each record once', () => {
    type R = { a: string; b: string | null };
    const fields = (r: R) => [r.a, r.b];
    let cachedReads = 0;
    const counted = (r: R) => {
      cachedReads++;
      return fields(r);
    };
    const cache = new WeakMap<R, string>();
    const records: R[] = [
      { a: 'Core-NET', b: 'Σίσυφος' },
      { a: 'xa', b: 'by' },
      { a: 'İstanbul', b: null },
    ];
    for (const text of ['net', 'xa', 'ς', 'σί', 'i', 'by', 'zz', ' CORE ', 'a\u0000b']) {
      const plain = textPredicate(text, fields);
      const cached = cachedTextPredicate(text, counted, cache);
      for (const record of records) expect(cached?.(record), `${text} in ${record.a}`).toBe(plain?.(record));
      // Each record's texts are read once, for the cache (a search holding U+0000 reads them again).
      if (!text.includes('\u0000')) expect(cachedReads).toBe(records.length);
    }
    // Across two texts never matches (the cache joins them with U+0000).
    expect(cachedTextPredicate('a\u0000b', fields, cache)?.(records[1] as R)).toBe(false);
    expect(cachedTextPredicate('A', fields, cache)?.(records[1] as R)).toBe(true);
  });
});
