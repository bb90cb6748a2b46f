/**
 * The reference model of the documented query semantics (`docs/api-semantics.md`, issue 14): what
 * every search endpoint answers, computed as plainly as possible from the whole account state:
 * filter the whole list, sort it with one stable comparator, slice, project, count.
 *
 * It is written from the docs and the decisions of issue 14, not from the engine: nothing here
 * imports `src/query/**` or `src/operations/**`. Each rule lives in one table below, named after
 * the docs' wording, so that aligning the model with the docs is a matter of editing one row:
 *
 * - {@link needleOf}, {@link matchesText}: search text (decision 1);
 * - {@link TEXT_FIELDS}: which fields free text searches, per endpoint (decision 4);
 * - {@link compareVersions}: versions sort as versions (decision 2);
 * - {@link anyOf}: an empty list adds no constraint (decision 5), nor an empty `$or`;
 * - {@link STACK_FILTERS}, {@link OWN_FILTERS}, {@link RELATED_STACKS}: the IaC explorer's shared
 *   filters, one meaning everywhere, records without the field selected through their stacks
 *   (decisions 3, 6, 7).
 */
import type {
  Backend,
  Event,
  FacetResult,
  GuardrailRule,
  IacStack,
  Module,
  Repository,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk/contract';
import type { AccountState } from '../../src/store/state.js';

// --- reading records ---------------------------------------------------------------------------------

/**
 * The values at a path of a record: `a.b` reads a member of a member, `a[]` every item of a list
 * (`stackProviders[].providerType`). Missing members and `null` give no value.
 */
export function readPath(record: unknown, path: string): unknown[] {
  let values: unknown[] = [record];
  for (const part of path.split('.')) {
    const each = part.endsWith('[]');
    const name = each ? part.slice(0, -2) : part;
    const next: unknown[] = [];
    for (const value of values) {
      if (value === null || typeof value !== 'object') continue;
      const member = (value as Record<string, unknown>)[name];
      if (member === undefined || member === null) continue;
      if (each) {
        if (Array.isArray(member)) next.push(...member.filter((m) => m !== undefined && m !== null));
      } else next.push(member);
    }
    values = next;
  }
  return values;
}

/** The one value at a path (the first), or undefined. */
function readOne(record: unknown, path: string): unknown {
  return readPath(record, path)[0];
}

// --- search text (decisions 1 and 4) -------------------------------------------------------------------

/**
 * The needle of a search text: trimmed (`String.prototype.trim`), then lower-cased with
 * `toLowerCase()` (no locale, no Unicode normalisation). A text that is blank after trimming, or
 * absent, is no filter (`undefined`).
 */
export function needleOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  return trimmed === '' ? undefined : trimmed.toLowerCase();
}

/** Whether one of the texts, lower-cased with `toLowerCase()`, contains the needle. */
export function matchesText(needle: string, texts: readonly unknown[]): boolean {
  return texts.some((text) => typeof text === 'string' && text.toLowerCase().includes(needle));
}

/**
 * Which fields free text searches, per endpoint (decision 4: human-readable fields only, never ids),
 * as `docs/api-semantics.md` ("Free-text search") lists them. Paths as {@link readPath} reads them;
 * a trailing `?` reads the value only when it is not an internal id (a 24-hex id or a UUID, any case).
 */
export const TEXT_FIELDS = {
  workspaces: ['workspaceName', 'repo', 'repoUrl', 'labels[]'],
  runs: ['runName', 'title', 'branch', 'commitId', 'runId'],
  guardrails: ['name'],
  stacks: ['name', 'backend', 'metadata.vcsRepo', 'metadata.vcsPath'],
  backends: ['type', 'mainLocation'],
  repositories: ['repoFullName'],
  modules: ['moduleFolderPath', 'repoFullName', 'moduleVcsPath', 'moduleOrigin'],
  events: ['event_type?', 'asset_type?', 'asset_id?', 'event.attributes[].value?'],
} as const satisfies Record<string, readonly string[]>;

