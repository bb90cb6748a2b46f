/**
 * A mock's data: the current store, loaded from a seed (generated lazily) or a snapshot, with the
 * accounts' key pairs ({@link KeyPairs}), and what the data's seed drives at run time: the random
 * stream, the ids of records created through the API, and the build numbers of simulated runs.
 * Each load starts them again, so that the same seed gives the same ids.
 *
 * @module
 */

import { type DataSource, estimateDataBytes } from '../control/data.js';
import type { DomainServices } from '../domain/simulate.js';
import { IntegrationCreateBody, type WebhookHub } from '../domain/webhooks.js';
import { drain, drive } from '../query/pause.js';
import type { Ledger } from '../store/budget.js';
import { IdFactory } from '../store/ids.js';
import { Random } from '../store/random.js';
import type { Steps } from '../store/seed/helpers.js';
import { lazyStateSteps, sceneStateSteps, seedProgressTotal } from '../store/seed.js';
import type { MockState } from '../store/state.js';
import { type SeededParts, Store } from '../store/store.js';
import {
  DataTemplate,
  findTemplate,
  hasTemplate,
  madeFrom,
  sameJson,
  sceneKey,
  seedKey,
  TEMPLATE_MAX_EVENTS,
  templateFor,
} from '../store/template.js';
import type { KeyPairs } from './key-pairs.js';

/** The first build number of a simulated run, less one. */
const FIRST_BUILD = 9_000_000_000;

/**
 * The key of generated data in the template cache (`store/template.ts`): its seed and sizes, or its
 * scene.
 */
export function dataKey(source: GeneratedSource): string {
  return 'scene' in source ? sceneKey(source.scene) : seedKey(source.seed, source.sizes);
}

/**
 * What a template of `source` must have been made from, besides its key: a scene (its key is a hash,
 * `sceneKey`); nothing for a seed, whose key is its seed and sizes whole.
 */
function sourceOf(source: GeneratedSource): object | undefined {
  return 'scene' in source ? source.scene : undefined;
}

/** Generated data: a seed and its sizes, or a scene. */
type GeneratedSource = Exclude<DataSource, { snapshot: string } | { state: MockState }>;

/** A generation progress report (the `onSeedProgress` option). */
type ProgressReport = (done: number, total: number) => void;

/** A seed's data generated lazily, as a store takes it: its state and, per account, its seeded parts. */
interface LazyData {
  state: MockState;
  seeded: SeededParts[];
}

/** Whether a seed's data is too large to share ({@link TEMPLATE_MAX_EVENTS}): generated for each load. */
function unshared(source: GeneratedSource): source is Extract<GeneratedSource, { sizes: unknown }> {
  return 'sizes' in source && source.sizes.events > TEMPLATE_MAX_EVENTS;
}

/** A seed's data generated lazily, in steps (`lazyStateSteps`). */
function* lazyDataSteps(
  source: Extract<GeneratedSource, { sizes: unknown }>,
  onProgress: ProgressReport | undefined,
): Steps<LazyData> {
  const { state, runs, events } = yield* lazyStateSteps({
    seed: source.seed,
    sizes: source.sizes,
    onProgress,
  });
  return { state, seeded: state.accounts.map((_, index) => ({ runs: runs[index], events: events[index] })) };
}

/** The template of generated data, in steps: generated (a seed lazily), then frozen. */
function* templateSteps(
  source: GeneratedSource,
  onProgress: ProgressReport | undefined,
): Steps<DataTemplate> {
  if ('scene' in source) return yield* DataTemplate.build(yield* sceneStateSteps(source.scene));
  const { state, seeded } = yield* lazyDataSteps(source, onProgress);
  return yield* DataTemplate.build(state, seeded);
}

/** What {@link prepareData} made ready for one load ({@link PreparedData}). */
interface Ready {
  /** The data key it was made for (a load of other data ignores it). */
  readonly key: string;
  /** Shared data's template, cached and held here until the load takes it. */
  readonly template?: DataTemplate;
  /** Data too large to share, generated for this load alone. */
  readonly own?: LazyData;
  /**
   * Whether this prepare generated the data (it was not in memory before): its load is charged the
   * whole estimate, as a load that generates it is, not a shared share.
   */
  readonly fresh: boolean;
  /** The progress report told the generation to its end, if any (the load does not tell it again). */
  readonly told: ProgressReport | undefined;
}

