/**
 * The steps of `WebhookReceiver.handle()`, for an adapter that reads the body itself with
 * callbacks (the Node adapter): the head is checked before anything is read, and the answer is made
 * in the same turn as the body's last byte when no handler returns a promise, without a promise per
 * delivery. A receiver offers them under a `Symbol.for` key, so that an adapter of another copy of
 * this package finds them too; an adapter that does not find them calls `handle()`.
 *
 * @module
 */
import type { BodyReadProblem, HeaderSource, RawBody } from '@iacm/sdk/contract';

/** The key a receiver's {@link ReceiverSteps} are under. @internal */
export const RECEIVER_STEPS: unique symbol = Symbol.for('@iacm/webhook-receiver/steps') as never;

/** The steps of `handle()`, in order; `Answer` is the receiver's `WebhookResponse`. @internal */
export interface ReceiverSteps<Answer> {
  /** The largest body accepted, in bytes: the reader stops past it. */
  readonly maxBodyBytes: number;
  /**
   * Method, credentials, content type, and a declared `Content-Length` over the limit: the refusal
   * to answer, or `undefined` when the body should be read.
   */
  head(method: string | undefined, headers: HeaderSource): Answer | undefined;
  /** The answer once the body is read (what the reader answered), or its promise when a handler returned one. */
  body(read: RawBody | BodyReadProblem): Answer | Promise<Answer>;
  /** The answer when the body could not be read (the connection closed or broke). */
  readFailed(cause: unknown): Answer;
}

/** The steps of `receiver`, when it offers them. @internal */
export function stepsOf<Answer>(receiver: object): ReceiverSteps<Answer> | undefined {
  return (receiver as { [RECEIVER_STEPS]?: ReceiverSteps<Answer> })[RECEIVER_STEPS];
}
