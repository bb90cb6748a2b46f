import { describe, expect, it } from 'vitest';
import { parseQuery, readRequestLine } from '../../src/pipeline/request.js';

describe('request stage', () => {
  it('upper-cases the method, drops trailing slashes and reads a repeated parameter as a list', () => {
    const line = readRequestLine({
      method: 'post',
      path: '/v2/workspaces/search//',
      query: new URLSearchParams('a=1&a=2&b=3'),
    });
    expect(line).toEqual({
      method: 'POST',
      path: '/v2/workspaces/search',
      query: { a: ['1', '2'], b: '3' },
      control: false,
    });
  });

  it('keeps the root path and tells control-plane paths apart', () => {
    expect(readRequestLine({ method: 'GET', path: '/' }).path).toBe('/');
    expect(readRequestLine({ method: 'GET', path: '/__mock' }).control).toBe(true);
    expect(readRequestLine({ method: 'GET', path: '/__mock/journal/' }).control).toBe(true);
    expect(readRequestLine({ method: 'GET', path: '/__mockery' }).control).toBe(false);
  });

  it('reads prototype-named parameters as ordinary members of a record without a prototype', () => {
    const query = parseQuery(
      new URLSearchParams('__proto__=a&constructor=b&toString=c&toString=d&hasOwnProperty=e'),
    );
    expect(Object.getPrototypeOf(query)).toBeNull();
    expect(Object.entries(query)).toEqual([
      ['__proto__', 'a'],
      ['constructor', 'b'],
      ['toString', ['c', 'd']],
      ['hasOwnProperty', 'e'],
    ]);
    const fromRecord = parseQuery(JSON.parse('{"__proto__":["x","y"],"valueOf":"z","page":["1"]}'));
    expect(Object.entries(fromRecord)).toEqual([
      ['__proto__', ['x', 'y']],
      ['valueOf', 'z'],
      ['page', '1'],
    ]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
