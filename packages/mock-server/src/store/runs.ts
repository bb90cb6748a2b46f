/**
 * Runs by workspace. A seeded account does not keep its runs (about 1.7 kB each, half of a large
 * seed's memory): it keeps where the seed's random streams stood before each workspace's runs, and
 * makes them again on demand, equal to the generated ones (`seed-hashes.test.ts` pins the snapshot of
 * a lazily stored seed to the generator's output). Runs made again are kept in a small cache;
 * runs changed through the API are kept for good. The seed makes them again through its
 * {@link RunSource}, with `replayRuns` (`seed/runs.ts`).
 *
 * A run is added ({@link RunStore.append}) and changed ({@link RunStore.replace}) in place, found
 * by id through an index ({@link RunStore.find}): settling many timed runs on one workspace is O(1)
 * a step, not a copy and a scan of its list. A list handed to a reader (`get`, `entries`, `values`)
 * is never changed afterwards: the next write copies it first (copy on write), so a listing under
 * way keeps what it read.
 *
 * @module
 */
import type { WorkspaceRun } from '@iacm/sdk/contract';

/** Where a store's seeded runs come from: the seed's workspaces with runs, and a way to make them again. */
export interface RunSource {
  /** The ids of the workspaces that have seeded runs, in the seed's order. */
  readonly workspaceIds: readonly string[];
  /** The seeded runs of the `index`-th of those workspaces, oldest first (a new array each call). */
  replay(index: number): WorkspaceRun[];
}

/** How many workspaces' runs made again are kept, by default (least recently used go first). */
export const RUN_CACHE_WORKSPACES = 1024;

/** An entry: the workspace's runs, or the index of its seeded runs in the source. */
type Entry = WorkspaceRun[] | number;

/** A run found by id in its workspace's list, with its place there. */
export interface FoundRun {
  /** The run. */
  readonly run: WorkspaceRun;
  /** Its place in the workspace's list, oldest first. */
  readonly index: number;
}

/** Runs by workspace id, in the order workspaces got their first run. */
export class RunStore {
  readonly #entries = new Map<string, Entry>();
  /** Lists handed to a reader: the next write to one copies it first. */
  readonly #handedOut = new WeakSet<WorkspaceRun[]>();
  /** Where each run of a workspace's kept list is, by run id (made on the first find, kept up to date). */
  readonly #places = new Map<string, Map<string, number>>();
  readonly #source: RunSource | undefined;
  /** Seeded runs made again, by source index; a Map's order makes it a least-recently-used list. */
  readonly #cache = new Map<number, WorkspaceRun[]>();
  readonly #cacheSize: number;

  /**
   * @param runs runs to keep (a snapshot's, or a seed's when it was not stored lazily).
   * @param source the seed's runs to make again on demand, listed before `runs`.
   * @param cacheSize how many workspaces' runs made again are kept. Default {@link RUN_CACHE_WORKSPACES}.
   */
  constructor(runs: Iterable<WorkspaceRun>, source?: RunSource, cacheSize = RUN_CACHE_WORKSPACES) {
    this.#source = source;
    this.#cacheSize = Math.max(0, cacheSize);
    source?.workspaceIds.forEach((id, index) => {
      this.#entries.set(id, index);
    });
    for (const run of runs) {
      const list = this.#entries.get(run.workspaceId);
      if (Array.isArray(list)) list.push(run);
      else this.#entries.set(run.workspaceId, [run]);
    }
  }

