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
import { pauseUnless } from './pause.js';

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
  /** The record with this id, if any. */
  get(id: string): T | undefined;
  /**
   * The ids changed since `version`, or `undefined` when the source no longer knows (then the index
   * is made again whole).
   */
  changedSince(version: number): readonly string[] | undefined;
}

/**
 * {@link textPredicate} for a large collection: every record's texts, lower-cased, in strings
 * (texts joined by U+0000, records too), with where each record starts. A search is then one
 * `indexOf` walk over each string, which jumps to the next record after each hit, instead of one
 * lookup and one substring test per record; a search matching nothing costs one pass over the text
 * (about 1 ms per 100,000 workspaces). The strings hold at most {@link TEXT_CHUNK_RECORDS} records
 * and {@link TEXT_CHUNK_CHARS} characters each (a longer record gets a string of its own). Writes
 * cost nothing until a search needs the text; the first search after them makes again only the
 * strings of the records changed, reading again only those records (the others' texts are cut from
 * the strings), and adds new records to the last string; or everything when the changes are more
 * than the source remembers. {@link TextIndex.matches} gives the matches as a set, so that a query
 * can start from them (a search matching few records costs what they do).
 */
export class TextIndex<T extends { id: string }> {
  readonly #source: TextSource<T>;
  readonly #fields: (record: T) => ReadonlyArray<string | undefined | null>;
  readonly #chunkChars: number;
  readonly #chunkRecords: number;
  /**
   * The chunks, which chunk holds each record id, and the version of the source they were made
   * from; `undefined` before the first search.
   */
  #built: { version: number; chunks: TextChunk<T>[]; chunkOf: Map<string, number> } | undefined;
  #wholeBuilds = 0;

  /**
   * An index over the texts `fields` reads from each record of `source`, in strings of at most
   * `chunkChars` characters (default {@link TEXT_CHUNK_CHARS}) and `chunkRecords` records (default
   * {@link TEXT_CHUNK_RECORDS}).
   */
  constructor(
    source: TextSource<T>,
    fields: (record: T) => ReadonlyArray<string | undefined | null>,
    chunkChars: number = TEXT_CHUNK_CHARS,
    chunkRecords: number = TEXT_CHUNK_RECORDS,
  ) {
    this.#source = source;
    this.#fields = fields;
    this.#chunkChars = chunkChars;
    this.#chunkRecords = Math.max(1, chunkRecords);
  }

