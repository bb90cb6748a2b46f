/**
 * Who may use the control plane over HTTP: the control plane can be off (`control: false`, the CLI's
 * `--no-control`: every `/__mock` path is a 404), or need a token (`controlToken`, the CLI's
 * `--control-token` / `IACM_MOCK_CONTROL_TOKEN`: every `/__mock` request needs
 * `Authorization: Bearer <token>`, 403 otherwise, compared in constant time). Mutating control
 * requests need `Content-Type: application/json` even without a body (415 otherwise), so that a web
 * page cannot reach them with a "simple" cross-origin request. The in-process `control` methods are
 * not HTTP and need none of this.
 *
 * @module
 */

import { isJsonMediaType, readHeader } from '@iacm/sdk/contract';
import { bearerToken } from '../auth/bearer.js';
import { constantTimeEqual } from '../auth/jwt.js';
import { HttpError } from '../errors.js';
import type { MockRequest } from '../http/message.js';

/** How the control plane is reached over HTTP. */
export interface ControlAccess {
  /** Whether it is served at all. */
  readonly enabled: boolean;
  /** The bearer token every control request must carry, when set. */
  readonly token: string | undefined;
}

/**
 * How the control plane is reached over HTTP: `off` (not served), `token` (a control token is
 * required) or `open` (neither: safe only on a loopback bind, which `listen` checks).
 */
export type ControlExposure = 'off' | 'token' | 'open';

/** The exposure an access setting gives: the one check `MockCore.controlExposure` and `listen` share. */
export function controlExposureOf(access: ControlAccess): ControlExposure {
  return !access.enabled ? 'off' : access.token !== undefined ? 'token' : 'open';
}

/** Methods of the control plane that change something. */
const MUTATING: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Checks a control request before routing: 404 when the control plane is off, 403 without the
 * control token (when one is set).
 */
export async function checkControlAccess(request: MockRequest, access: ControlAccess): Promise<void> {
  if (!access.enabled) {
    throw new HttpError(
      404,
      'route_not_found',
      'the control plane is off in this mock (started with --no-control or control: false)',
    );
  }
  if (access.token === undefined) return;
  const given = bearerToken(readHeader(request.headers, 'authorization')) ?? '';
  if (!(await constantTimeEqual(given, access.token))) {
    throw new HttpError(
      403,
      'forbidden',
      'the control plane of this mock needs Authorization: Bearer <control token> (the token given with --control-token, IACM_MOCK_CONTROL_TOKEN or the controlToken option)',
    );
  }
}

/**
 * Checks a matched control route's content type: a mutating request (POST, PUT, PATCH, DELETE) must
 * say it sends JSON, even with no body (so no web page can send one without a preflight), by the
 * contract's one rule (`isJsonMediaType`: `application/json` or `application/<name>+json`, UTF-8);
 * 415 naming the header otherwise.
 */
export function checkControlContentType(method: string, contentType: string | undefined): void {
  if (!MUTATING.has(method) || isJsonMediaType(contentType)) return;
  throw new HttpError(
    415,
    'unsupported_media_type',
    `${method} on the control plane needs the header Content-Type: application/json, even without a body (received ${
      contentType === undefined ? 'no Content-Type' : `Content-Type: ${contentType.slice(0, 80)}`
    })`,
  );
}
