/**
 * Free-text search, the same on every endpoint (`searchValue`, `freeTextSearch`, `searchText`, and
 * the facets endpoint's `fieldSearchText` over facet values): which text counts, how it is compared,
 * and which fields of each endpoint's records it reads. `docs/api-semantics.md` ("Free-text search")
 * states the same rules and lists the same fields.
 *
 * @module
 */
import type {
  Backend,
  EventField,
  GuardrailRule,
  IacStack,
  Module,
  Repository,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk/contract';

/**
 * The text a search looks for: trimmed (`String.prototype.trim`, so every Unicode space and line
 * break), then lower-cased with `String.prototype.toLowerCase` (the locale-independent default case
 * mapping; no Unicode normalisation). Undefined when the search is absent or blank after trimming,
 * which means "no filter".
 */
export function searchNeedle(text: string | undefined | null): string | undefined {
  if (typeof text !== 'string') return undefined;
  const needle = text.trim().toLowerCase();
  return needle === '' ? undefined : needle;
}

/** Whether `value`, lower-cased with `toLowerCase()`, contains `needle` (from {@link searchNeedle}). */
export function containsNeedle(value: string | undefined | null, needle: string): boolean {
  return typeof value === 'string' && value.toLowerCase().includes(needle);
}

/**
 * Builds a case-insensitive substring matcher over the text members `fields` reads: a record
 * matches when at least one of them contains the search. Returns undefined for an absent or blank
 * search (no filter).
 */
export function textPredicate<T>(
  search: string | undefined | null,
  fields: (record: T) => ReadonlyArray<string | undefined | null>,
): ((record: T) => boolean) | undefined {
  const needle = searchNeedle(search);
  if (needle === undefined) return undefined;
  return (record) => fields(record).some((text) => containsNeedle(text, needle));
}

/** Lower-cased search texts by record, for {@link cachedTextPredicate}. */
export type TextCache<T extends object> = WeakMap<T, string>;

/** Joins a record's texts in a cached haystack; no search text is split by it (see below). */
const SEPARATOR = '\u0000';

/**
 * {@link textPredicate} for large collections of records that are never changed in place (an update
 * stores a new object): each record's texts are lower-cased once and kept in `cache` (weakly, so a
 * replaced record's entry goes with it) as one string, joined by U+0000; a search then tests one
 * substring per record. A search text holding U+0000 (which could match across two texts) is
 * compared text by text instead.
 */
export function cachedTextPredicate<T extends object>(
  search: string | undefined | null,
  fields: (record: T) => ReadonlyArray<string | undefined | null>,
  cache: TextCache<T>,
): ((record: T) => boolean) | undefined {
  const needle = searchNeedle(search);
  if (needle === undefined) return undefined;
  if (needle.includes(SEPARATOR)) return textPredicate(search, fields);
  return (record) => {
    let haystack = cache.get(record);
    if (haystack === undefined) {
      haystack = fields(record)
        .filter((text): text is string => typeof text === 'string')
        .map((text) => text.toLowerCase())
        .join(SEPARATOR);
      cache.set(record, haystack);
    }
    return haystack.includes(needle);
  };
}

const HEX = /^[0-9a-fA-F]{24}$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * Whether a value is an internal id: a 24-hex object id or a UUID (either case). Free text never
 * matches those (see {@link SEARCH_FIELDS}); the patterns are fixed, never built from user input.
 */
export function isInternalId(value: string): boolean {
  return HEX.test(value) || UUID.test(value);
}

/**
 * The fields free text searches, per endpoint: human-readable text only, never internal ids
 * (24-hex object ids, UUIDs). A record matches when one of the listed values contains the search.
 */
export const SEARCH_FIELDS = {
  /** `POST /v2/workspaces/search`, `searchValue`: the name, the repository, its URL, the labels. */
  workspaces: (w: WorkspaceSummary): Array<string | undefined | null> => [
    w.workspaceName,
    w.repo,
    w.repoUrl,
    ...(w.labels ?? []),
  ],
  /**
   * `POST /v2/workspaces/{id}/runs/search`, `searchValue`: the run's name and title, branch, commit
   * and the CI system's run id (a number the CI shows, not an internal id).
   */
  runs: (r: WorkspaceRun): Array<string | undefined | null> => [
    r.runName,
    r.title,
    r.branch,
    r.commitId,
    r.runId,
  ],
  /** `POST /v2/guardrails/search`, `searchValue`: the rule's name. */
  guardrails: (r: GuardrailRule): Array<string | undefined | null> => [r.name],
  /**
   * `POST /api/iacStacks`, `freeTextSearch`: the stack's name, its backend kind, its repository and
   * its path in the repository (not the stack's UUID).
   */
  stacks: (s: IacStack): Array<string | undefined | null> => [
    s.name,
    s.backend,
    s.metadata?.vcsRepo,
    s.metadata?.vcsPath,
  ],
  /** `POST /api/iacStacks/backends`, `freeTextSearch`: the backend's kind and location (not its id). */
  backends: (b: Backend): Array<string | undefined | null> => [b.type, b.mainLocation],
  /** `POST /api/iacStacks/repositories`, `freeTextSearch`: `<org>/<repo>`. */
  repositories: (r: Repository): Array<string | undefined | null> => [r.repoFullName],
  /**
   * `POST /api/iacStacks/modules`, `freeTextSearch`: the module's folder, repository, path as the
   * version-control system shows it, and origin (registry address, git URL or local path).
   */
  modules: (m: Module): Array<string | undefined | null> => [
    m.moduleFolderPath,
    m.repoFullName,
    m.moduleVcsPath,
    m.moduleOrigin,
  ],
} as const;

/**
 * `POST /v2/event-center`, `query.searchText`: the event's type, the asset's type, the asset's id
 * (an ARN or a cloud resource path) and every attribute value, each one skipped when it is an
 * internal id (the asset id of an API mutation is a 24-hex record id; `ruleId`, `workspaceId`,
 * `stackId` attributes hold ids too). These are the fields; the attribute values always count. The
 * event log (`store/event-log.ts`) applies the rule over its dictionaries of distinct values.
 */
export const EVENT_TEXT_FIELDS = [
  'eventType',
  'assetType',
  'assetId',
] as const satisfies readonly EventField[];
