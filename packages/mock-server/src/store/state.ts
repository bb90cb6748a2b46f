import type {
  Backend,
  Event,
  GuardrailRule,
  IacStack,
  Module,
  Repository,
  WebhookPayload,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk/contract';

/** A notification waiting for delivery to the account's webhook integrations. */
export interface OutboxEntry {
  /** The entry's id. */
  id: string;
  /** When it was queued (ISO 8601). */
  createdAt: string;
  /** Why: a guardrail violation (through the rule's notification configuration) or a stack finding. */
  source:
    | { kind: 'guardrail_violation'; ruleId: string; notificationId: string | undefined; runId: string }
    | { kind: 'finding'; stackId: string }
    | { kind: 'manual' };
  /** The webhook payload to deliver. */
  payload: WebhookPayload;
}

/** An account of the mock, with the key pair that logs in to it. */
export interface MockAccount {
  /** The account's 24-hex id (the `accountId` of its records). */
  id: string;
  /** A display name. */
  name: string;
  /** The access key that `POST /v2/login` accepts for this account. */
  accessKey: string;
  /** The secret key that goes with `accessKey`. */
  secretKey: string;
}

/** A guardrail rule's notification configuration (created with the rule, deleted with it). */
export interface NotificationConfig {
  /** The configuration's 24-hex id (the rule's `notificationId`). */
  id: string;
  /** The rule it belongs to. */
  ruleId: string;
  /** Webhook integrations that a violation of the rule notifies (empty: none yet). */
  integrationIds: string[];
  /** When it was created. */
  createdAt: string;
}

/** Everything one account owns. Arrays, so the state is plain JSON for snapshots. */
export interface AccountState {
  /** The account. */
  account: MockAccount;
  /** Workspace summaries. */
  workspaces: WorkspaceSummary[];
  /** Runs of all the account's workspaces. */
  runs: WorkspaceRun[];
  /** Guardrail rules. */
  rules: GuardrailRule[];
  /** Notification configurations of the rules. */
  notifications: NotificationConfig[];
  /** IaC stacks (the explorer's view). */
  stacks: IacStack[];
  /** Backends. */
  backends: Backend[];
  /** Modules. */
  modules: Module[];
  /** Repositories holding IaC code. */
  repositories: Repository[];
  /** Event center events, in any order (the store indexes them). */
  events: Event[];
}

/** How much data the generator makes. */
export interface SeedSizes {
  /** Number of accounts (the first is the primary account). Default 3. */
  accounts: number;
  /** Workspaces of the primary account (other accounts get a tenth, at least 3). Default 120. */
  workspaces: number;
  /** Maximum runs per workspace (each workspace gets 0 to this many; most get some). Default 6. */
  runsPerWorkspace: number;
  /** Guardrail rules of the primary account (at least one of each kind). Default 12. */
  rules: number;
  /** IaC stacks of the primary account (one per workspace, capped at this). Default 60. */
  stacks: number;
  /** Events of the primary account, spread over the integrations. Default 1000. */
  events: number;
  /** Cloud integrations of the primary account that events come from. Default 4. */
  integrations: number;
}

/** The whole mock state: plain JSON, what `GET /__mock/state` returns and `PUT /__mock/state` takes. */
export interface MockState {
  /** Format version of the snapshot. */
  version: 1;
  /** The seed the state was generated from. */
  seed: string | number;
  /** The sizes the state was generated with. */
  sizes: SeedSizes;
  /** Every account and what it owns; the first is the primary account. */
  accounts: AccountState[];
}

/** Default sizes of the seeded data. */
export const DEFAULT_SIZES: SeedSizes = {
  accounts: 3,
  workspaces: 120,
  runsPerWorkspace: 6,
  rules: 12,
  stacks: 60,
  events: 1000,
  integrations: 4,
};

/** The default seed. */
export const DEFAULT_SEED = 1;

/** The fixed instant the seeded data is generated relative to, so a seed yields the same bytes whenever it runs. */
export const SEED_EPOCH = Date.UTC(2026, 0, 1, 0, 0, 0, 0);