/** An endpoint of {@link TEXT_FIELDS}. */
export type TextEndpoint = keyof typeof TEXT_FIELDS;

/** An internal id: 24 hexadecimal digits, or a UUID (8-4-4-4-12 hexadecimal digits), any case. */
export function isInternalId(value: string): boolean {
  return /^[0-9a-f]{24}$/i.test(value) || /^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(value);
}

/** The values a text field path reads (a trailing `?` leaves internal ids out). */
function textValues(record: unknown, path: string): unknown[] {
  if (!path.endsWith('?')) return readPath(record, path);
  return readPath(record, path.slice(0, -1)).filter((v) => typeof v !== 'string' || !isInternalId(v));
}

/** The predicate of a search text over an endpoint's text fields, or undefined when it is no filter. */
function textClause(endpoint: TextEndpoint, text: string | undefined): Clause<unknown> | undefined {
  const needle = needleOf(text);
  if (needle === undefined) return undefined;
  const paths: readonly string[] = TEXT_FIELDS[endpoint];
  return (record) =>
    matchesText(
      needle,
      paths.flatMap((path) => textValues(record, path)),
    );
}

// --- ordering (decision 2) -----------------------------------------------------------------------------

/** How a sort field's values compare: as text (code units; timestamps too), numbers, or versions. */
export type SortKind = 'text' | 'number' | 'version';

/** Plain string order: UTF-16 code units, case-sensitive, no locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares two runs of decimal digits by value, exactly (no float): length without leading zeros, then digits. */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  return x.length !== y.length ? x.length - y.length : compareText(x, y);
}

const DOT_IDS = '[0-9A-Za-z-]+(?:\\.[0-9A-Za-z-]+)*';
/** A version: optional `v` or `V`, numeric dot segments, an optional pre-release, optional build metadata. */
const VERSION = new RegExp(`^[vV]?(\\d+(?:\\.\\d+)*)(?:-(${DOT_IDS}))?(?:\\+${DOT_IDS})?$`);

/** A parsed version, or undefined for a string that is not one ("latest", "~> 3.0"). */
export function parseVersion(text: string): { segments: string[]; pre: string[] | undefined } | undefined {
  const match = VERSION.exec(text);
  if (!match) return undefined;
  return { segments: (match[1] as string).split('.'), pre: match[2]?.split('.') };
}

/**
 * The version order of decision 2 (`docs/api-semantics.md`, "Version order"), ascending: a leading
 * `v` or `V` ignored; numeric dot segments compared
 * numerically (a missing segment is 0); a pre-release before its release, pre-releases in semver
 * order (numeric identifiers numerically, numeric before alphanumeric, alphanumeric as plain
 * strings, a shorter prefix first); build metadata ignored. Strings that are not versions come after
 * every version, among themselves as plain strings.
 */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) return x ? -1 : y ? 1 : compareText(a, b);
  for (let i = 0; i < Math.max(x.segments.length, y.segments.length); i++) {
    const c = compareDigits(x.segments[i] ?? '0', y.segments[i] ?? '0');
    if (c !== 0) return c;
  }
  if (!x.pre || !y.pre) return x.pre ? -1 : y.pre ? 1 : 0;
  for (let i = 0; i < Math.min(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i] as string;
    const q = y.pre[i] as string;
    const pNumeric = /^\d+$/.test(p);
    const qNumeric = /^\d+$/.test(q);
    const c = pNumeric && qNumeric ? compareDigits(p, q) : pNumeric ? -1 : qNumeric ? 1 : compareText(p, q);
    if (c !== 0) return c;
  }
  return x.pre.length - y.pre.length;
}

function compareKind(kind: SortKind, a: unknown, b: unknown): number {
  if (kind === 'number') return (a as number) - (b as number);
  if (kind === 'version') return compareVersions(String(a), String(b));
  return compareText(String(a), String(b));
}

/** A sort key: a path, how its values compare, and the direction. */
export interface SortKey {
  /** The record path the key reads. */
  path: string;
  /** How values compare. */
  kind: SortKind;
  /** 1 ascending, -1 descending. */
  order: 1 | -1;
}

