/**
 * The fetch-style adapter, `(Request) => Promise<Response>`: Hono, Bun, Deno, Cloudflare Workers,
 * Next.js route handlers. Web-standard APIs only.
 *
 * @module
 */
import { readWebStream } from './body.js';
import type { WebhookReceiverLike } from './receiver.js';

/**
 * Creates a fetch-style handler, `(request: Request) => Promise<Response>`, that answers every
 * request it gets (route only the webhook path to it; any method other than POST gets 405). It reads
 * the raw body itself and stops reading past the receiver's `maxBodyBytes`.
 * @param receiver the receiver (see {@link createWebhookReceiver}).
 * @example
 * // Hono
 * app.all('/webhooks', (c) => handler(c.req.raw));
 * // Next.js app/webhooks/route.ts
 * export const POST = createFetchHandler(receiver);
 * // Bun / Deno
 * Bun.serve({ fetch: createFetchHandler(receiver) });
 */
export function createFetchHandler(receiver: WebhookReceiverLike): (request: Request) => Promise<Response> {
  return async (request) => {
    const answer = await receiver.handle({
      method: request.method,
      headers: request.headers,
      body: (limit) => (request.bodyUsed ? Promise.resolve(alreadyRead) : readWebStream(request.body, limit)),
    });
    return new Response(answer.body, { status: answer.status, headers: answer.headers });
  };
}

const alreadyRead = {
  problem: 'already_parsed',
  hint: 'the request body was already read before the receiver got the Request (request.json() or request.text() ran first?): pass the Request untouched',
} as const;