  /**
   * A predicate keeping the records whose texts contain `search` (see {@link searchNeedle});
   * undefined for an absent or blank search (no filter).
   */
  predicate(search: string | undefined | null): ((record: T) => boolean) | undefined {
    const needle = searchNeedle(search);
    if (needle === undefined) return undefined;
    if (needle.includes(SEPARATOR)) return textPredicate(search, this.#fields);
    const matched = this.#collect(needle);
    return (record) => matched.has(record);
  }

  /**
   * The records whose texts contain `search` (see {@link searchNeedle}), as a set: the records
   * {@link predicate} keeps, for a caller that can start from them instead of testing every record
   * (a collection query's `among`); undefined for an absent or blank search (no filter).
   */
  matches(search: string | undefined | null): ReadonlySet<T> | undefined {
    const needle = searchNeedle(search);
    if (needle === undefined) return undefined;
    if (!needle.includes(SEPARATOR)) return this.#collect(needle);
    const test = textPredicate(search, this.#fields) as (record: T) => boolean;
    const matched = new Set<T>();
    for (const record of this.#source.values()) if (test(record)) matched.add(record);
    return matched;
  }

  #collect(needle: string): Set<T> {
    const matched = new Set<T>();
    for (const chunk of this.#chunks()) chunk.collect(needle, matched);
    return matched;
  }

  /**
   * Brings the index up to date ahead of a {@link predicate}: when it must be made whole over more
   * than {@link PREPARE_RECORDS} records, in steps of that many records with a turn of the event
   * loop between them, so that a first search does not hold the event loop. Records that change
   * during a turn are patched by the next search. Throws the signal's reason when `signal` aborts.
   */
  async prepare(signal?: AbortSignal): Promise<void> {
    const version = this.#source.version;
    const built = this.#built;
    if (built?.version === version) return;
    // A patch (the records changed since) is small: the search makes it.
    if (built && this.#source.changedSince(built.version)) return;
    const records = [...this.#source.values()];
    if (records.length <= PREPARE_RECORDS) return;
    const chunkOf = new Map<string, number>();
    const chunks: TextChunk<T>[] = [];
    for (let from = 0; from < records.length; from += PREPARE_RECORDS) {
      chunks.push(...this.#build(records.slice(from, from + PREPARE_RECORDS), chunkOf, chunks.length));
      await pauseUnless(signal);
    }
    this.#wholeBuilds += 1;
    this.#built = { version, chunks, chunkOf };
  }

  /** The length of each string the text is kept in, brought up to date first. */
  chunkLengths(): number[] {
    return this.#chunks().map((chunk) => chunk.text.length);
  }

  /**
   * How many times the index was made whole (the first search, then after more changes than the
   * source remembers).
   *
   * @internal For tests of the incremental upkeep.
   */
  get wholeBuilds(): number {
    return this.#wholeBuilds;
  }

  /** The chunks for the source's current version: patched for the records changed, or made again. */
  #chunks(): TextChunk<T>[] {
    const version = this.#source.version;
    const built = this.#built;
    if (built?.version === version) return built.chunks;
    const changed = built ? this.#source.changedSince(built.version) : undefined;
    if (built && changed) {
      this.#patch(built, changed);
      built.version = version;
      return built.chunks;
    }
    this.#wholeBuilds += 1;
    const chunkOf = new Map<string, number>();
    this.#built = { version, chunks: this.#build(this.#source.values(), chunkOf, 0), chunkOf };
    return this.#built.chunks;
  }

  /**
   * Makes again the chunks holding the records `changed`, and adds the new ones in chunks at the
   * end. Only the changed records' texts are read again: the others' are cut from the chunk's string
   * (so a write costs a copy of one chunk's text, not a read of its records).
   */
  #patch(built: { chunks: TextChunk<T>[]; chunkOf: Map<string, number> }, changed: readonly string[]): void {
    const { chunks, chunkOf } = built;
    const ids = new Set(changed);
    const dirty = new Set<number>();
    const added: T[] = [];
    for (const id of ids) {
      const at = chunkOf.get(id);
      if (at !== undefined) dirty.add(at);
      else {
        const record = this.#source.get(id);
        if (record) added.push(record);
      }
    }
    for (const at of dirty) {
      const chunk = chunks[at] as TextChunk<T>;
      const kept: T[] = [];
      const known: Array<string | undefined> = [];
      chunk.records.forEach((old, i) => {
        if (!ids.has(old.id)) {
          // Unchanged: the same record, its haystack cut from the string.
          kept.push(old);
          known.push(chunk.haystack(i));
          return;
        }
        const now = this.#source.get(old.id);
        if (now) {
          kept.push(now);
          known.push(undefined);
        } else chunkOf.delete(old.id);
      });
      // Made again in place; should its texts have grown past a chunk, the rest goes at the end.
      const [first, ...more] = this.#build(kept, chunkOf, at, known, at);
      chunks[at] = first as TextChunk<T>;
      for (const extra of more) {
        for (const record of extra.records) chunkOf.set(record.id, chunks.length);
        chunks.push(extra);
      }
    }
    if (added.length === 0) return;
    // New records go to the last chunk while it has room, then to new chunks.
    const lastAt = chunks.length - 1;
    const last = chunks[lastAt];
    const join = last !== undefined && last.records.length < this.#chunkRecords;
    const rest = join ? [...last.records, ...added] : added;
    const known = join
      ? [...last.records.map((_, i) => last.haystack(i)), ...added.map(() => undefined)]
      : [];
    const from = join ? lastAt : chunks.length;
    const made = this.#build(rest, chunkOf, from, known, lastAt);
    chunks.splice(from, chunks.length - from, ...made);
  }

  /**
   * Chunks of `records`, numbered from `first`; `chunkOf` told where each record is. `known[i]`,
   * when given, is the haystack of `records[i]` already made (it is not read again), from the chunk
   * numbered `home` (`chunkOf` already says so, unless the record lands in another chunk).
   */
  #build(
    records: Iterable<T>,
    chunkOf: Map<string, number>,
    first: number,
    known: ReadonlyArray<string | undefined> = [],
    home = -1,
  ): TextChunk<T>[] {
    const chunks: TextChunk<T>[] = [];
    let chunk = new ChunkBuilder<T>();
    let i = 0;
    for (const record of records) {
      const cut = known[i++];
      const haystack = cut ?? this.#haystack(record);
      const full =
        chunk.records >= this.#chunkRecords || chunk.length + haystack.length + 1 > this.#chunkChars;
      if (chunk.length > 0 && full) {
        chunks.push(chunk.seal());
        chunk = new ChunkBuilder<T>();
      }
      chunk.add(record, haystack);
      if (cut === undefined || first + chunks.length !== home) chunkOf.set(record.id, first + chunks.length);
    }
    chunks.push(chunk.seal());
    return chunks;
  }

  /** A record's texts, lower-cased, joined by U+0000. */
  #haystack(record: T): string {
    let haystack: string | undefined;
    for (const text of this.#fields(record)) {
      if (typeof text !== 'string') continue;
      haystack = haystack === undefined ? text.toLowerCase() : haystack + SEPARATOR + text.toLowerCase();
    }
    return haystack ?? '';
  }
}

/**
 * The most records one string of a {@link TextIndex} holds: 1,024, so that the first search after a
 * write makes again about a thousand records' text, not the whole collection's.
 */
export const TEXT_CHUNK_RECORDS = 1024;

/**
 * How many records {@link TextIndex.prepare} reads between two turns of the event loop when it makes
 * the index whole: 2,048 (2 strings of {@link TEXT_CHUNK_RECORDS}, a few milliseconds).
 */
export const PREPARE_RECORDS = 2 * TEXT_CHUNK_RECORDS;

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

  /** Records so far. */
  get records(): number {
    return this.#records.length;
  }

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

  /** The haystack of the `i`-th record (its texts, lower-cased, joined by U+0000). */
  haystack(i: number): string {
    return this.text.slice(this.starts[i] as number, (this.starts[i + 1] as number) - 1);
  }

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
