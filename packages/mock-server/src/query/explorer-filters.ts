/**
 * The IaC explorer's shared `screenFilters`, one implementation for every explorer endpoint.
 *
 * Every shared member means one field of a **stack** (or of a stack's backend), whatever the
 * endpoint:
 *
 * | Member                      | Field                                                              |
 * | --------------------------- | ------------------------------------------------------------------ |
 * | `stateType`                 | the stack's `stateType`                                            |
 * | `status`, `iacState`        | the stack's `status` (a stack's only state is its status)          |
 * | `vcsRepo`                   | the stack's `metadata.vcsRepo` (`<org>/<repo>`)                    |
 * | `backendLocation`           | the location of the stack's backend, the `mainLocation` of /backends |
 * | `providerType`, `providerAccountId`, `providerIntegrationId` | that member of one of the stack's providers |
 * | `hasIntegratedProviders`    | `true`: a provider with `isIntegrated`; `false`: none              |
 * | `hasNotIntegratedProviders` | `true`: a provider without `isIntegrated`; `false`: none           |
 *
 * Lists are any-of, members combine with AND, an empty list (or an absent member) adds no
 * constraint. `stackAssetTypes` (and, on modules, `misconfigurations`) is accepted and adds no
 * constraint: no record the mock keeps holds asset types or misconfigurations.
 *
 * An endpoint whose records hold the field compares it directly: backends compare `backendLocation`
 * with their `mainLocation`; repositories and modules compare `vcsRepo` with their `repoFullName`.
 * For the other members, a record matches when **one of its related stacks matches all of them**:
 * a backend's stacks are the stacks whose backend location is its `mainLocation`; a repository's and
 * a module's stacks are the stacks whose `metadata.vcsRepo` is its `repoFullName`. A record without
 * related stacks matches only when no such member is given.
 *
 * A stack record names only its backend's kind (`backend: "s3"`); where its state lives comes from
 * the backend configuration of the workspaces bound to it (`backendSummary.iacStackId` is the stack's
 * id), read as {@link backendConfigLocation} reads it.
 *
 * @module
 */
import type {
  Backend,
  IacStack,
  Module,
  ModuleScreenFilters,
  Repository,
  ScreenFilters,
  WorkspaceSummary,
} from '@iacm/sdk/contract';
import { addsNoConstraint, allOf, anyOf } from './search.js';

/** What the explorer filters read: the account's stacks and workspaces. */
export interface ExplorerData {
  /** The account's IaC stacks. */
  stacks: readonly IacStack[];
  /** The account's workspaces (their backend configurations locate the stacks' backends). */
  workspaces: Iterable<WorkspaceSummary>;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;

/**
 * Where a backend configuration keeps state, written as `/api/iacStacks/backends` writes a backend's
 * `mainLocation`: `s3` → `s3://<bucket>`; `gcs` → `gs://<bucket>`; `azurerm` →
 * `https://<storage_account_name>.blob.core.windows.net/<container_name>`; `remote` →
 * `<hostname>/<organization>` (`hostname` defaults to `app.terraform.io`). Undefined for other
 * kinds (`local`...) and for configurations without those members.
 */
export function backendConfigLocation(
  type: string | undefined,
  config: Record<string, unknown> | undefined | null,
): string | undefined {
  const c = config ?? {};
  switch (type) {
    case 's3': {
      const bucket = text(c.bucket);
      return bucket && `s3://${bucket}`;
    }
    case 'gcs': {
      const bucket = text(c.bucket);
      return bucket && `gs://${bucket}`;
    }
    case 'azurerm': {
      const account = text(c.storage_account_name);
      const container = text(c.container_name);
      return account && container && `https://${account}.blob.core.windows.net/${container}`;
    }
    case 'remote': {
      const organization = text(c.organization);
      return organization && `${text(c.hostname) ?? 'app.terraform.io'}/${organization}`;
    }
    default:
      return undefined;
  }
}

/**
 * The backend locations of each stack, by stack id: the locations of the backend configurations of
 * the workspaces bound to the stack (usually one; several when its workspaces disagree).
 */
export function stackLocations(workspaces: Iterable<WorkspaceSummary>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const w of workspaces) {
    const summary = w.backendSummary;
    if (!summary?.iacStackId) continue;
    const location = backendConfigLocation(summary.backendType, summary.backendConfig);
    if (location === undefined) continue;
    const list = out.get(summary.iacStackId);
    if (!list) out.set(summary.iacStackId, [location]);
    else if (!list.includes(location)) list.push(location);
  }
  return out;
}

/** The shared members that are stack fields, in the order they are checked. */
const STACK_MEMBERS = [
  'stateType',
  'status',
  'iacState',
  'vcsRepo',
  'backendLocation',
  'providerType',
  'providerAccountId',
  'providerIntegrationId',
  'hasIntegratedProviders',
  'hasNotIntegratedProviders',
] as const;
type StackMember = (typeof STACK_MEMBERS)[number];

/** Reads the backend locations lazily: only a `backendLocation` filter or a backend query needs them. */
class Locations {
  #map: Map<string, string[]> | undefined;
  constructor(private readonly workspaces: Iterable<WorkspaceSummary>) {}
  of(stack: IacStack): readonly string[] {
    this.#map ??= stackLocations(this.workspaces);
    return this.#map.get(stack.id) ?? [];
  }
}

const providers = (s: IacStack) => s.stackProviders ?? [];

