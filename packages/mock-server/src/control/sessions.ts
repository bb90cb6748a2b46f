/**
 * Control routes: `POST`, `GET /__mock/sessions` and `DELETE /__mock/sessions/{id}`, and the check of
 * a session's create body ({@link checkSessionBody}). The registry itself is the mock's
 * (`app/sessions.ts`), reached through `ControlDeps.sessions`: a session's own control plane has none,
 * and its session routes answer 409 `conflict` (sessions are made and ended from outside any session).
 *
 * @module
 */
import * as z from 'zod';
import { HttpError } from '../errors.js';
import { stripUndefined } from '../http/objects.js';
import { DEFAULT_SEED } from '../store/state.js';
import { checkData } from './data.js';
import {
  type CheckedSessionSource,
  type ControlDeps,
  parseControlBody,
  type SessionControl,
} from './route.js';
import { SeedSizesBody, SeedValue } from './seed.js';

/** The body of `POST /__mock/sessions`, before its data's own check. */
const SessionBody = z.strictObject({
  seed: SeedValue.optional(),
  sizes: SeedSizesBody.optional(),
  scene: z.unknown().optional(),
});

/**
 * Checks a session's create body (`POST /__mock/sessions`, `control.createSession`): `seed` and
 * `sizes` (checked as `POST /__mock/seed` checks them), or `scene` (checked as `POST /__mock/scene`
 * checks one, its issues named under `scene`; `seed` then seeds what it leaves out), not `scene`
 * with `sizes`; nothing: the mock's own `seed` and `sizes`.
 * @throws HttpError 400 `validation_failed` naming the field.
 */
export function checkSessionBody(raw: unknown): CheckedSessionSource {
  const body = parseControlBody(SessionBody, raw);
  if (body.scene !== undefined) {
    if (body.sizes !== undefined) {
      throw sessionIssue(
        'sizes',
        'expected no sizes with a scene (a scene says what it holds)',
        'sizes with a scene',
      );
    }
    const data = checkData('scene', body.scene, { seed: body.seed, under: 'scene' });
    return stripUndefined({ seed: body.seed, data });
  }
  if (body.seed === undefined && body.sizes === undefined) return {};
  // Sizes alone: the default seed (the mock's `seed` option is not the session's).
  const data = checkData('seed', stripUndefined({ seed: body.seed ?? DEFAULT_SEED, sizes: body.sizes }));
  return stripUndefined({ seed: body.seed, data });
}

/** A 400 for one field of a session body. */
function sessionIssue(path: string, expected: string, received: string): HttpError {
  const message = `body.${path}: ${expected}, received ${received}`;
  return new HttpError(400, 'validation_failed', message, {
    issues: [{ location: 'body', path, message, expected, received }],
  });
}

/** The registry, or 409 inside a session (a session does not make sessions). */
export function sessionsOf(deps: ControlDeps): SessionControl {
  if (deps.sessions) return deps.sessions;
  throw new HttpError(
    409,
    'conflict',
    'sessions are created, listed and ended outside any session: send this request without X-Iacm-Mock-Session',
  );
}