/**
 * Generated data made ready for one load by {@link prepareData}, handed to `MockData.load`, which
 * takes it once: after that it holds nothing, so a token kept by mistake keeps no data alive.
 */
export class PreparedData {
  #ready: Ready | undefined;

  /** @param ready what the prepare made. */
  constructor(ready: Ready) {
    this.#ready = ready;
  }

  /** Whether a load of `key` would be charged as generating the data ({@link Ready.fresh}). */
  freshFor(key: string): boolean {
    return this.#ready?.key === key && this.#ready.fresh;
  }

  /** What was made for a load of `key`, once (then nothing); `undefined` for another key. */
  take(key: string): Ready | undefined {
    const ready = this.#ready;
    this.#ready = undefined;
    return ready?.key === key ? ready : undefined;
  }
}

/**
 * Whether a load of `source` has nothing to generate: a snapshot, a state, or generated data whose
 * template is in memory. Then a caller loads at once, without awaiting {@link prepareData}, so that
 * what it does stays in the turn it was asked in (a `reset()` or `seed()` not awaited still applies
 * before the caller's next step, as it always did).
 */
export function dataReady(source: DataSource): boolean {
  if ('snapshot' in source || 'state' in source) return true;
  return !unshared(source) && hasTemplate(dataKey(source), sourceOf(source));
}

/**
 * The templates being generated in slices, by data key, with the source each is made from: a second
 * prepare of the same source waits for the first; one of another source under the same key (a
 * scene's hash collision) generates its own.
 */
const preparing = new Map<
  string,
  { source: object | undefined; job: Promise<{ template: DataTemplate; made: boolean }> }
>();

/**
 * Makes generated data ready for one load of `source` without holding the event loop: a seed with
 * sizes or a scene whose template is not in memory is generated in slices (`drive` of
 * `query/pause.ts`: no stretch much longer than `SLICE_MS`, 8 ms, plus the garbage collector's
 * pauses), frozen in slices and put in the template cache (`store/template.ts`); data too large to
 * share (more than `TEMPLATE_MAX_EVENTS` events) is generated for that load alone. The answer goes
 * to `MockData.load(source, force, prepared)`, which then builds only its containers. Snapshots and
 * states are not generated: `undefined`, nothing to do.
 *
 * Two prepares of the same shared data at once generate it once (the first one's load is charged
 * as generating it). A failure inside the generation rejects the promise (of each prepare waiting
 * for it) and leaves nothing in the cache. It charges nothing to any budget: reserve the room first
 * (`MockData.reserve`), so that refused data costs no generation and loads prepared at once count
 * each other.
 *
 * @param onProgress told the generation's progress (`onProgress` of `generateState`), between
 *   slices, when this prepare generates a seed; a load with the same report does not tell it again.
 */
export async function prepareData(
  source: DataSource,
  onProgress?: ProgressReport,
): Promise<PreparedData | undefined> {
  if ('snapshot' in source || 'state' in source) return undefined;
  const key = dataKey(source);
  if (unshared(source)) {
    const own = await drive(lazyDataSteps(source, onProgress));
    return new PreparedData({ key, own, fresh: true, told: onProgress });
  }
  const from = sourceOf(source);
  const known = findTemplate(key, from);
  if (known) return new PreparedData({ key, template: known, fresh: false, told: undefined });
  const under = preparing.get(key);
  const joined = under && (under.source === from || sameSource(under.source, from));
  let job = joined ? under.job : undefined;
  if (!job) {
    const generating = drive(templateSteps(source, onProgress)).then((made) => {
      // Cached only once whole; another load may have made it meanwhile (then that one is kept).
      const template = templateFor(key, () => made, from);
      return { template, made: template === made };
    });
    const started = generating.finally(() => {
      if (preparing.get(key)?.job === started) preparing.delete(key);
    });
    job = started;
    // A collision's job is not waited for by others: the first job of the key stays the one joined.
    if (!under) preparing.set(key, { source: from, job });
  }
  const { template, made } = await job;
  const fresh = !joined && made;
  return new PreparedData({ key, template, fresh, told: fresh ? onProgress : undefined });
}

