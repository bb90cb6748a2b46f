/**
 * Secrets the mock makes for itself (the token signing key; random key pairs on a non-loopback bind):
 * always from `crypto.getRandomValues`, never from the seeded data generator.
 *
 * @module
 */

/** `bytes` random bytes from `crypto.getRandomValues`, as lower-case hexadecimal (2 digits a byte). */
export function randomHex(bytes: number): string {
  const data = crypto.getRandomValues(new Uint8Array(bytes));
  let out = '';
  for (const byte of data) out += byte.toString(16).padStart(2, '0');
  return out;
}