/** One test per given stack member (none for members that add no constraint or are skipped). */
function stackTests(
  f: ScreenFilters,
  locations: Locations,
  skip: ReadonlySet<StackMember>,
): Array<(s: IacStack) => boolean> {
  const tests: Array<(s: IacStack) => boolean> = [];
  for (const member of STACK_MEMBERS) {
    const value = f[member];
    if (skip.has(member) || addsNoConstraint(value)) continue;
    if (member === 'hasIntegratedProviders' || member === 'hasNotIntegratedProviders') {
      if (typeof value !== 'boolean') continue;
      const integrated = member === 'hasIntegratedProviders';
      tests.push((s) => providers(s).some((p) => p.isIntegrated === integrated) === value);
      continue;
    }
    const wanted = value as string[];
    switch (member) {
      case 'stateType':
        tests.push((s) => anyOf(s.stateType, wanted));
        break;
      case 'status':
      case 'iacState':
        tests.push((s) => anyOf(s.status, wanted));
        break;
      case 'vcsRepo':
        tests.push((s) => anyOf(s.metadata?.vcsRepo, wanted));
        break;
      case 'backendLocation':
        tests.push((s) => anyOf(locations.of(s), wanted));
        break;
      case 'providerType':
        tests.push((s) => providers(s).some((p) => wanted.includes(p.providerType)));
        break;
      case 'providerAccountId':
        tests.push((s) => providers(s).some((p) => wanted.includes(p.providerAccountId)));
        break;
      case 'providerIntegrationId':
        tests.push((s) => providers(s).some((p) => wanted.includes(p.providerIntegrationId)));
        break;
    }
  }
  return tests;
}

const NONE: ReadonlySet<StackMember> = new Set();

/** The stacks the shared `screenFilters` select (also what `/providers` aggregates); undefined: all. */
export function stackFilter(
  filters: ScreenFilters | undefined,
  data: ExplorerData,
): ((s: IacStack) => boolean) | undefined {
  return allOf(...stackTests(filters ?? {}, new Locations(data.workspaces), NONE));
}

/**
 * The keys (a backend's location, a repository) of the stacks that match the stack members not in
 * `skip`; undefined when no such member is given (no constraint).
 */
function relatedKeys(
  f: ScreenFilters,
  data: ExplorerData,
  skip: ReadonlySet<StackMember>,
  keys: (s: IacStack, locations: Locations) => readonly string[],
): Set<string> | undefined {
  const locations = new Locations(data.workspaces);
  const match = allOf(...stackTests(f, locations, skip));
  if (!match) return undefined;
  const out = new Set<string>();
  for (const s of data.stacks) if (match(s)) for (const key of keys(s, locations)) out.add(key);
  return out;
}

const OWN_BACKEND: ReadonlySet<StackMember> = new Set(['backendLocation']);
const OWN_REPOSITORY: ReadonlySet<StackMember> = new Set(['vcsRepo']);

/**
 * The backends the shared `screenFilters` select: `backendLocation` against `mainLocation`, every
 * other member through the backend's stacks (one of them must match them all).
 */
export function backendFilter(
  filters: ScreenFilters | undefined,
  data: ExplorerData,
): ((b: Backend) => boolean) | undefined {
  const f = filters ?? {};
  const locations = relatedKeys(f, data, OWN_BACKEND, (s, l) => l.of(s));
  const wanted = f.backendLocation;
  return allOf<Backend>(
    addsNoConstraint(wanted) ? undefined : (b) => anyOf(b.mainLocation, wanted as string[]),
    locations && ((b) => locations.has(b.mainLocation)),
  );
}

/**
 * The repositories the shared `screenFilters` select: `vcsRepo` against `repoFullName`, every other
 * member through the repository's stacks (one of them must match them all).
 */
export function repositoryFilter(
  filters: ScreenFilters | undefined,
  data: ExplorerData,
): ((r: Repository) => boolean) | undefined {
  const f = filters ?? {};
  const repos = relatedKeys(f, data, OWN_REPOSITORY, (s) => (s.metadata ? [s.metadata.vcsRepo] : []));
  const wanted = f.vcsRepo;
  return allOf<Repository>(
    addsNoConstraint(wanted) ? undefined : (r) => anyOf(r.repoFullName, wanted as string[]),
    repos && ((r) => repos.has(r.repoFullName)),
  );
}

/**
 * The modules the `screenFilters` of the module query select: the module's own members
 * (`repoFullName`, `moduleOriginType`), `vcsRepo` against `repoFullName`, and every other shared
 * member through the stacks of the module's repository (one of them must match them all).
 */
export function moduleFilter(
  filters: (ModuleScreenFilters & ScreenFilters) | undefined,
  data: ExplorerData,
): ((m: Module) => boolean) | undefined {
  const f = filters ?? {};
  const repos = relatedKeys(f, data, OWN_REPOSITORY, (s) => (s.metadata ? [s.metadata.vcsRepo] : []));
  const own = (member: 'repoFullName' | 'moduleOriginType' | 'vcsRepo', read: (m: Module) => string) => {
    const wanted = f[member];
    return addsNoConstraint(wanted) ? undefined : (m: Module) => anyOf(read(m), wanted as string[]);
  };
  return allOf<Module>(
    own('repoFullName', (m) => m.repoFullName),
    own('moduleOriginType', (m) => m.moduleOriginType),
    own('vcsRepo', (m) => m.repoFullName),
    repos && ((m) => repos.has(m.repoFullName)),
  );
}