/**
 * Sorts a copy of the records by the keys, then by `tie` (the id ascending): missing values (absent
 * or null) sort last in both directions; a descending key reverses the ascending order of its kind.
 */
export function sortRecords<T>(records: readonly T[], keys: readonly SortKey[], tie: (a: T, b: T) => number) {
  return [...records].sort((a, b) => {
    for (const key of keys) {
      const x = readOne(a, key.path);
      const y = readOne(b, key.path);
      if (x === undefined || y === undefined) {
        if (x !== y) return x === undefined ? 1 : -1;
        continue;
      }
      const c = compareKind(key.kind, x, y);
      if (c !== 0) return c * key.order;
    }
    return tie(a, b);
  });
}

/** Ties broken by `id` ascending (plain string order). */
const byId = (a: { id: string }, b: { id: string }) => compareText(a.id, b.id);

/** The sort fields of an endpoint: sort name → record path and kind. */
type SortTable = Readonly<Record<string, readonly [path: string, kind: SortKind]>>;

/** Reads a `sort` member in either published form as `[field, order]` pairs, in order. */
export function sortPairs(sort: unknown): Array<[string, 1 | -1]> {
  if (sort === undefined) return [];
  const parts = Array.isArray(sort) ? sort : [sort];
  return parts.flatMap((part) =>
    Object.entries(part as Record<string, { order: 1 | -1 }>).map(
      ([field, { order }]) => [field, order] as [string, 1 | -1],
    ),
  );
}

function keysOf(table: SortTable, pairs: ReadonlyArray<readonly [string, 1 | -1]>): SortKey[] {
  return pairs.map(([field, order]) => {
    const entry = table[field];
    if (!entry) throw new Error(`model: no sort field ${field}`);
    return { path: entry[0], kind: entry[1], order };
  });
}

// --- filters (decision 5) ------------------------------------------------------------------------------

/** A predicate over a record. */
export type Clause<T> = (record: T) => boolean;

/**
 * The clause of an any-of list over the values at a path: the record matches when one of its
 * values is in the list. An empty list (or none) adds no constraint (decision 5).
 */
export function anyOf<T>(values: readonly string[] | undefined, path: string): Clause<T> | undefined {
  if (values === undefined || values.length === 0) return undefined;
  return (record) => readPath(record, path).some((v) => values.includes(v as string));
}

/** A filter member: its value in a request → its clause, or undefined when it adds no constraint. */
type Member<T> = (value: never) => Clause<T> | undefined;

const list =
  <T>(path: string): Member<T> =>
  (values: string[] | undefined) =>
    anyOf<T>(values, path);

/**
 * The clause of a `filters` object: every member's clause, and when `$or` has members that
 * constrain, at least one of theirs. An empty `$or` (or one whose members are all empty lists) adds
 * no constraint.
 */
function filtersClause<T>(
  table: Readonly<Record<string, Member<T>>>,
  filters: Record<string, unknown> | undefined,
): Clause<T> {
  const clauses = (members: Record<string, unknown>) =>
    Object.entries(members)
      .filter(([name, value]) => name !== '$or' && value !== undefined)
      .map(([name, value]) => {
        const member = table[name];
        if (!member) throw new Error(`model: no filter member ${name}`);
        return member(value as never);
      })
      .filter((c): c is Clause<T> => c !== undefined);
  const all = clauses(filters ?? {});
  const some = clauses((filters?.$or as Record<string, unknown> | undefined) ?? {});
  return (record) => all.every((c) => c(record)) && (some.length === 0 || some.some((c) => c(record)));
}

/** Keeps the records that every clause accepts. */
function where<T>(records: readonly T[], ...clauses: Array<Clause<T> | undefined>): T[] {
  return records.filter((r) => clauses.every((c) => c === undefined || c(r)));
}

// --- projection and paging -----------------------------------------------------------------------------

