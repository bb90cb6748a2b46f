import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 } from '../src/sha256.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const utf8 = (text: string) => new TextEncoder().encode(text);

// The credential check compares digests of this function on both sides: a wrong digest would make a
// configured credential never match, or two different headers match.
describe('sha256 (the credential check digest)', () => {
  it('gives the FIPS 180-4 example digests', () => {
    expect(hex(sha256(utf8('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256(utf8('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(hex(sha256(new Uint8Array(1_000_000).fill(0x61)))).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
  });

  it('matches node:crypto at every length around the block and padding boundaries', () => {
    const bytes = new Uint8Array(200).map((_, i) => (i * 37 + 11) & 0xff);
    for (let length = 0; length <= 200; length++) {
      const input = bytes.subarray(0, length);
      expect(hex(sha256(input)), `length ${length}`).toBe(createHash('sha256').update(input).digest('hex'));
    }
  });

  it('gives the same digest whatever was hashed before (one-block inputs share a buffer)', () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    for (let length = 55; length >= 0; length--) {
      sha256(new Uint8Array(length).fill(0xff));
      expect(hex(sha256(utf8('abc'))), `after ${length} bytes`).toBe(abc);
    }
  });

  it('matches node:crypto on arbitrary input and leaves the input unchanged', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (input) => {
        const before = hex(input);
        expect(hex(sha256(input))).toBe(createHash('sha256').update(input).digest('hex'));
        expect(hex(input)).toBe(before);
      }),
      { numRuns: 300 },
    );
  });
});
