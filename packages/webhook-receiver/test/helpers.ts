import type { AuthorizationHeaderCredentials, BasicCredentials, WebhookResponse } from '../src/index.js';

export const SECRET_PASSWORD = 'pässword-Zq8#SECRET-7f3a';
export const SECRET_TOKEN = 'tok_SECRET_9b1d4e7a2c';

export const basic: BasicCredentials = { type: 'basic', username: 'iacm-hooks', password: SECRET_PASSWORD };
export const header: AuthorizationHeaderCredentials = { type: 'header', value: `Bearer ${SECRET_TOKEN}` };

/** Parses a receiver answer's JSON body. */
export function json(answer: WebhookResponse): Record<string, unknown> {
  return JSON.parse(answer.body) as Record<string, unknown>;
}
