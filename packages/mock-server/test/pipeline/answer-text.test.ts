import { describe, expect, it, vi } from 'vitest';
import { answerBytes, MAX_WRITTEN_VALUES, RecordTexts } from '../../src/pipeline/answer-text.js';
import { setup } from '../helpers.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** What the adapters wrote before the cache: `JSON.stringify`'s text in UTF-8. */
function stringified(body: unknown): Uint8Array | undefined {
  const text = JSON.stringify(body);
  return text === undefined ? undefined : encoder.encode(text);
}

function text(bytes: Uint8Array | undefined): string | undefined {
  return bytes === undefined ? undefined : decoder.decode(bytes);
}

type Workspace = { id: string; labels: string[]; workspaceName: string };

describe("the answer's JSON text (answerBytes)", () => {
  it('is byte for byte JSON.stringify of a page of stored records, and keeps their texts', async () => {
    const { call } = await setup();
    const res = await call('POST', '/v2/workspaces/search', { body: {} });
    const page = res.body as Workspace[];
    expect(page.length).toBeGreaterThan(1);
    expect(Object.isFrozen(page[0])).toBe(true);
    const texts = new RecordTexts();
    expect(answerBytes(page, texts)).toEqual(stringified(page));
    expect(texts.bytes).toBeGreaterThan(0);
    // Again, from the kept texts: the same bytes.
    expect(answerBytes(page, texts)).toEqual(stringified(page));
  });

  it('reflects a write: the new version of a record is written, not the kept text of the old one', async () => {
    const { call } = await setup();
    const texts = new RecordTexts();
    const before = (await call('POST', '/v2/workspaces/search', { body: {} })).body as Workspace[];
    answerBytes(before, texts);
    const target = before[0] as Workspace;
    const put = await call('PUT', `/v2/workspaces/${target.id}/labels`, {
      body: { labels: ['changed-here'] },
    });
    expect(put.status).toBe(200);
    const after = (await call('POST', '/v2/workspaces/search', { body: {} })).body as Workspace[];
    const bytes = answerBytes(after, texts);
    expect(bytes).toEqual(stringified(after));
    const written = JSON.parse(text(bytes) ?? '[]') as Workspace[];
    expect(written.find((w) => w.id === target.id)?.labels).toEqual(['changed-here']);
  });

  it('writes a projected page (field selection) as JSON.stringify does, not the full records', async () => {
    const { call } = await setup();
    const texts = new RecordTexts();
    const full = (await call('POST', '/v2/workspaces/search', { body: {} })).body;
    answerBytes(full, texts);
    const projected = (
      await call('POST', '/v2/workspaces/search', { body: { projection: ['workspaceName', 'labels'] } })
    ).body as Array<Record<string, unknown>>;
    const bytes = answerBytes(projected, texts);
    expect(bytes).toEqual(stringified(projected));
    expect(Object.keys(JSON.parse(text(bytes) ?? '[]')[0])).toEqual(['id', 'workspaceName', 'labels']);
  });

  it('never keeps the text of a value that can change: not frozen, or frozen over something mutable', () => {
    const texts = new RecordTexts();
    const open = { id: 'a', labels: ['x'] };
    expect(text(answerBytes([open], texts))).toBe('[{"id":"a","labels":["x"]}]');
    open.labels.push('y');
    expect(text(answerBytes([open], texts))).toBe('[{"id":"a","labels":["x","y"]}]');
    const inner = ['x'];
    const shallow = Object.freeze({ id: 'b', labels: inner });
    expect(text(answerBytes([shallow], texts))).toBe('[{"id":"b","labels":["x"]}]');
    inner.push('y');
    expect(text(answerBytes([shallow], texts))).toBe('[{"id":"b","labels":["x","y"]}]');
    expect(texts.bytes).toBe(0);
  });

  it('writes what JSON.stringify writes for members without JSON, numbers without JSON and other objects', () => {
    const texts = new RecordTexts();
    const frozen = Object.freeze({ id: 'f', n: Object.freeze([1, 2]) });
    const bodies: unknown[] = [
      undefined,
      null,
      'text "quoted" \u2028 é \ud800',
      [undefined, () => 1, Symbol('s'), Number.NaN, Number.POSITIVE_INFINITY, -0, frozen],
      { a: undefined, b: () => 1, c: Symbol('s'), d: 1, 'key "quoted"': frozen },
      { when: new Date(0), list: [frozen, { deep: { deeper: { deepest: { bottom: [1] } } } }] },
      { nested: { toJSON: () => 'custom' } },
      Object.assign(Object.create(null) as Record<string, unknown>, { z: 1, a: [frozen] }),
      { e: new Map([[1, 2]]), f: [new Uint8Array([1])] },
    ];
    for (const body of bodies) expect(answerBytes(body, texts)).toEqual(stringified(body));
  });

  it('honours a toJSON inherited after a record text was kept (a polluted prototype)', () => {
    const record = Object.freeze({ id: 'w1', labels: Object.freeze(['a']) });
    const texts = new RecordTexts();
    expect(text(answerBytes([record], texts))).toBe('[{"id":"w1","labels":["a"]}]');
    expect(texts.kept(record)).toBeDefined();
    const proto = Object.prototype as { toJSON?: () => unknown };
    proto.toJSON = () => 'polluted';
    try {
      expect(answerBytes([record], texts)).toEqual(stringified([record]));
      expect(text(answerBytes([record], texts))).toBe('"polluted"'); // the array inherits it too
      // A container that inherits nothing: the record's own kept text must not be used.
      const container = Object.assign(Object.create(null) as Record<string, unknown>, { item: record });
      expect(answerBytes(container, texts)).toEqual(stringified(container));
      expect(text(answerBytes(container, texts))).toBe('{"item":"polluted"}');
    } finally {
      delete proto.toJSON;
    }
    expect(text(answerBytes([record], texts))).toBe('[{"id":"w1","labels":["a"]}]');
  });

  it('throws where JSON.stringify throws (a bigint), whatever the cache holds', () => {
    expect(() => answerBytes({ n: 1n })).toThrow(TypeError);
  });

  it('keeps at most its bound of bytes, starting again when full', () => {
    const texts = new RecordTexts(100);
    const records = Array.from({ length: 10 }, (_, i) =>
      Object.freeze({ id: `record-${i}`, text: 'x'.repeat(20) }),
    );
    for (const record of records) {
      expect(answerBytes([record], texts)).toEqual(stringified([record]));
      expect(texts.bytes).toBeLessThanOrEqual(100);
    }
    expect(texts.bytes).toBeGreaterThan(0);
    const huge = Object.freeze({ id: 'huge', text: 'x'.repeat(200) });
    expect(answerBytes(huge, texts)).toEqual(stringified(huge));
    expect(texts.bytes).toBeLessThanOrEqual(100);
  });
});

