/**
 * HS256 JSON Web Tokens through WebCrypto (`crypto.subtle`), so the core runs in Node, browsers and
 * edge runtimes alike.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** The claims the mock puts in a token. */
export interface TokenClaims {
  /** The account the token belongs to. */
  sub: string;
  /** Issued at, epoch seconds. */
  iat: number;
  /** Expires at, epoch seconds. */
  exp: number;
  /** A unique token id. */
  jti: string;
}

/** Why a token was refused. */
export type TokenProblem = 'malformed' | 'signature' | 'expired';

/** Signs and verifies HS256 tokens with one secret. */
export class TokenSigner {
  readonly #key: Promise<CryptoKey>;

  /** Creates a signer; `secret` is the HMAC key (never logged or returned). */
  constructor(secret: string) {
    this.#key = crypto.subtle.importKey(
      'raw',
      encoder.encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  /** Signs the claims into a compact JWT. */
  async sign(claims: TokenClaims): Promise<string> {
    const header = base64url(encoder.encode(JSON.stringify({ alg: 'HS256', typ: 'JWT' })));
    const payload = base64url(encoder.encode(JSON.stringify(claims)));
    const signature = await crypto.subtle.sign(
      'HMAC',
      await this.#key,
      encoder.encode(`${header}.${payload}`),
    );
    return `${header}.${payload}.${base64url(new Uint8Array(signature))}`;
  }

  /**
   * Verifies a compact JWT: its form, its HS256 signature (compared by WebCrypto in constant time),
   * and its expiry against `nowSeconds`.
   */
  async verify(
    token: string,
    nowSeconds: number,
  ): Promise<{ claims: TokenClaims } | { problem: TokenProblem }> {
    const parts = token.split('.');
    if (parts.length !== 3) return { problem: 'malformed' };
    const [headerText, payloadText, signatureText] = parts as [string, string, string];
    const headerBytes = fromBase64url(headerText);
    const payloadBytes = fromBase64url(payloadText);
    const signature = fromBase64url(signatureText);
    if (!headerBytes || !payloadBytes || !signature) return { problem: 'malformed' };
    let header: unknown;
    let claims: unknown;
    try {
      header = JSON.parse(decoder.decode(headerBytes));
      claims = JSON.parse(decoder.decode(payloadBytes));
    } catch {
      return { problem: 'malformed' };
    }
    if (!isObject(header) || header.alg !== 'HS256') return { problem: 'malformed' };
    const valid = await crypto.subtle.verify(
      'HMAC',
      await this.#key,
      signature as Uint8Array<ArrayBuffer>,
      encoder.encode(`${headerText}.${payloadText}`),
    );
    if (!valid) return { problem: 'signature' };
    if (!isObject(claims) || typeof claims.sub !== 'string' || typeof claims.exp !== 'number')
      return { problem: 'malformed' };
    if (claims.exp <= nowSeconds) return { problem: 'expired' };
    return { claims: claims as unknown as TokenClaims };
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Compares two strings in time that depends only on the length of `expected`'s hash, not on where
 * they differ (both are hashed first, so neither length nor content leaks).
 */
export async function constantTimeEqual(actual: string, expected: string): Promise<boolean> {
  const [a, b] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(actual)),
    crypto.subtle.digest('SHA-256', encoder.encode(expected)),
  ]);
  const x = new Uint8Array(a);
  const y = new Uint8Array(b);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= (x[i] as number) ^ (y[i] as number);
  return diff === 0;
}
