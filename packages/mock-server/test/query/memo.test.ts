import { describe, expect, it } from 'vitest';
import { Memo } from '../../src/query/memo.js';

/** A memo with a compute function that counts its calls. */
function counting(options: { maxEntries: number; maxKeyLength: number }) {
  const memo = new Memo<string>(options);
  const calls: string[] = [];
  const compute = (key: string) => {
    calls.push(key);
    return `value of ${key}`;
  };
  return { memo, calls, get: (key: string) => memo.get(key, compute) };
}

describe('Memo', () => {
  it('computes a key once and answers the remembered value after', () => {
    const { memo, calls, get } = counting({ maxEntries: 10, maxKeyLength: 10 });
    expect(get('a')).toBe('value of a');
    expect(get('a')).toBe('value of a');
    expect(get('b')).toBe('value of b');
    expect(get('a')).toBe('value of a');
    expect(calls).toEqual(['a', 'b']);
    expect(memo.size).toBe(2);
  });

  it('holds at most maxEntries values: full, it starts afresh with the next new key', () => {
    const { memo, calls, get } = counting({ maxEntries: 3, maxKeyLength: 10 });
    for (const key of ['a', 'b', 'c']) get(key);
    expect(memo.size).toBe(3);
    get('c');
    expect(memo.size).toBe(3);
    get('d');
    expect(memo.size).toBe(1);
    // 'd' is the one kept; 'a' was dropped and is computed again.
    get('d');
    get('a');
    expect(calls).toEqual(['a', 'b', 'c', 'd', 'a']);
    expect(memo.size).toBe(2);
    for (let i = 0; i < 100; i++) {
      get(`k${i}`);
      expect(memo.size).toBeGreaterThanOrEqual(1);
      expect(memo.size).toBeLessThanOrEqual(3);
    }
  });

  it('keeps nothing for a key longer than maxKeyLength, and keeps one of exactly that length', () => {
    const { memo, calls, get } = counting({ maxEntries: 10, maxKeyLength: 4 });
    expect(get('12345')).toBe('value of 12345');
    expect(get('12345')).toBe('value of 12345');
    expect(memo.size).toBe(0);
    expect(get('1234')).toBe('value of 1234');
    expect(get('1234')).toBe('value of 1234');
    expect(memo.size).toBe(1);
    expect(calls).toEqual(['12345', '12345', '1234']);
  });

  it('does not empty itself for a key it does not keep', () => {
    const { memo, get } = counting({ maxEntries: 2, maxKeyLength: 1 });
    get('a');
    get('b');
    get('too long');
    expect(memo.size).toBe(2);
  });
});
