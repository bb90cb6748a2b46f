/**
 * What the generators of one account share: the plans, the records' working forms (people,
 * repositories, workspaces, stacks) and the {@link AccountContext} each generator reads and fills.
 */
import type {
  ChangedFileType,
  CiTool,
  GuardrailRule,
  StackProvider,
  StackStatus,
  VcsType,
  WorkspaceRun,
} from '@iacm/sdk/contract';
import { Random } from '../random.js';
import type { SeedSizes } from '../state.js';
import { type BackendSummaries, type IdFactory, slug } from './helpers.js';
import type { CheckedScene } from './scene.js';
import { ACCOUNTS, type CloudProvider, type IacKind } from './vocabulary.js';

// ---------------------------------------------------------------------------------------------------
// Generation context
// ---------------------------------------------------------------------------------------------------

interface Person {
  id: string;
  name: string;
  email: string;
  /** The person as a run's `ownerSummary` (frozen, shared by their runs). */
  summary: WorkspaceRun['ownerSummary'];
}

/** A cloud integration of the account (a cloud account or project runs and events name). */
export interface Integration {
  id: string;
  type: CloudProvider;
  env: string;
  providerAccountId: string;
}

/** A repository as the generators know it, before it becomes a repository record. */
export interface RepoInfo {
  fullName: string;
  name: string;
  vcs: VcsType;
  url: string;
  /** Host-relative path prefix of module sources (`github.com/acme/infra-network`). */
  vcsPath: string;
  runner: CiTool;
  providers: Set<CloudProvider>;
  onlyCloudFormation: boolean;
  maxUpdated: number;
  resources: number;
  modules: number;
}

/** A stack as the generators know it, before it becomes a stack record. */
export interface StackInfo extends BackendSummaries {
  id: string;
  owner: WsInfo;
  status: StackStatus;
  assetCount: number;
  providers: StackProvider[];
  location: string;
  backendType: string;
  provider: CloudProvider;
  /** The newest apply of a workspace on this stack (epoch ms). */
  lastApplied: number | undefined;
}

/** A workspace as the generators know it, before it becomes a workspace record. */
export interface WsInfo {
  id: string;
  name: string;
  area: string;
  env: string;
  region: string;
  provider: CloudProvider;
  repo: RepoInfo;
  runner: CiTool;
  iacType: IacKind;
  iacVersion: string;
  labels: string[];
  createdAt: number;
  isWorkflowManaged: boolean;
  vcsPath: string;
  stack: StackInfo | undefined;
  guardrails: string[];
  /** Changed-file records of the workspace's runs, by file and change kind (made on first use). */
  files: Array<ChangedFile | undefined>;
  /** The runs a scene gives the workspace (exactly that many, oldest first); none: drawn from the seed. */
  runPins?: readonly ScenePinnedRun[] | undefined;
}

/** What a scene says of one account (`scene.ts`): what the generators keep to, and fill in around. */
export type AccountPins = NonNullable<CheckedScene['accounts']>[number];
/** What a scene says of one run. */
export type ScenePinnedRun = NonNullable<NonNullable<AccountPins['workspaces']>[number]['runs']>[number];

/** A run that violated guardrails, for the guardrail violation events that name it. */
export interface ViolatingRun {
  time: number;
  /** The run (only what events name, so the runs themselves need not be kept). */
  run: Pick<WorkspaceRun, 'workspaceId' | 'runId'>;
  ruleIds: string[];
  /**
   * Attribute lists of guardrail violation events about this run, by rule id (made on first use): their
   * indices among the lists the account's events were given (`events.ts`).
   */
  lists: Map<string, number> | undefined;
}

/** The sizes of one account (see `accountPlan` in index.ts): the seed sizes but the account count. */
export type AccountPlan = Omit<SeedSizes, 'accounts'>;

/** What all accounts of one state share: the seed, the id factory and the progress counter. */
export interface Shared {
  seed: number | string;
  ids: IdFactory;
  /** Counts generated records for `onProgress`; never read by the generation itself. */
  progress: Progress | undefined;
}