/** Whether two sources of a template are the same (a scene compared whole, as `madeFrom` does). */
function sameSource(a: object | undefined, b: object | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && sameJson(a, b));
}

/**
 * What part of its estimate a session's data takes when it shares data generated before: 1/10. Its
 * own containers take about a twentieth; the indexes its reads build (a sorted index per sort and
 * order, text matches) as much again once an API user has read through it (issue 34, finding 17).
 */
export const SHARED_DATA_FRACTION = 10;

/**
 * The memory a session's data is estimated to take (`estimateDataBytes`: a seed's by its sizes, a
 * scene's by the records it names and the default sizes around them, a snapshot's by its records):
 * the whole estimate when its data is generated or loaded, a tenth ({@link SHARED_DATA_FRACTION}:
 * its own containers and the indexes its reads build) when data generated before is in memory and
 * shared with it (`store/template.ts`).
 */
export function sessionBytes(data: DataSource): number {
  const estimate = estimateDataBytes(data);
  const shared = !('snapshot' in data) && !('state' in data) && hasTemplate(dataKey(data), sourceOf(data));
  return shared ? Math.ceil(estimate / SHARED_DATA_FRACTION) : estimate;
}

/** The store and its run-time generators; `load` and `install` replace them together. */
export class MockData {
  /** The current indexed state. */
  store!: Store;
  /** The run-time random stream (a new stream per data, derived from its seed). */
  random!: Random;
  /** Ids of records created at run time (the seed's generator, with its own stream). */
  #ids!: { factory: IdFactory; random: Random };
  #buildCount = 0;
  /** The template the current data was made from (held, so that it stays cached while used). */
  #template: DataTemplate | undefined;

  /**
   * @param keyPairs gives each installed state its accounts' key pairs.
   * @param onInstall runs before each install (the mock forgets verified tokens and webhooks).
   * @param onSeedProgress reports generation progress (the `onSeedProgress` option).
   * @param ledger the data's ledger in the memory budget: each load charges what the data is
   *   estimated to take ({@link sessionBytes}) beyond `baseline`, in the place of what the data before
   *   held (its records added since included); handlers charge the records they add to it.
   * @param baseline what the data may take uncharged: the start data's estimate in a mock's own core
   *   (the start data is outside the budget), 0 in a session's (its data is what it adds).
   */
  constructor(
    private readonly keyPairs: KeyPairs,
    private readonly onInstall: () => void,
    private readonly onSeedProgress: ((done: number, total: number) => void) | undefined,
    readonly ledger: Ledger,
    private readonly baseline = 0,
  ) {}

  /**
   * Loads a seed and sizes (generated lazily), a scene, or a snapshot (kept as JSON: fresh records
   * each load; or a checked state, loaded once). Generated data already in memory is shared, not
   * generated again (then its progress is reported once, done); data `prepared` for this load
   * (`prepareData`, in slices) is taken from it. The data is charged first (`force`: whatever the
   * budget says, for a reset to the start data).
   * @throws HttpError 409 `budget_exceeded` when the data would pass the budget (nothing changes).
   */
  load(source: DataSource, force = false, prepared?: PreparedData): void {
    this.ledger.set(this.#charge(source, prepared), force);
    if ('snapshot' in source) {
      this.install(JSON.parse(source.snapshot) as MockState);
      return;
    }
    if ('state' in source) {
      this.install(source.state);
      return;
    }
    // Generated data is made once per process and shared, copied on write (`store/template.ts`): a
    // reset, a session or another mock of the same seed and sizes (or scene) makes only its containers.
    // A scene's data is generated, so its key pairs are a seed's (test fixtures on loopback).
    const key = dataKey(source);
    const ready = prepared?.take(key);
    if (unshared(source)) {
      // Too many events to share (see TEMPLATE_MAX_EVENTS): generated for this load alone.
      this.#template = undefined;
      const { state, seeded } = ready?.own ?? drain(lazyDataSteps(source, this.onSeedProgress));
      if (ready?.own) this.#reportReady(source, ready.told);
      this.#install(this.keyPairs.apply(state, false), seeded);
      return;
    }
    let generated = false;
    this.#template = templateFor(
      key,
      () => {
        // A prepared template of this source (never another scene's under the same key).
        if (ready?.template && madeFrom(ready.template, sourceOf(source))) return ready.template;
        generated = true;
        return drain(templateSteps(source, this.onSeedProgress));
      },
      sourceOf(source),
    );
    // Data already generated is ready at once: told as one step to the end (unless its prepare told
    // this report its generation).
    if (!generated) this.#reportReady(source, ready?.told);
    const { state, seeded } = this.#template.instance();
    this.#install(this.keyPairs.apply(state, false), seeded);
  }

