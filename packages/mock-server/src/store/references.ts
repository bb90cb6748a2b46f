/**
 * The references and unique keys of the mock's data, checked by one function for every form it
 * comes in ({@link referenceProblems}): a scene's records name each other by name (a stack its
 * workspace, a workspace its guardrail rules), a snapshot's by id (a run its workspace, a
 * notification configuration its rule). Each form declares its references as data
 * ({@link DataReferences}); the messages follow from the declaration, so that a dangling reference
 * or a key used twice reads the same in a scene, a snapshot, a scenario's scene and a session's.
 *
 * @module
 */
import type { Problem } from '../errors.js';

/** One list of an account naming records of another list of the same account. */
export interface ListReference {
  /** The account's list of the records that refer (`stacks`). */
  readonly from: string;
  /** The member of each that names a record: a text, or a list of texts (`workspace`, `guardrails`). */
  readonly member: string;
  /** The account's list of the records named (`workspaces`). */
  readonly to: string;
  /** What a record of `to` is, singular (`workspace`). */
  readonly toNoun: string;
  /** The member of a record of `to` that a reference gives (`name`, `id`, `repo`). */
  readonly key: string;
}

/** Records of one list whose key (one or more members, all present) is used once. */
export interface UniqueKey {
  /** The list (an account's list, or `accounts` for the data's accounts). */
  readonly list: string;
  /** The members that together are the key; a dotted member is read below (`account.id`). */
  readonly key: readonly string[];
  /** What the records are, singular (`workspace`). */
  readonly noun: string;
  /** What the key is called in the message (default: the last member: `name`, `id`). */
  readonly keyNoun?: string;
  /** The path a problem names, under the record (default: the key's last member). */
  readonly at?: string;
  /** The message, told where the key was first (default: `expected a <noun> <keyNoun> used once, also at [i]`). */
  readonly message?: (first: number, record: Readonly<Record<string, unknown>>) => string;
}

/** The references and unique keys of one form of data. */
export interface DataReferences {
  /** The references between one account's lists. */
  readonly references: readonly ListReference[];
  /** The keys used once within one account's list. */
  readonly unique: readonly UniqueKey[];
  /** The keys used once across the accounts (`list` is `accounts`). */
  readonly uniqueAccounts: readonly UniqueKey[];
}

type RecordLike = Readonly<Record<string, unknown>>;

/** A name as a message shows it: quoted, at most 60 characters. */
export const shown = (name: string): string =>
  JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);

/** A path from its parts (`accounts[0].stacks[1].workspace`). */
export const at = (...parts: Array<string | number>): string =>
  parts.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

function member(record: RecordLike, path: string): unknown {
  let value: unknown = record;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as RecordLike)[part];
  }
  return value;
}

function list(owner: RecordLike, name: string): readonly RecordLike[] | undefined {
  const value = owner[name];
  return Array.isArray(value) ? (value as RecordLike[]) : undefined;
}

/** The problems of keys used twice in one list (each told at its second place). */
function uniqueProblems(records: readonly RecordLike[], unique: UniqueKey, base: string): Problem[] {
  const problems: Problem[] = [];
  const seen = new Map<string, number>();
  const last = unique.key[unique.key.length - 1] as string;
  records.forEach((record, i) => {
    const parts: string[] = [];
    for (const key of unique.key) {
      const value = member(record, key);
      if (typeof value !== 'string') return;
      parts.push(value);
    }
    // A key of several members joins them with a character no member of the data holds.
    const key = parts.join('\u0000');
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, i);
      return;
    }
    const message =
      unique.message?.(first, record) ??
      `expected a ${unique.noun} ${unique.keyNoun ?? last.split('.').pop()} used once, also at [${first}]`;
    problems.push([at(base, i, unique.at ?? last), message, shown(parts[parts.length - 1] as string)]);
  });
  return problems;
}

/**
 * The problems of the references and unique keys of `data` (`{ accounts: [...] }`), as `spec`
 * declares them: a reference to no record (`accounts[0].stacks[0].workspace: expected the name of
 * one of the account's workspaces`), a reference into a list the data leaves out (a scene's: name
 * the list to refer to it), and a key used twice. Each problem once, by its path.
 */
export function referenceProblems(data: RecordLike, spec: DataReferences): Problem[] {
  const accounts = list(data, 'accounts') ?? [];
  const problems: Problem[] = [];
  accounts.forEach((account, a) => {
    const base = (name: string) => at('accounts', a, name);
    for (const unique of spec.unique) {
      const records = list(account, unique.list);
      if (records) problems.push(...uniqueProblems(records, unique, base(unique.list)));
    }
    const keys = new Map<string, Set<unknown> | undefined>();
    const keysOf = (reference: ListReference) => {
      const id = `${reference.to} ${reference.key}`;
      if (!keys.has(id)) {
        const targets = list(account, reference.to);
        keys.set(id, targets && new Set(targets.map((record) => member(record, reference.key))));
      }
      return keys.get(id);
    };
    for (const reference of spec.references) {
      list(account, reference.from)?.forEach((record, r) => {
        const value = record[reference.member];
        const named = Array.isArray(value) ? value : [value];
        named.forEach((name, n) => {
          if (typeof name !== 'string') return;
          const path = Array.isArray(value)
            ? at(base(reference.from), r, reference.member, n)
            : at(base(reference.from), r, reference.member);
          const targets = keysOf(reference);
          if (!targets) {
            problems.push([
              path,
              `expected the ${reference.key} of a ${reference.toNoun} of the account: name the ${reference.to} in the account's "${reference.to}" to refer to them`,
              shown(name),
            ]);
          } else if (!targets.has(name)) {
            problems.push([
              path,
              `expected the ${reference.key} of one of the account's ${reference.to}`,
              shown(name),
            ]);
          }
        });
      });
    }
  });
  for (const unique of spec.uniqueAccounts) problems.push(...uniqueProblems(accounts, unique, 'accounts'));
  return problems;
}
