/**
 * The event cursor: the event center's continuation tokens. A token is signed (any change is
 * detected) and bound to the query's hash (it only continues the query it came from); the signer is
 * made once per mock and kept across resets, so earlier tokens stay valid.
 *
 * @module
 */
import type { Event } from '@iacm/sdk/contract';
import { TokenSigner } from '../auth/jwt.js';
import { validationError } from '../errors.js';

/** Where a page ends: the last event's timestamp and id. */
export interface CursorPosition {
  /** `event_timestamp` of the last event of the page. */
  timestamp: string;
  /** Its id. */
  id: string;
}

/** Encodes and decodes continuation tokens. */
export class EventCursor {
  readonly #signer: TokenSigner;

  /** Creates a cursor codec with its signing secret. */
  constructor(secret: string) {
    this.#signer = new TokenSigner(secret);
  }

  /** The continuation token after `last`, for the query whose hash is `queryHash`. */
  encode(queryHash: string, last: Event): Promise<string> {
    // A JWT-shaped token: signed, so any change is detected; bound to the query's hash.
    return this.#signer.sign({
      sub: `${queryHash}|${last.event_timestamp}|${last.id}`,
      iat: 0,
      exp: 4102444800,
      jti: 'c',
    });
  }

  /** Where a token says the previous page ended; 400 when it was altered or belongs to another query. */
  async decode(token: string, queryHash: string): Promise<CursorPosition> {
    const result = await this.#signer.verify(token, 0);
    const [tokenHash, timestamp, id] = 'claims' in result ? result.claims.sub.split('|') : [];
    if (!tokenHash || !timestamp || !id) {
      throw invalid(
        'body.continuationToken: this token was not issued by this server or was altered; send back the token of the previous page unchanged',
      );
    }
    if (tokenHash !== queryHash) {
      throw invalid(
        'body.continuationToken: this token belongs to a different query; send it with the same query (filters, time window, search text) as the page it came from',
      );
    }
    return { timestamp, id };
  }
}

function invalid(message: string) {
  return validationError([{ location: 'body', path: 'continuationToken', message }]);
}