/**
 * A projected item: `id` and the named members the record has (a member that is null stays null).
 * Without a projection, or with an empty one, the whole record.
 */
export function project<T extends object>(record: T, projection: readonly string[] | undefined): object {
  if (!projection || projection.length === 0) return record;
  const out: Record<string, unknown> = { id: (record as { id?: unknown }).id };
  for (const name of projection) if (name in record) out[name] = (record as Record<string, unknown>)[name];
  return out;
}

/** One page of a sorted list: `page` zero-based. */
export function pageOf<T>(all: readonly T[], page: number, pageSize: number): T[] {
  return all.slice(page * pageSize, page * pageSize + pageSize);
}

/** Default page size of the search endpoints and the IaC explorer. */
export const DEFAULT_PAGE_SIZE = 25;

/** The page and page size of an IaC explorer body, aliases included (`size` is the modules' alias). */
export function explorerWindow(body: Record<string, unknown>): { page: number; pageSize: number } {
  const page = (body.page ?? body.pageNumber ?? 0) as number;
  const pageSize = (body.pageSize ?? body.tablePageSize ?? body.size ?? DEFAULT_PAGE_SIZE) as number;
  return { page, pageSize };
}

// --- workspaces, runs, guardrails ----------------------------------------------------------------------

/** Workspace search filters → workspace members. */
export const WORKSPACE_FILTERS: Readonly<Record<string, Member<WorkspaceSummary>>> = {
  workspaceName: list('workspaceName'),
  repositories: list('repo'),
  ciTool: list('runnerType'),
  labels: list('labels[]'),
  status: list('lastRunStatus.description'),
  isManagedWorkflow: (value: boolean | undefined) =>
    value === undefined ? undefined : (w) => w.isWorkflowManaged === value,
  vcsType: list('vcsType'),
};

/** Workspace sort names → members (`terraformVersion` sorts `iacTypeVersion` as a version). */
export const WORKSPACE_SORTS: SortTable = {
  lastRunTime: ['lastRunTime', 'text'],
  workspaceName: ['workspaceName', 'text'],
  repository: ['repo', 'text'],
  terraformVersion: ['iacTypeVersion', 'version'],
  lastRunStatus: ['lastRunStatus.description', 'text'],
  ciTool: ['runnerType', 'text'],
};

const since =
  (path: string): Member<WorkspaceRun> =>
  (instant: string | undefined) =>
    instant === undefined ? undefined : (r) => readPath(r, path).some((v) => (v as string) >= instant);

/** Run search filters → run members; `createdAt`/`updatedAt` keep runs at or after the instant. */
export const RUN_FILTERS: Readonly<Record<string, Member<WorkspaceRun>>> = {
  runId: list('runId'),
  runName: list('runName'),
  status: list('status'),
  pullRequestUrl: list('pullRequestUrl'),
  branch: list('branch'),
  commitId: list('commitId'),
  ciTool: list('runnerType'),
  buildId: list('buildId'),
  buildName: list('buildName'),
  buildUrl: list('buildUrl'),
  vcsType: list('vcsType'),
  repository: list('repo'),
  repositoryUrl: list('repoUrl'),
  title: list('title'),
  createdAt: since('createdAt'),
  updatedAt: since('updatedAt'),
};

/** Run sort names → members. */
export const RUN_SORTS: SortTable = {
  updatedAt: ['updatedAt', 'text'],
  title: ['title', 'text'],
  commitId: ['commitId', 'text'],
  branch: ['branch', 'text'],
  status: ['status', 'text'],
  ciTool: ['runnerType', 'text'],
  vcsType: ['vcsType', 'text'],
  repository: ['repo', 'text'],
};

/** Guardrail search filters → rule members; the scope lists match their `include` list. */
export const GUARDRAIL_FILTERS: Readonly<Record<string, Member<GuardrailRule>>> = {
  createdBy: list('createdBy'),
  type: list('type'),
  labels: list('scope.labels.include[]'),
  repositories: list('scope.repositories.include[]'),
  workspaces: list('scope.workspaces.include[]'),
  branches: list('scope.branches.include[]'),
};

