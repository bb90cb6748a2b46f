/**
 * A control-plane request over HTTP, from the request line on: access (off: 404; a control token:
 * 403 without it), then the plane's router, which reads the body only once a route matched, with
 * that route's size and JSON bounds. Every answer, an error too, says the mock's version in
 * `x-iacm-mock-version` (the remote client, `connect`, checks it). The mock hands this to the stage
 * sequence (`pipeline/handle.ts`).
 *
 * @module
 */

import type { JsonBounds } from '@iacm/sdk/contract';
import { readHeader } from '@iacm/sdk/contract';
import { HttpError } from '../errors.js';
import type { MockRequest, MockResponse } from '../http/message.js';
import type { RequestBody } from '../pipeline/body.js';
import type { RequestLine } from '../pipeline/request.js';
import { VERSION } from '../version.js';
import { type ControlAccess, checkControlAccess } from './access.js';
import type { ControlPlane } from './plane.js';
import { MOCK_VERSION_HEADER } from './remote-wire.js';
import type { ControlBodyReader } from './route.js';

/** Answers a control request (`/__mock...`) of a plane with its access setting. */
export async function serveControl(
  plane: ControlPlane,
  access: ControlAccess,
  request: MockRequest,
  line: RequestLine,
  body: RequestBody,
  requestId: string,
  signal?: AbortSignal,
): Promise<MockResponse> {
  try {
    await checkControlAccess(request, access);
    // The control plane has no accounts: whoever passed the access check may have the body journalled.
    body.trust();
    const answer = await plane.handle(
      line.method,
      line.path,
      line.query,
      Object.assign((limit: number, jsonBounds?: JsonBounds) => body.value(limit, { jsonBounds }), {
        checked: () => body.release(),
      }) satisfies ControlBodyReader,
      requestId,
      { contentType: readHeader(request.headers, 'content-type'), signal },
    );
    return { ...answer, headers: { ...answer.headers, [MOCK_VERSION_HEADER]: VERSION } };
  } catch (error) {
    if (error instanceof HttpError && !Object.isFrozen(error.headers)) {
      error.headers[MOCK_VERSION_HEADER] = VERSION;
    }
    throw error;
  }
}
