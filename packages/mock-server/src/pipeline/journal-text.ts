/**
 * The journal's redaction of what it writes down, each part at its cheapest: the request's headers
 * (credentials' values replaced, each header name's verdict remembered), path parameters and queries
 * (`{}` written as it is), and a body's webhook URL. The rules are the contract's (`http/redact.ts`).
 *
 * @module
 */
import { redactUrl } from '../domain/webhook-url.js';
import type { MockRequest } from '../http/message.js';
import { isSecretHeader, REDACTED, redactBody } from '../http/redact.js';
import { Memo } from '../query/memo.js';

/**
 * Whether a header name (lower-case) is a credential's, remembered per name: the contract's rule
 * (`isSecretHeader`) splits the name into words, and the same few names come with every request.
 */
const secretHeaderNames = new Memo<'secret' | 'plain'>({ maxEntries: 512, maxKeyLength: 128 });

function isSecretHeaderName(name: string): boolean {
  return secretHeaderNames.get(name, (key) => (isSecretHeader(key) ? 'secret' : 'plain')) === 'secret';
}

/** The request's headers as the journal keeps them: names lower-case, credentials' values redacted. */
export function redactedHeaders(source: MockRequest['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (source === undefined) return headers;
  if (source instanceof Headers) {
    // Names come lower-case; a repeated `set-cookie` comes once per value, the last kept.
    source.forEach((value, name) => {
      headers[name] = isSecretHeaderName(name) ? REDACTED : value;
    });
    return headers;
  }
  for (const name of Object.keys(source)) {
    const value = source[name];
    if (value === undefined) continue;
    const key = name.toLowerCase();
    headers[key] = isSecretHeaderName(key) ? REDACTED : typeof value === 'string' ? value : value.join(', ');
  }
  return headers;
}

/** Whether `value` is a plain object without members (`{}`: nothing to bound or redact). */
export function isEmptyRecord(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  for (const _ in value) return false;
  return true;
}

/** The JSON text of path parameters or a query, credentials redacted. */
export function redactedText(value: unknown): string {
  return isEmptyRecord(value) ? '{}' : JSON.stringify(redactBody(value));
}

/**
 * A body whose top-level `url` member (a webhook integration's) is shown with its user name, password
 * and secret-looking query parameters redacted; any other body as it is.
 */
export function redactUrlMember(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body;
  const url = (body as { url?: unknown }).url;
  return typeof url === 'string' ? { ...body, url: redactUrl(url) } : body;
}
