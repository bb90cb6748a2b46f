/**
 * The event cursor: the event center's continuation tokens and the rule "a token continues the
 * query it came from, and nothing else", in one place. Here live the query's identity (which members
 * of an event query make it the same query: the time window, the filters and the search text, not
 * the page size nor the facets asked for; and their digest) and the token's encoding and check. A
 * token is signed (any change is detected) and carries the identity of its query; the signer is made
 * once per mock and kept across resets, so earlier tokens stay valid.
 *
 * @module
 */
import type { Event, EventQueryBody } from '@iacm/sdk/contract';
import { TokenSigner } from '../auth/jwt.js';
import { validationError } from '../errors.js';

/**
 * The members of an event query that a continuation token is bound to (the body's `query`: time
 * window, filters, search text); `undefined` when the body has none.
 */
export type EventQuery = EventQueryBody['query'];

/** Where a page ends: the last event's timestamp and id. */
export interface CursorPosition {
  /** `event_timestamp` of the last event of the page. */
  timestamp: string;
  /** Its id. */
  id: string;
}

/**
 * The identity of an event query: a digest of its canonical JSON (members in name order, at every
 * depth; an absent query is `{}`), so two bodies asking for the same events have the same identity
 * whatever the order of their members.
 */
export async function queryIdentity(query: EventQuery): Promise<string> {
  const canonical = JSON.stringify(query ?? {}, (_, value: unknown) =>
    isRecord(value) ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1))) : value,
  );
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonical));
  return [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Encodes and decodes continuation tokens, each bound to the identity of its query. */
export class EventCursor {
  readonly #signer: TokenSigner;

  /** Creates a cursor codec with its signing secret. */
  constructor(secret: string) {
    this.#signer = new TokenSigner(secret);
  }

  /** The continuation token after `last`, for `query`. */
  async encode(query: EventQuery, last: Event): Promise<string> {
    // A JWT-shaped token: signed, so any change is detected; bound to the query's identity.
    return this.#signer.sign({
      sub: `${await queryIdentity(query)}|${last.event_timestamp}|${last.id}`,
      iat: 0,
      exp: 4102444800,
      jti: 'c',
    });
  }

  /** Where a token says the previous page ended; 400 when it was altered or belongs to another query. */
  async decode(token: string, query: EventQuery): Promise<CursorPosition> {
    const result = await this.#signer.verify(token, 0);
    const [tokenQuery, timestamp, id] = 'claims' in result ? result.claims.sub.split('|') : [];
    if (!tokenQuery || !timestamp || !id) {
      throw invalid(
        'body.continuationToken: this token was not issued by this server or was altered; send back the token of the previous page unchanged',
      );
    }
    if (tokenQuery !== (await queryIdentity(query))) {
      throw invalid(
        'body.continuationToken: this token belongs to a different query; send it with the same query (filters, time window, search text) as the page it came from',
      );
    }
    return { timestamp, id };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(message: string) {
  return validationError([{ location: 'body', path: 'continuationToken', message }]);
}