/** Guardrail sort names → members. */
export const GUARDRAIL_SORTS: SortTable = {
  createdAt: ['createdAt', 'text'],
  accountId: ['accountId', 'text'],
  createdBy: ['createdBy', 'text'],
  name: ['name', 'text'],
  severity: ['severity', 'number'],
};

/** The body of a workspace, run or guardrail search. */
export interface SearchBody {
  /** Filters (`$or` included). */
  filters?: Record<string, unknown> | undefined;
  /** Free text. */
  searchValue?: string | undefined;
  /** Sort, either published form. */
  sort?: unknown;
  /** Members to keep. */
  projection?: string[] | undefined;
}

function search<T extends { id: string }>(
  records: readonly T[],
  body: SearchBody,
  spec: {
    filters: Readonly<Record<string, Member<T>>>;
    text: TextEndpoint;
    sorts: SortTable;
    fallback: [string, 1 | -1];
  },
): T[] {
  const matches = where(
    records,
    filtersClause(spec.filters, body.filters),
    textClause(spec.text, body.searchValue) as Clause<T> | undefined,
  );
  const pairs = sortPairs(body.sort);
  return sortRecords(matches, keysOf(spec.sorts, pairs.length > 0 ? pairs : [spec.fallback]), byId);
}

/** Every workspace matching a search body, in the answer's order (default `lastRunTime` descending). */
export function workspaceSearch(account: AccountState, body: SearchBody): WorkspaceSummary[] {
  return search(account.workspaces, body, {
    filters: WORKSPACE_FILTERS,
    text: 'workspaces',
    sorts: WORKSPACE_SORTS,
    fallback: ['lastRunTime', -1],
  });
}

/** Every run of one workspace matching a search body, in order (default `updatedAt` descending). */
export function runSearch(account: AccountState, workspaceId: string, body: SearchBody): WorkspaceRun[] {
  return search(
    account.runs.filter((r) => r.workspaceId === workspaceId),
    body,
    { filters: RUN_FILTERS, text: 'runs', sorts: RUN_SORTS, fallback: ['updatedAt', -1] },
  );
}

/** Every rule matching a search body, in order (default `createdAt` descending). */
export function guardrailSearch(account: AccountState, body: SearchBody): GuardrailRule[] {
  return search(account.rules, body, {
    filters: GUARDRAIL_FILTERS,
    text: 'guardrails',
    sorts: GUARDRAIL_SORTS,
    fallback: ['createdAt', -1],
  });
}

// --- IaC explorer (decisions 3, 6, 7) ------------------------------------------------------------------

/** An IaC explorer `screenFilters` object (members the model does not know are ignored). */
export type ScreenFilters = Record<string, unknown>;

/** A stack-level filter member: its value → its clause over a stack (with the account, for relations). */
type StackMember = (value: never, account: AccountState) => Clause<IacStack> | undefined;

/**
 * Where a backend configuration keeps state, as `/backends` writes `mainLocation` (the docs' table
 * under "A stack's backend location"); undefined for another kind or a missing member.
 */
export function configLocation(type: string, config: Record<string, unknown>): string | undefined {
  const member = (name: string) => (typeof config[name] === 'string' ? (config[name] as string) : undefined);
  const bucket = member('bucket');
  const organization = member('organization');
  const account = member('storage_account_name');
  const container = member('container_name');
  if (type === 's3') return bucket === undefined ? undefined : `s3://${bucket}`;
  if (type === 'gcs') return bucket === undefined ? undefined : `gs://${bucket}`;
  if (type === 'azurerm') {
    return account === undefined || container === undefined
      ? undefined
      : `https://${account}.blob.core.windows.net/${container}`;
  }
  if (type === 'remote') {
    return organization === undefined
      ? undefined
      : `${member('hostname') ?? 'app.terraform.io'}/${organization}`;
  }
  return undefined;
}

/**
 * A stack's backend locations: those of the backend configurations of the account's workspaces bound
 * to it (`backendSummary.iacStackId` is the stack's id); none when no workspace is bound to it.
 */
