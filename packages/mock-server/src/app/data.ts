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
import type { Ledger } from '../store/budget.js';
import { IdFactory } from '../store/ids.js';
import { Random } from '../store/random.js';
import { generateLazyState, generateSceneState, seedProgressTotal } from '../store/seed.js';
import type { MockState } from '../store/state.js';
import { type SeededParts, Store } from '../store/store.js';
import {
  DataTemplate,
  hasTemplate,
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
export function dataKey(source: Exclude<DataSource, { snapshot: string } | { state: MockState }>): string {
  return 'scene' in source ? sceneKey(source.scene) : seedKey(source.seed, source.sizes);
}

/** What part of its estimate a session's data takes when it shares data generated before: 1/20. */
const SHARED_DATA_FRACTION = 20;

/**
 * The memory a session's data is estimated to take (`estimateDataBytes`: a seed's by its sizes, a
 * scene's by the records it names and the default sizes around them, a snapshot's by its records):
 * the whole estimate when its data is generated or loaded, a twentieth (its own containers) when
 * data generated before is in memory and shared with it (`store/template.ts`).
 */
export function sessionBytes(data: DataSource): number {
  const estimate = estimateDataBytes(data);
  const shared = !('snapshot' in data) && !('state' in data) && hasTemplate(dataKey(data));
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
   * generated again (then its progress is reported once, done). The data is charged first
   * (`force`: whatever the budget says, for a reset to the start data).
   * @throws HttpError 409 `budget_exceeded` when the data would pass the budget (nothing changes).
   */
  load(source: DataSource, force = false): void {
    this.ledger.set(Math.max(0, sessionBytes(source) - this.baseline), force);
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
    if ('scene' in source) {
      this.#template = templateFor(dataKey(source), () => new DataTemplate(generateSceneState(source.scene)));
    } else {
      const generate = () => {
        const { state, runs, events } = generateLazyState({
          seed: source.seed,
          sizes: source.sizes,
          onProgress: this.onSeedProgress,
        });
        return {
          state,
          seeded: state.accounts.map((_, index) => ({ runs: runs[index], events: events[index] })),
        };
      };
      if (source.sizes.events > TEMPLATE_MAX_EVENTS) {
        // Too many events to share (see TEMPLATE_MAX_EVENTS): generated for this load alone.
        this.#template = undefined;
        const { state, seeded } = generate();
        this.#install(this.keyPairs.apply(state, false), seeded);
        return;
      }
      let generated = false;
      this.#template = templateFor(dataKey(source), () => {
        generated = true;
        const { state, seeded } = generate();
        return new DataTemplate(state, seeded);
      });
      // Data already generated is ready at once: told as one step to the end.
      if (!generated && this.onSeedProgress) {
        const total = seedProgressTotal(source.sizes);
        this.onSeedProgress(total, total);
      }
    }
    const { state, seeded } = this.#template.instance();
    this.#install(this.keyPairs.apply(state, false), seeded);
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
