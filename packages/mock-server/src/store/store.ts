import type { GuardrailRule, WorkspaceSummary } from '@iacm/sdk/contract';
import { notFound } from '../errors.js';
import { Collection } from '../query/collection.js';
import { versionSortKey } from '../query/versions.js';
import { EventLog } from './event-log.js';
import { type RunSource, RunStore } from './runs.js';
import type { AccountState, MockAccount, MockState, NotificationConfig, OutboxEntry } from './state.js';

/**
 * Sortable fields of workspaces, by the spec's sort names (and the default `lastRunTime`).
 * `terraformVersion` sorts `iacTypeVersion` in version order, through its precomputed sort key.
 */
export const WORKSPACE_SORTS = {
  lastRunTime: (w: WorkspaceSummary) => w.lastRunTime ?? undefined,
  workspaceName: (w: WorkspaceSummary) => w.workspaceName,
  repository: (w: WorkspaceSummary) => w.repo,
  terraformVersion: (w: WorkspaceSummary) => versionSortKey(w.iacTypeVersion),
  lastRunStatus: (w: WorkspaceSummary) => w.lastRunStatus?.description,
  ciTool: (w: WorkspaceSummary) => w.runnerType,
} as const;

/** The parts of a lazily stored seed that are not in its state (see `generateLazyState`). */
export interface SeededParts {
  /** The account's seeded runs, made again on demand. */
  runs?: RunSource | undefined;
  /** The account's seeded events, already in a log. */
  events?: EventLog | undefined;
}

/** One account's records, indexed for the queries. */
export class AccountStore {
  /** The account. */
  readonly account: MockAccount;
  /** Workspaces, with sorted indexes on every sortable field. */
  readonly workspaces: Collection<WorkspaceSummary>;
  /**
   * Runs by workspace id (a workspace has few runs; they are sorted per request).
   *
   * @internal The run store's shape follows the engine and may change in any release; read runs
   *   through the API or `snapshot()`.
   */
  readonly runs: RunStore;
  /** Guardrail rules by id. */
  readonly rules = new Map<string, GuardrailRule>();
  /** Notification configurations by id. */
  readonly notifications = new Map<string, NotificationConfig>();
  /**
   * Events, time-ordered and columnar (`event-log.ts`).
   *
   * @internal The log's shape follows the engine and may change in any release; read events
   *   through the API or `snapshot()`.
   */
  readonly events: EventLog;
  /** Notifications waiting for delivery (not part of snapshots). */
  readonly outbox: OutboxEntry[] = [];
  /** IaC explorer records (read-only through the API; findings change stacks). */
  readonly explorer: Pick<AccountState, 'stacks' | 'backends' | 'modules' | 'repositories'>;

  /**
   * Indexes one account's state.
   *
   * @param seeded a lazily stored seed's runs (made again on demand: `runs.ts`) and events (a
   *   columnar log: `event-log.ts`), kept apart from `state`.
   * @internal Stores are made by the mock from its state; the parameters follow the engine.
   */
  constructor(state: AccountState, seeded: SeededParts = {}) {
    this.account = state.account;
    this.workspaces = new Collection<WorkspaceSummary>(WORKSPACE_SORTS, state.workspaces);
    this.runs = new RunStore(state.runs, seeded.runs);
    for (const rule of state.rules) this.rules.set(rule.id, rule);
    for (const notification of state.notifications) this.notifications.set(notification.id, notification);
    // A seed's events come as a log already; a snapshot's as a list (none are in both).
    this.events = seeded.events ?? new EventLog(state.events);
    this.explorer = {
      stacks: state.stacks,
      backends: state.backends,
      modules: state.modules,
      repositories: state.repositories,
    };
  }

  /** The account's state as plain JSON-ready data. */
  toState(): AccountState {
    return {
      account: this.account,
      workspaces: [...this.workspaces.values()],
      runs: [...this.runs.values()],
      rules: [...this.rules.values()],
      notifications: [...this.notifications.values()],
      stacks: this.explorer.stacks,
      backends: this.explorer.backends,
      modules: this.explorer.modules,
      repositories: this.explorer.repositories,
      events: [...this.events.values()],
    };
  }
}

/** The whole mock state, indexed: one {@link AccountStore} per account. */
export class Store {
  /** The accounts' stores by account id. */
  readonly accounts = new Map<string, AccountStore>();
  /** The seed and sizes the state came from. */
  readonly origin: Pick<MockState, 'seed' | 'sizes'>;

  /**
   * Indexes a state. The state's records are taken over, not copied.
   *
   * @param seeded per account (by position), the parts of a lazily stored seed kept apart from
   *   `state` (see {@link AccountStore}).
   * @internal Stores are made by the mock from its state; the parameters follow the engine.
   */
  constructor(state: MockState, seeded: ReadonlyArray<SeededParts> = []) {
    this.origin = { seed: state.seed, sizes: state.sizes };
    state.accounts.forEach((account, index) => {
      this.accounts.set(account.account.id, new AccountStore(account, seeded[index]));
    });
  }

  /** The account with this id, or the primary account (the first) when none is named; 404 for an unknown id. */
  accountOrPrimary(accountId: string | undefined): AccountStore {
    const account = accountId ? this.accounts.get(accountId) : this.accounts.values().next().value;
    if (!account) throw notFound('account', accountId ?? '');
    return account;
  }

  /** Whether any record of any account has this object id (workspaces, rules, notification configurations). */
  hasObjectId(id: string): boolean {
    for (const account of this.accounts.values()) {
      if (account.workspaces.get(id) || account.rules.has(id) || account.notifications.has(id)) return true;
    }
    return false;
  }

  /** The state as plain JSON-ready data (a snapshot). */
  toState(): MockState {
    return {
      version: 1,
      seed: this.origin.seed,
      sizes: this.origin.sizes,
      accounts: [...this.accounts.values()].map((a) => a.toState()),
    };
  }
}
