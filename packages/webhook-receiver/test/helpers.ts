import type { AuthorizationHeaderCredentials, BasicCredentials, WebhookResponse } from '../src/index.js';

export const SECRET_PASSWORD = 'pässword-Zq8#SECRET-7f3a';
export const SECRET_TOKEN = 'tok_SECRET_9b1d4e7a2c';

export const basic: BasicCredentials = { type: 'basic', username: 'iacm-hooks', password: SECRET_PASSWORD };
export const header: AuthorizationHeaderCredentials = { type: 'header', value: `Bearer ${SECRET_TOKEN}` };

/** Parses a receiver answer's JSON body. */
export function json(answer: WebhookResponse): Record<string, unknown> {
  return JSON.parse(answer.body) as Record<string, unknown>;
}

/**
 * A copy of `value` with the member at `path` replaced by `by` (removed, for `undefined`); the input
 * is not changed.
 */
export function replaced(value: unknown, path: readonly (string | number)[], by: unknown): unknown {
  if (path.length === 0) return by;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<
    string | number,
    unknown
  >;
  if (rest.length === 0 && by === undefined) delete copy[head];
  else copy[head] = replaced(copy[head], rest, by);
  return copy;
}
