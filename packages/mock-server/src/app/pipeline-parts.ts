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
import type { MemoryBudget } from '../store/budget.js';
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
  /** The mock's memory budget: the journal, the faults and the one-off answers charge what they keep. */
  readonly budget: MemoryBudget;
  /** The mock's data: its store, generator and ids (read at each use: a reset replaces them), and its ledger. */
  data(): Pick<MockData, 'store' | 'random' | 'newId' | 'ledger'>;
}

/** The pipeline's parts for a mock started from `start`. */
export function pipelineParts(start: StartConfiguration, links: PipelineLinks): PipelineParts {
  const { budget, login, cursor, events, data, now, resets, control } = links;
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
      get records() {
        return data().ledger;
      },
    },
    journal: new Journal(start.journal, budget.ledger('journal')),
    rateLimiter: new RateLimiter(start.rateLimit),
    trustProxy: start.trustProxy,
    faults: new FaultBook({ delayMs: start.delayMs, ledger: budget.ledger('faults') }),
    // Over HTTP, `Prefer: code=` is for whoever may use the control plane (open, or with its token).
    oneOff: new OneOffStage(
      {
        open: controlExposureOf(start.controlAccess) === 'open',
        token: start.controlAccess.enabled ? start.controlAccess.token : undefined,
      },
      budget.ledger('oneOff'),
    ),
    maxBodyBytes: start.maxBodyBytes,
    requests: budget.ledger('requests'),
  };
}