export function backendLocationsOf(stack: IacStack, account: AccountState): string[] {
  return account.workspaces
    .filter((w) => w.backendSummary?.iacStackId === stack.id)
    .map((w) => configLocation(w.backendSummary?.backendType ?? '', w.backendSummary?.backendConfig ?? {}))
    .filter((l): l is string => l !== undefined);
}

const stackList =
  (path: string): StackMember =>
  (values: string[] | undefined) =>
    anyOf<IacStack>(values, path);

/** `true`: at least one provider passes `test`; `false`: none does (decision 7: they partition). */
const someProvider =
  (test: (p: IacStack['stackProviders'][number]) => boolean): StackMember =>
  (value: boolean | undefined) =>
    value === undefined ? undefined : (s) => s.stackProviders.some(test) === value;

/**
 * The shared `screenFilters` members, each with its one meaning: a clause over stacks (decision 6).
 * `iacState` filters on the stack's status (decision 3). Members not listed are ignored.
 */
export const STACK_FILTERS: Readonly<Record<string, StackMember>> = {
  stateType: stackList('stateType'),
  status: stackList('status'),
  iacState: stackList('status'),
  vcsRepo: stackList('metadata.vcsRepo'),
  backendLocation: (values: string[] | undefined, account) =>
    values === undefined || values.length === 0
      ? undefined
      : (s) => backendLocationsOf(s, account).some((l) => values.includes(l)),
  providerType: stackList('stackProviders[].providerType'),
  providerAccountId: stackList('stackProviders[].providerAccountId'),
  providerIntegrationId: stackList('stackProviders[].providerIntegrationId'),
  hasIntegratedProviders: someProvider((p) => p.isIntegrated),
  hasNotIntegratedProviders: someProvider((p) => !p.isIntegrated),
};

/** The IaC explorer record kinds other than stacks. */
export type ExplorerKind = 'backends' | 'repositories' | 'modules';

/**
 * The shared members each kind of record has a field for, read on the record itself (decision 6);
 * every other member of {@link STACK_FILTERS} selects the records related to matching stacks.
 * The modules' own `screenFilters` members (`repoFullName`, `moduleOriginType`) are here too.
 */
export const OWN_FILTERS: { readonly [K in ExplorerKind]: Readonly<Record<string, string>> } = {
  backends: { backendLocation: 'mainLocation' },
  repositories: { vcsRepo: 'repoFullName' },
  modules: { vcsRepo: 'repoFullName', repoFullName: 'repoFullName', moduleOriginType: 'moduleOriginType' },
};

/** How each kind of record relates to stacks: "a backend matches when one of its stacks matches". */
export const RELATED_STACKS: {
  readonly [K in ExplorerKind]: (record: never, stack: IacStack, account: AccountState) => boolean;
} = {
  backends: (b: Backend, s, account) => backendLocationsOf(s, account).includes(b.mainLocation),
  repositories: (r: Repository, s) => s.metadata.vcsRepo === r.repoFullName,
  modules: (m: Module, s) => s.metadata.vcsRepo === m.repoFullName,
};

/** The stack clauses of the members of a `screenFilters` object that `skip` does not name. */
function stackClauses(
  filters: ScreenFilters | undefined,
  account: AccountState,
  skip: Readonly<Record<string, string>> = {},
): Clause<IacStack>[] {
  return Object.entries(filters ?? {})
    .filter(([name, value]) => !(name in skip) && value !== undefined && STACK_FILTERS[name])
    .map(([name, value]) => (STACK_FILTERS[name] as StackMember)(value as never, account))
    .filter((c): c is Clause<IacStack> => c !== undefined);
}

