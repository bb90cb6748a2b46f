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

/** Joins texts in a haystack; no search text is split by it (see {@link TextIndex}). */
const SEPARATOR = '\u0000';

/** What a {@link TextIndex} reads: the records, and a number that changes whenever they do. */
export interface TextSource<T> {
  /** Changes on every insert, update and delete. */
  readonly version: number;
  /** Every record. */
  values(): Iterable<T>;
}

/**
 * {@link textPredicate} for a large collection: every record's texts, lower-cased, in one string
 * (texts joined by U+0000, records too), with where each record starts. A search is then one
 * `indexOf` walk over that string, which jumps to the next record after each hit, instead of one
 * lookup and one substring test per record; a search matching nothing costs one pass over the text
 * (about 1 ms per 100,000 workspaces). The string is made again on the first search after the
 * collection changed (its `version`), so writes cost nothing until a search needs the text. A search
 * text holding U+0000 (which could match across two texts) is compared text by text instead. The
 * text is kept in strings of at most {@link TEXT_CHUNK_CHARS} characters (a longer record gets a
 * string of its own).
 */
export class TextIndex<T> {
  readonly #source: TextSource<T>;
  readonly #fields: (record: T) => ReadonlyArray<string | undefined | null>;
  readonly #chunkChars: number;
  /** The chunks, and the version of the collection they were made from; `undefined` before the first search. */
  #built: { version: number; chunks: TextChunk<T>[] } | undefined;

  /**
   * An index over the texts `fields` reads from each record of `source`, in strings of at most
   * `chunkChars` characters (default {@link TEXT_CHUNK_CHARS}).
   */
  constructor(
    source: TextSource<T>,
    fields: (record: T) => ReadonlyArray<string | undefined | null>,
    chunkChars: number = TEXT_CHUNK_CHARS,
  ) {
    this.#source = source;
    this.#fields = fields;
    this.#chunkChars = chunkChars;
  }

  /**
   * A predicate keeping the records whose texts contain `search` (see {@link searchNeedle});
   * undefined for an absent or blank search (no filter).
   */
  predicate(search: string | undefined | null): ((record: T) => boolean) | undefined {
    const needle = searchNeedle(search);
    if (needle === undefined) return undefined;
    if (needle.includes(SEPARATOR)) return textPredicate(search, this.#fields);
    const matched = new Set<T>();
    for (const chunk of this.#chunks()) chunk.collect(needle, matched);
    return (record) => matched.has(record);
  }

  /** The length of each string the text is kept in, made again first if the collection changed. */
  chunkLengths(): number[] {
    return this.#chunks().map((chunk) => chunk.text.length);
  }

  /** The chunks for the collection's current version (made again when it changed). */
  #chunks(): TextChunk<T>[] {
    const version = this.#source.version;
    if (this.#built?.version !== version) this.#built = { version, chunks: this.#build() };
    return this.#built.chunks;
  }

  #build(): TextChunk<T>[] {
    const chunks: TextChunk<T>[] = [];
    let chunk = new ChunkBuilder<T>();
    for (const record of this.#source.values()) {
      const haystack = this.#fields(record)
        .filter((text) => typeof text === 'string')
        .map((text) => text.toLowerCase())
        .join(SEPARATOR);
      if (chunk.length > 0 && chunk.length + haystack.length + 1 > this.#chunkChars) {
        chunks.push(chunk.seal());
        chunk = new ChunkBuilder<T>();
      }
      chunk.add(record, haystack);
    }
    chunks.push(chunk.seal());
    return chunks;
  }
}

/**
 * The most characters one string of a {@link TextIndex} holds, separators included (a record longer
 * than this gets a string of its own): far below V8's longest string (about 2^29 characters),
 * whatever the records hold.
 */
export const TEXT_CHUNK_CHARS = 1 << 24;

/** Collects records' haystacks for one {@link TextChunk}. */
class ChunkBuilder<T> {
  readonly #parts: string[] = [];
  readonly #starts: number[] = [];
  readonly #records: T[] = [];
  /** Characters so far, separators included. */
  length = 0;

  /** Adds a record's haystack, followed by U+0000. */
  add(record: T, haystack: string): void {
    this.#starts.push(this.length);
    this.#records.push(record);
    this.#parts.push(haystack, SEPARATOR);
    this.length += haystack.length + 1;
  }

  /** The chunk of the records added. */
  seal(): TextChunk<T> {
    return new TextChunk(
      this.#parts.join(''),
      Int32Array.from([...this.#starts, this.length]),
      this.#records,
    );
  }
}

/** Records' haystacks in one string, each followed by U+0000, with where each starts (and where the last ends). */
class TextChunk<T> {
  constructor(
    readonly text: string,
    readonly starts: Int32Array,
    readonly records: readonly T[],
  ) {}

  /** Adds the records whose haystack contains `needle` (which holds no U+0000) to `matched`. */
  collect(needle: string, matched: Set<T>): void {
    const { text, starts, records } = this;
    let from = 0;
    for (;;) {
      const at = text.indexOf(needle, from);
      if (at < 0) return;
      // The record holding position `at`: starts[lo] <= at < starts[hi].
      let lo = 0;
      let hi = records.length;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if ((starts[mid] as number) <= at) lo = mid;
        else hi = mid;
      }
      matched.add(records[lo] as T);
      // Go on from the next record: a record counts once, however often its texts match.
      from = starts[lo + 1] as number;
    }
  }
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
 * event log applies the rule over its dictionaries of distinct values (`store/event-columns.ts`).
 */
export const EVENT_TEXT_FIELDS = [
  'eventType',
  'assetType',
  'assetId',
] as const satisfies readonly EventField[];
