/**
 * The request pipeline's state of one mock, made from its start configuration: the journal, the
 * rate limiter, the faults, the one-off answers, and what the stages read of the mock.
 *
 * @module
 */
import type { Login } from '../auth/login.js';
import { controlExposureOf } from '../control/access.js';
import type { EventRecorder } from '../domain/events.js';
import type { EventCursor } from '../operations/event-cursor.js';
import { FaultBook } from '../pipeline/faults.js';
import type { PipelineParts } from '../pipeline/handle.js';
import { Journal } from '../pipeline/journal.js';
import { OneOffStage } from '../pipeline/one-off.js';
import { RateLimiter } from '../pipeline/rate-limit.js';
import type { MockData } from './data.js';
import type { StartConfiguration } from './options.js';

/** What the pipeline reads of the mock that are not stages of its own. */
export interface PipelineLinks extends Pick<PipelineParts, 'login' | 'now' | 'resets' | 'control'> {
  /** The login (and its verified-token cache). */
  readonly login: Login;
  /** The continuation-token codec of the event center. */
  readonly cursor: EventCursor;
  /** The event recorder. */
  readonly events: EventRecorder;
  /** The mock's data: its store, generator and ids (read at each use: a reset replaces them). */
  data(): Pick<MockData, 'store' | 'random' | 'newId'>;
}

/** The pipeline's parts for a mock started from `start`. */
export function pipelineParts(start: StartConfiguration, links: PipelineLinks): PipelineParts {
  const { login, cursor, events, data, now, resets, control } = links;
  return {
    login,
    now,
    resets,
    control,
    accounts: () => data().store.accounts,
    services: {
      now,
      newId: () => data().newId(now()),
      login: (accessKey, secretKey) =>
        login.login(data().store.accounts.values(), accessKey, secretKey, now(), () => data().random.hex(16)),
      encodeCursor: (hash, last) => cursor.encode(hash, last),
      decodeCursor: (token, hash) => cursor.decode(token, hash),
      events,
      limits: () => start.limits,
    },
    journal: new Journal(start.journal),
    rateLimiter: new RateLimiter(start.rateLimit),
    trustProxy: start.trustProxy,
    faults: new FaultBook({ delayMs: start.delayMs }),
    // Over HTTP, `Prefer: code=` is for whoever may use the control plane (open, or with its token).
    oneOff: new OneOffStage({
      open: controlExposureOf(start.controlAccess) === 'open',
      token: start.controlAccess.enabled ? start.controlAccess.token : undefined,
    }),
    maxBodyBytes: start.maxBodyBytes,
  };
}
