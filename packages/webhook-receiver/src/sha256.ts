/**
 * SHA-256 (FIPS 180-4) in plain JavaScript, synchronous.
 *
 * The credential check hashes every received `Authorization` header so that it can compare fixed-size
 * digests in constant time. `crypto.subtle.digest` does that through a thread-pool round trip and a
 * promise per call, which cost a fifth of a small delivery's handling (docs/performance.md, P5); a
 * header of a few dozen bytes takes about half a microsecond here. The configured credentials are hashed
 * the same way, so both sides of a comparison always come from this one function (tested against the
 * FIPS vectors and `node:crypto`).
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);

/** The message schedule, reused by every call (the function is synchronous, so never shared). */
const W = new Uint32Array(64);

/** The padded message of a one-block input, reused by every call like {@link W} (zeroed after each). */
const BLOCK = new Uint8Array(64);
const BLOCK_VIEW = new DataView(BLOCK.buffer);

/** The SHA-256 digest (32 bytes) of `bytes`. */
export function sha256(bytes: Uint8Array): Uint8Array {
  const length = bytes.length;
  // The message, a 0x80 byte, zeros, and the bit length in 8 bytes, padded to 64-byte blocks.
  const size = (((length + 8) >> 6) + 1) << 6;
  // One block (a header or credential of up to 55 bytes, the usual case) reuses the module's buffer.
  const padded = size === 64 ? BLOCK : new Uint8Array(size);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = size === 64 ? BLOCK_VIEW : new DataView(padded.buffer);
  const bits = length * 8;
  view.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(padded.length - 4, bits >>> 0);

  let h0 = 0x6a09e667;
  let h1 = 0xbb67ae85;
  let h2 = 0x3c6ef372;
  let h3 = 0xa54ff53a;
  let h4 = 0x510e527f;
  let h5 = 0x9b05688c;
  let h6 = 0x1f83d9ab;
  let h7 = 0x5be0cd19;

  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const w15 = W[i - 15] as number;
      const w2 = W[i - 2] as number;
      const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
      const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
      W[i] = (W[i - 16] as number) + s0 + (W[i - 7] as number) + s1;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const ch = (e & f) ^ (~e & g);
      const t1 = (h + s1 + ch + (K[i] as number) + (W[i] as number)) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const maj = (a & b) ^ (a & c) ^ (b & c);
      const t2 = (s0 + maj) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }

  // No copy of the message (a credential) is left in the module's buffers.
  W.fill(0);
  if (size === 64) BLOCK.fill(0);
  const digest = new Uint8Array(32);
  put(digest, 0, h0);
  put(digest, 4, h1);
  put(digest, 8, h2);
  put(digest, 12, h3);
  put(digest, 16, h4);
  put(digest, 20, h5);
  put(digest, 24, h6);
  put(digest, 28, h7);
  return digest;
}

/** Writes a 32-bit word big-endian at `offset` (without a DataView per digest). */
function put(digest: Uint8Array, offset: number, word: number): void {
  digest[offset] = word >>> 24;
  digest[offset + 1] = word >>> 16;
  digest[offset + 2] = word >>> 8;
  digest[offset + 3] = word;
}