/** Keeps the records of a kind that match a `screenFilters` object: own fields, then related stacks. */
function explorerWhere<T>(
  kind: ExplorerKind,
  records: readonly T[],
  filters: ScreenFilters | undefined,
  account: AccountState,
): T[] {
  const own = OWN_FILTERS[kind];
  const ownClauses = Object.entries(own)
    .map(([name, path]) => anyOf<T>(filters?.[name] as string[] | undefined, path))
    .filter((c): c is Clause<T> => c !== undefined);
  const stack = stackClauses(filters, account, own);
  const related = RELATED_STACKS[kind] as (record: T, stack: IacStack, account: AccountState) => boolean;
  return records.filter(
    (r) =>
      ownClauses.every((c) => c(r)) &&
      (stack.length === 0 || account.stacks.some((s) => related(r, s, account) && stack.every((c) => c(s)))),
  );
}

/** The stack sort fields (`sorting.field`), and the default order (by name ascending). */
export const STACK_SORTS: SortTable = {
  name: ['name', 'text'],
  stateType: ['stateType', 'text'],
  status: ['status', 'text'],
  version: ['version', 'version'],
  backend: ['backend', 'text'],
  lastApplied: ['lastApplied', 'text'],
  assetCount: ['assetCount', 'number'],
};

/** Every stack matching a stack query body, in order. */
export function stackQuery(account: AccountState, body: Record<string, unknown>): IacStack[] {
  const filters = body.screenFilters as ScreenFilters | undefined;
  const matches = where(
    account.stacks,
    ...stackClauses(filters, account),
    textClause('stacks', body.freeTextSearch as string | undefined),
  );
  const sorting = (body.sorting as { field: string; order: 'asc' | 'desc' } | undefined) ?? {
    field: 'name',
    order: 'asc',
  };
  return sortRecords(
    matches,
    keysOf(STACK_SORTS, [[sorting.field, sorting.order === 'desc' ? -1 : 1]]),
    byId,
  );
}

/** Every backend matching a backend query body, in order (by `mainLocation`, then id). */
export function backendQuery(account: AccountState, body: Record<string, unknown>): Backend[] {
  const matches = where(
    explorerWhere('backends', account.backends, body.screenFilters as ScreenFilters | undefined, account),
    textClause('backends', body.freeTextSearch as string | undefined),
  );
  return sortRecords(matches, [{ path: 'mainLocation', kind: 'text', order: 1 }], byId);
}

/** Buckets `{ key, doc_count }` of values: by count descending, then key ascending. */
export function buckets(values: readonly string[]): Array<{ key: string; doc_count: number }> {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts]
    .map(([key, doc_count]) => ({ key, doc_count }))
    .sort((a, b) => b.doc_count - a.doc_count || compareText(a.key, b.key));
}

/** Every repository matching a repository query body: newest `maxTimestamp` first, then name. */
export function repositoryQuery(account: AccountState, body: Record<string, unknown>): Repository[] {
  const matches = where(
    explorerWhere(
      'repositories',
      account.repositories,
      body.screenFilters as ScreenFilters | undefined,
      account,
    ),
    textClause('repositories', body.freeTextSearch as string | undefined),
  );
  return [...matches].sort(
    (a, b) => b.maxTimestamp - a.maxTimestamp || compareText(a.repoFullName, b.repoFullName),
  );
}

/** Module sort fields (`sort[].field`, `sortArr[].field`). */
export const MODULE_SORTS: SortTable = {
  moduleFolderPath: ['moduleFolderPath', 'text'],
  repoFullName: ['repoFullName', 'text'],
  moduleVcsPath: ['moduleVcsPath', 'text'],
  vcsType: ['vcsType', 'text'],
  updateAt: ['updateAt', 'text'],
  lastContributor: ['lastContributor', 'text'],
  firstContributor: ['firstContributor', 'text'],
  usageCount: ['usageCount', 'number'],
  version: ['version', 'version'],
  moduleOrigin: ['moduleOrigin', 'text'],
  moduleOriginType: ['moduleOriginType', 'text'],
};

