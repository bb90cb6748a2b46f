/**
 * The respond stage: an operation's result becomes the success answer of its endpoint (200 with
 * JSON, or 204 with nothing); a thrown {@link HttpError} becomes the one documented error body; any
 * other error is a bug of the mock, answered 500 without its details.
 *
 * @module
 */
import type { EndpointDefinition } from '@iacm/sdk/contract';
import { HttpError } from '../errors.js';
import { internalErrorResponse, type MockResponse } from '../http/message.js';

/** The success answer of an endpoint for an operation's result. */
export function successResponse(definition: EndpointDefinition, result: unknown): MockResponse {
  if (definition.successStatus === 204) return { status: 204, headers: {}, body: undefined };
  return { status: 200, headers: { 'content-type': 'application/json' }, body: result };
}

/** The error answer for anything a stage threw. */
export function errorResponse(error: unknown, requestId: string): MockResponse {
  if (error instanceof HttpError) {
    const body: Record<string, unknown> = {
      status: error.status,
      code: error.code,
      message: error.message,
      requestId,
    };
    if (error.issues) body.issues = error.issues;
    return { status: error.status, headers: { 'content-type': 'application/json', ...error.headers }, body };
  }
  return internalErrorResponse(requestId);
}

/** Adds the request id to an answer (every answer carries `x-request-id`). */
export function withRequestId(response: MockResponse, requestId: string): MockResponse {
  response.headers['x-request-id'] = requestId;
  return response;
}
