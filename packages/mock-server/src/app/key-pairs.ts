/**
 * The key pairs a mock gives the accounts of a state it installs: the seed's or the snapshot's own
 * (documented test fixtures), random ones from `crypto.getRandomValues` (`randomKeyPairs`, which
 * `listen` turns on for a non-loopback bind), and `primaryKeys` for the primary account.
 *
 * @module
 */
import type { MockAccount } from '../store/state.js';
import { randomHex } from './secrets.js';

/** An access key and its secret key. */
type KeyPair = { accessKey: string; secretKey: string };

/** What decides the key pairs: the mock's options of the same names. */
export interface KeyPairOptions {
  /** Give every account a random key pair. */
  randomKeyPairs?: boolean | undefined;
  /** With `randomKeyPairs`, a snapshot keeps its own pairs. */
  keepStateKeys?: boolean | undefined;
  /** The primary account's pair, replacing any other. */
  primaryKeys?: KeyPair | undefined;
}

/** Gives states their accounts' key pairs; random pairs are drawn once per position and kept across resets. */
export class KeyPairs {
  readonly #options: KeyPairOptions;
  /** Random key pairs by account position. */
  readonly #random: KeyPair[] = [];

  /** Key pairs as the options say. */
  constructor(options: KeyPairOptions) {
    this.#options = options;
  }

  /**
   * The state with its accounts' key pairs: with `randomKeyPairs` the random ones, then
   * `primaryKeys` for the primary account. A snapshot keeps its own pairs without `randomKeyPairs`
   * or with `keepStateKeys`. The given state is not changed.
   */
  apply<S extends { accounts: Array<{ account: MockAccount }> }>(state: S, snapshot: boolean): S {
    const { randomKeyPairs, keepStateKeys, primaryKeys } = this.#options;
    if (snapshot && (!randomKeyPairs || keepStateKeys)) return state;
    const accounts = state.accounts.map((entry, index) => {
      const given = index === 0 ? primaryKeys : undefined;
      const random = randomKeyPairs ? this.#randomPair(index) : undefined;
      return given || random ? { ...entry, account: { ...entry.account, ...random, ...given } } : entry;
    });
    return { ...state, accounts };
  }

  #randomPair(index: number): KeyPair {
    for (let i = this.#random.length; i <= index; i++) {
      this.#random.push({ accessKey: `iacm_ak_${randomHex(12)}`, secretKey: `iacm_sk_${randomHex(24)}` });
    }
    return this.#random[index] as KeyPair;
  }
}