/** Every module matching a module query body, in order (default `repoFullName` ascending, then id). */
export function moduleQuery(account: AccountState, body: Record<string, unknown>): Module[] {
  const matches = where(
    explorerWhere('modules', account.modules, body.screenFilters as ScreenFilters | undefined, account),
    textClause('modules', body.freeTextSearch as string | undefined),
  );
  const sort = (body.sort as Array<{ field: string; order: string }> | undefined)?.map((k) => [
    k.field,
    k.order,
  ]) ??
    (body.sortArr as Array<{ field: string; sort: string }> | undefined)?.map((k) => [k.field, k.sort]) ?? [
      ['repoFullName', 'asc'],
    ];
  return sortRecords(
    matches,
    keysOf(
      MODULE_SORTS,
      sort.map(([field, order]) => [field as string, order === 'desc' ? -1 : 1] as const),
    ),
    byId,
  );
}

/** The provider aggregation over the stacks matching a `screenFilters` object. */
export function providerQuery(
  account: AccountState,
  body: Record<string, unknown>,
): { types: Record<string, Record<string, { count: number; isIntegrated: boolean }>>; providers: number } {
  const stacks = where(account.stacks, ...stackClauses(body.screenFilters as ScreenFilters, account));
  const types: Record<string, Record<string, { count: number; isIntegrated: boolean }>> = {};
  let providers = 0;
  for (const stack of stacks) {
    for (const p of stack.stackProviders) {
      types[p.providerType] ??= {};
      const byAccount = types[p.providerType] as Record<string, { count: number; isIntegrated: boolean }>;
      byAccount[p.providerAccountId] ??= { count: 0, isIntegrated: false };
      const leaf = byAccount[p.providerAccountId] as { count: number; isIntegrated: boolean };
      leaf.count += 1;
      leaf.isIntegrated ||= p.isIntegrated;
      providers += 1;
    }
  }
  return { types, providers };
}

// --- event center --------------------------------------------------------------------------------------

/** Event center filter keys and facet fields → event members. */
export const EVENT_FIELD_PATHS: Readonly<Record<string, string>> = {
  integrationId: 'integration_id',
  eventType: 'event_type',
  providerType: 'provider_type',
  assetType: 'asset_type',
  assetId: 'asset_id',
  mutationType: 'event.mutation_type',
};

/** The `query` of an event or facet request. */
export interface EventQuery {
  /** Free text. */
  searchText?: string | undefined;
  /** Inclusive start. */
  startTime?: string | undefined;
  /** Inclusive end. */
  endTime?: string | undefined;
  /** Filters, all of which must match (an empty `values` list adds no constraint). */
  filters?: Array<{ key: string; values: string[] }> | undefined;
}

/** Every event matching a query, newest first (`event_timestamp` descending, then `id` ascending). */
export function eventQuery(account: AccountState, query: EventQuery | undefined): Event[] {
  const q = query ?? {};
  const matches = where(
    account.events,
    q.startTime === undefined ? undefined : (e) => e.event_timestamp >= (q.startTime as string),
    q.endTime === undefined ? undefined : (e) => e.event_timestamp <= (q.endTime as string),
    ...(q.filters ?? []).map((f) => anyOf<Event>(f.values, EVENT_FIELD_PATHS[f.key] as string)),
    textClause('events', q.searchText),
  );
  return sortRecords(matches, [{ path: 'event_timestamp', kind: 'text', order: -1 }], byId);
}

/** Default `size` of a facet. */
export const DEFAULT_FACET_SIZE = 10;

/**
 * A facet over events: the values of a field (only those containing `valueSearch`, as search text
 * compares), `size` the number of distinct values, `values` the top `size` by count, ties by value.
 */
export function facetOf(
  events: readonly Event[],
  field: string,
  size: number = DEFAULT_FACET_SIZE,
  valueSearch?: string,
): FacetResult {
  const needle = needleOf(valueSearch);
  const values = events
    .map((e) => readOne(e, EVENT_FIELD_PATHS[field] as string) as string)
    .filter((v) => needle === undefined || matchesText(needle, [v]));
  const counted = buckets(values).map((b) => ({ value: b.key, count: b.doc_count }));
  return { field, size: counted.length, values: counted.slice(0, size) };
}