/**
 * Counts the records {@link generateState} has generated and reports every `every` of them. It reads
 * no random numbers and changes no record, so the generated state is the same with or without it.
 */
export class Progress {
  #done = 0;
  #next: number;
  #reported = -1;
  readonly #total: number;
  readonly #every: number;
  readonly #report: (done: number, total: number) => void;

  constructor(total: number, every: number, report: (done: number, total: number) => void) {
    this.#total = total;
    this.#every = every;
    this.#next = every;
    this.#report = report;
  }

  /** One more record generated. */
  add(): void {
    if (this.#done < this.#total) this.#done += 1;
    if (this.#done >= this.#next) {
      this.#next = this.#done + this.#every;
      this.#reported = this.#done;
      this.#report(this.#done, this.#total);
    }
  }

  /** Reports `total` of `total`, unless that was the last report. */
  finish(): void {
    if (this.#reported === this.#total) return;
    this.#done = this.#total;
    this.#reported = this.#total;
    this.#report(this.#total, this.#total);
  }
}

/** A changed file of a workspace's runs. */
export type ChangedFile = { path: string; type: ChangedFileType };

/** What the generators of one account read and fill, in the order {@link generateAccount} calls them. */
export class AccountContext {
  /** What all accounts share (seed, ids, progress). */
  readonly shared: Shared;
  /** The account's index in the state (0 is the primary account). */
  readonly index: number;
  /** The account's sizes. */
  readonly plan: AccountPlan;
  /** The organisation slug (emails, repositories, URLs). */
  readonly org: string;
  /** The account's display name. */
  readonly name: string;
  /** The account's id, once {@link accountRecord} made it. */
  accountId = '';
  /** The account's people, from {@link generatePeople}. */
  readonly people: Person[] = [];
  /** The cloud integrations, from {@link generateIntegrations}. */
  readonly integrations: Integration[] = [];
  /** Repositories by full name, made with the workspaces. */
  readonly repos = new Map<string, RepoInfo>();
  /** The cloud of each area, fixed by its first workspace. */
  readonly areaProviders = new Map<string, CloudProvider>();
  /** The workspaces' working forms, from {@link generateWorkspaces}. */
  readonly workspaces: WsInfo[] = [];
  /** The guardrail rules, from {@link generateRules}. */
  readonly rules: GuardrailRule[] = [];
  /** The guardrail rules by id. */
  readonly rulesById = new Map<string, GuardrailRule>();
  /** The stacks' working forms, from {@link generateStacks}. */
  readonly stacks: StackInfo[] = [];
  /** Runs that violated guardrails, for the violation events. */
  readonly violatingRuns: ViolatingRun[] = [];
  /** Attribute lists of guardrail violation events that name no run, by rule id. */
  readonly ruleLists = new Map<string, number>();
  /** What a scene says of this account (none without a scene). */
  readonly pins: AccountPins | undefined;

  constructor(shared: Shared, index: number, plan: AccountPlan, pins?: AccountPins) {
    this.shared = shared;
    this.index = index;
    this.plan = plan;
    this.pins = pins;
    const base = ACCOUNTS[index % ACCOUNTS.length] as readonly [string, string];
    const round = Math.floor(index / ACCOUNTS.length);
    this.name = round === 0 ? base[0] : `${base[0]} ${round + 1}`;
    this.org = round === 0 ? base[1] : `${base[1]}${round + 1}`;
    if (pins?.name !== undefined) {
      this.name = pins.name;
      this.org = slug(pins.name).slice(0, 40) || this.org;
    }
  }

  /** The random stream of one kind of record of this account (`<seed>:<account>:<kind>`). */
  rng(kind: string): Random {
    return new Random(`${String(this.shared.seed)}:${this.index}:${kind}`);
  }

  /** A state-wide unique record id created at `ms`. */
  objectId(rng: Random, ms: number): string {
    return this.shared.ids.objectId(rng, ms);
  }
}