describe('an answer of many small values (finding 7 of issue 34)', () => {
  it('is written by JSON.stringify whole past MAX_WRITTEN_VALUES, not piece by piece: the same bytes', () => {
    // A listing of kept one-off answers whose bodies are 100,000 empty objects each.
    const listing = Array.from({ length: 3 }, (_, i) => ({
      id: `answer_${i}`,
      body: { items: Array.from({ length: 100_000 }, () => ({})) },
    }));
    const stringify = vi.spyOn(JSON, 'stringify');
    const bytes = answerBytes(listing, new RecordTexts());
    // Written once whole, after at most MAX_WRITTEN_VALUES values walked.
    const whole = stringify.mock.calls.filter(([value]) => value === listing).length;
    const calls = stringify.mock.calls.length;
    stringify.mockRestore();
    expect(whole).toBe(1);
    expect(calls).toBeLessThanOrEqual(MAX_WRITTEN_VALUES + 2);
    expect(bytes).toEqual(stringified(listing));
  });

  it('still writes a page of projected items piece by piece', () => {
    const page = Array.from({ length: 100 }, (_, i) => ({
      id: `w${i}`,
      name: `ws-${i}`,
      labels: ['a', 'b'],
    }));
    const stringify = vi.spyOn(JSON, 'stringify');
    const bytes = answerBytes(page, new RecordTexts());
    const whole = stringify.mock.calls.filter(([value]) => value === page).length;
    stringify.mockRestore();
    expect(whole).toBe(0);
    expect(bytes).toEqual(stringified(page));
  });
});