  /**
   * Reserves room for loading `source` while it is prepared (`prepareData`): checks that it fits in
   * place of the current data ({@link checkFits}), then holds what it would add to what the data
   * holds now, on a ledger of its own, until the caller's `releaseAll()` (right before its `load`).
   * So that loads prepared at once count each other, as sessions created at once do.
   * @throws HttpError 409 `budget_exceeded` when the data, or it with the loads being prepared, would
   *   pass the budget.
   */
  reserve(source: DataSource): Ledger {
    this.checkFits(source);
    const hold = this.ledger.sibling();
    hold.charge(Math.max(0, this.#charge(source, undefined) - this.ledger.held));
    return hold;
  }

  /**
   * Checks that `load(source, force)` would find room for its data in the budget, without loading
   * it: throws the 409 that load would throw (the evicting stores may make room, as for the load),
   * charges nothing. For a caller that prepares the data first (`prepareData`), so that refused data
   * costs no generation.
   * @throws HttpError 409 `budget_exceeded` when the data would pass the budget.
   */
  checkFits(source: DataSource, force = false): void {
    const held = this.ledger.held;
    this.ledger.set(this.#charge(source, undefined), force);
    this.ledger.set(held, true);
  }

  /**
   * What data from `source` is charged: its estimate ({@link sessionBytes}; whole for data its
   * prepare has just generated, as for a load that generates it) beyond the baseline.
   */
  #charge(source: DataSource, prepared: PreparedData | undefined): number {
    const fresh =
      prepared !== undefined &&
      !('snapshot' in source) &&
      !('state' in source) &&
      prepared.freshFor(dataKey(source));
    return Math.max(0, (fresh ? estimateDataBytes(source) : sessionBytes(source)) - this.baseline);
  }

  /** Tells `onSeedProgress` that a seed's data is ready, as one step to the end, unless `told` is it. */
  #reportReady(source: DataSource, told: ProgressReport | undefined): void {
    if (!this.onSeedProgress || told === this.onSeedProgress || !('sizes' in source)) return;
    const total = seedProgressTotal(source.sizes);
    this.onSeedProgress(total, total);
  }

  /** Installs a checked snapshot (its key pairs as `keyPairs` says for a snapshot). */
  install(state: MockState): void {
    this.#template = undefined;
    this.#install(this.keyPairs.apply(state, true));
  }

  #install(state: MockState, seeded: ReadonlyArray<SeededParts> = []): void {
    this.onInstall();
    this.store = new Store(state, seeded);
    this.random = new Random(`runtime:${String(state.seed)}`);
    const idRandom = new Random(`runtime:ids:${String(state.seed)}`);
    this.#ids = { factory: new IdFactory(idRandom), random: idRandom };
    this.#buildCount = 0;
  }

  /**
   * A new record id at `now`: one generator for the seed and the API; a snapshot may hold ids from
   * anywhere, hence the check.
   */
  newId(now: number): string {
    for (;;) {
      const id = this.#ids.factory.objectId(this.#ids.random, now);
      if (!this.store.hasObjectId(id)) return id;
    }
  }

  /** The next build number of a simulated run. */
  nextBuild: DomainServices['nextBuild'] = () => FIRST_BUILD + ++this.#buildCount;
}

/**
 * Stores the webhook integrations of the scene the data came from (none for other data): called right
 * after the data was loaded from `source` (the core's one load, and a reset's webhooks stage).
 */
export function installSceneWebhooks(hub: WebhookHub, store: Store, source: DataSource): void {
  if (!('scene' in source)) return;
  const accounts = [...store.accounts.values()];
  source.scene.accounts?.forEach((account, index) => {
    const accountId = accounts[index]?.account.id;
    if (!accountId) return;
    for (const webhook of account.webhooks ?? [])
      hub.install(accountId, IntegrationCreateBody.parse(webhook));
  });
}
