/**
 * `Prefer: code=<status>` (Prism's convention): a request asks for one of its endpoint's documented
 * errors, answered in the one-off slot (`one-off.ts`) with the standard error body. Who may ask: the
 * process itself always; over HTTP, whoever may use the control plane ({@link PreferAccess}).
 *
 * @module
 */
import { codeOfStatus, endpointErrorStatuses, readHeader } from '@iacm/sdk/contract';
import { HttpError, rateLimited } from '../errors.js';
import type { MockRequest } from '../http/message.js';
import { clip } from '../http/objects.js';
import type { ResolvedRoute } from './route.js';

/**
 * Who may use `Prefer: code=` over HTTP: anyone when the control plane is `open` (no token, which
 * `listen` allows on a loopback bind only), or a request carrying the control token in
 * `X-Iacm-Mock-Control-Token`; nobody when the control plane is off.
 */
export interface PreferAccess {
  /** Whether the control plane is open (on, no token). */
  readonly open: boolean;
  /** The control token, when one is set. */
  readonly token: string | undefined;
}

/** The header that carries the control token for `Prefer: code=` over HTTP. */
export const CONTROL_TOKEN_HEADER = 'x-iacm-mock-control-token';

/** The answer header that says a request's `Prefer: code=` was ignored (and why). */
export const PREFER_IGNORED_HEADER = 'x-iacm-mock-prefer';

/** The `code=` preference of a `Prefer` header (`respond-async, code=429`), as written; `undefined` for none. */
export function preferredCode(headers: MockRequest['headers']): string | undefined {
  const value = readHeader(headers, 'prefer');
  if (value === undefined) return undefined;
  // A header of a few preferences; only the first 1 KiB is read.
  for (const preference of value.slice(0, 1024).split(/[,;]/)) {
    const equals = preference.indexOf('=');
    const name = (equals < 0 ? preference : preference.slice(0, equals)).trim().toLowerCase();
    if (name !== 'code') continue;
    const code = equals < 0 ? '' : preference.slice(equals + 1).trim();
    return code.startsWith('"') && code.endsWith('"') && code.length >= 2 ? code.slice(1, -1) : code;
  }
  return undefined;
}

/**
 * The error a `Prefer: code=<status>` asks for: `undefined` for the success status (the real answer);
 * the standard error of a documented error status (429 with `Retry-After: 1`, 405 with `Allow`); a
 * 400 listing the documented statuses for any other code.
 */
export function preferredError(route: ResolvedRoute, code: string): HttpError | undefined {
  const { definition } = route;
  const allowed = endpointErrorStatuses(definition);
  const status = /^\d{3}$/.test(code) ? Number(code) : Number.NaN;
  if (status === definition.successStatus) return undefined;
  if (!allowed.includes(status)) {
    const shown = clip(code, 20);
    const message = `header.prefer: code=${shown} is not a documented answer of ${route.name}; expected one of ${allowed.join(', ')} (or ${definition.successStatus}, its success status)`;
    return new HttpError(400, 'validation_failed', message, {
      issues: [
        {
          location: 'header',
          path: 'prefer',
          message,
          expected: `code=${allowed.join('|')}`,
          received: `code=${shown}`,
        },
      ],
    });
  }
  const reason = `answered ${status} because the request asked for it (Prefer: code=${status})`;
  if (status === 429) return rateLimited(1000, () => reason);
  return new HttpError(status, codeOfStatus(status) ?? 'internal_error', reason, {
    ...(status === 405 ? { headers: { allow: definition.method } } : {}),
  });
}

/** Who may use `Prefer: code=` on a request (`HandleOptions.preferHeader`): see `OneOffStage` (`one-off.ts`). */
export type PreferHeaderRule = 'always' | 'control';