  /** The runs of a workspace, oldest first, or undefined when it has none. Do not change the list. */
  get(workspaceId: string): readonly WorkspaceRun[] | undefined {
    const entry = this.#entries.get(workspaceId);
    if (entry === undefined) return entry;
    if (Array.isArray(entry)) {
      this.#handedOut.add(entry);
      return entry;
    }
    let runs = this.#cache.get(entry);
    if (runs) {
      this.#cache.delete(entry);
    } else {
      runs = (this.#source as RunSource).replay(entry);
      if (this.#cache.size >= this.#cacheSize) {
        const oldest = this.#cache.keys().next();
        if (!oldest.done) this.#cache.delete(oldest.value);
      }
    }
    if (this.#cacheSize > 0) this.#cache.set(entry, runs);
    return runs;
  }

  /** Replaces the runs of a workspace (kept for good from now on). */
  set(workspaceId: string, runs: WorkspaceRun[]): void {
    const entry = this.#entries.get(workspaceId);
    if (typeof entry === 'number') this.#cache.delete(entry);
    this.#entries.set(workspaceId, runs);
    this.#places.delete(workspaceId);
  }

  /** Adds a run to its workspace's list, newest last: in place, unless a reader holds the list. */
  append(workspaceId: string, run: WorkspaceRun): void {
    const runs = this.#own(workspaceId);
    runs.push(run);
    this.#places.get(workspaceId)?.set(run.id, runs.length - 1);
  }

  /** The run of id `runId` among the workspace's runs, with its place; undefined when it is not there. */
  find(workspaceId: string, runId: string): FoundRun | undefined {
    const entry = this.#entries.get(workspaceId);
    if (entry === undefined) return undefined;
    if (!Array.isArray(entry)) {
      // Seeded runs made again: looked for in the list (a seeded workspace has at most 100 runs).
      const runs = this.get(workspaceId) ?? [];
      const index = runs.findIndex((run) => run.id === runId);
      return index < 0 ? undefined : { run: runs[index] as WorkspaceRun, index };
    }
    let places = this.#places.get(workspaceId);
    if (!places) {
      places = new Map(entry.map((run, index) => [run.id, index]));
      this.#places.set(workspaceId, places);
    }
    const index = places.get(runId);
    return index === undefined ? undefined : { run: entry[index] as WorkspaceRun, index };
  }

  /** Puts `run` at place `index` of its workspace's list (a place {@link RunStore.find} gave). */
  replace(workspaceId: string, index: number, run: WorkspaceRun): void {
    const runs = this.#own(workspaceId);
    const before = runs[index];
    runs[index] = run;
    const places = this.#places.get(workspaceId);
    if (places && before && before.id !== run.id) {
      places.delete(before.id);
      places.set(run.id, index);
    }
  }

  /** Forgets the runs of a workspace. */
  delete(workspaceId: string): void {
    const entry = this.#entries.get(workspaceId);
    if (typeof entry === 'number') this.#cache.delete(entry);
    this.#entries.delete(workspaceId);
    this.#places.delete(workspaceId);
  }

  /**
   * The workspace's list as the store may change it: a seeded one made again and kept for good, one
   * a reader holds copied first (the reader keeps the old one), else the list itself.
   */
  #own(workspaceId: string): WorkspaceRun[] {
    const entry = this.#entries.get(workspaceId);
    let runs: WorkspaceRun[];
    if (entry === undefined) runs = [];
    else if (typeof entry === 'number') {
      runs = [...this.#made(entry)];
      this.#cache.delete(entry);
    } else if (this.#handedOut.has(entry)) runs = [...entry];
    else return entry;
    this.#entries.set(workspaceId, runs);
    return runs;
  }

  /** Each workspace id with its runs (seeded runs made again, not cached), in the store's order. */
  *entries(): Generator<[string, readonly WorkspaceRun[]]> {
    for (const [workspaceId, entry] of this.#entries) {
      if (Array.isArray(entry)) this.#handedOut.add(entry);
      yield [workspaceId, Array.isArray(entry) ? entry : this.#made(entry)];
    }
  }

  /** Seeded runs made again (from the cache when there, without caching them otherwise). */
  #made(index: number): WorkspaceRun[] {
    return this.#cache.get(index) ?? (this.#source as RunSource).replay(index);
  }

  /** Every run, workspace by workspace (seeded runs made again, not cached), oldest first in each. */
  *values(): Generator<WorkspaceRun> {
    for (const entry of this.#entries.values()) {
      if (Array.isArray(entry)) this.#handedOut.add(entry);
      yield* Array.isArray(entry) ? entry : this.#made(entry);
    }
  }
}
