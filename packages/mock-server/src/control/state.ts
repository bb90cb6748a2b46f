/**
 * Control routes: `GET` and `PUT /__mock/state`, snapshots of the whole state, and the one check of a
 * snapshot ({@link checkSnapshot}) that `PUT /__mock/state`, `control.setState` and the `state`
 * option share.
 *
 * @module
 */
import {
  Backend,
  checkJsonBounds,
  Event,
  GuardrailRule,
  IacStack,
  type JsonBounds,
  Module,
  ObjectId,
  Repository,
  strictSchema,
  WorkspaceRun,
  WorkspaceSummary,
} from '@iacm/sdk/contract';
import * as z from 'zod';
import { HttpError, listedError, type Problem, problemIssues, shapeError } from '../errors.js';
import { at, type DataReferences, referenceProblems, shown } from '../store/references.js';
import type { MockState } from '../store/state.js';
import { SeedSizesBody, SeedValue } from './seed.js';

const MockAccountSchema = z.strictObject({
  id: ObjectId.check(z.toLowerCase()),
  name: z.string(),
  accessKey: z.string().min(1),
  secretKey: z.string().min(1),
});

/**
 * A snapshot, as `PUT /__mock/state` checks it: every record by the strict form of the contract's
 * schema (`strictSchema`: a member the contract does not name, or an enumeration value it does not
 * document, is refused, as in a scene; every snapshot `GET /__mock/state` gives passes). Its `seed`
 * and `sizes` only record how its data was made (they are never used to make it again when it
 * loads), yet they are held to what a seed and sizes may be everywhere else (`SeedValue`,
 * `SeedSizesBody` of `control/seed.ts`: the same ranges as `POST /__mock/seed`, the `seed` and
 * `sizes` options and the CLI): every snapshot a mock gives records them so, and `POST /__mock/seed`
 * with them (what a 409 for a too large state advises) makes the same data again.
 */
export const StateSchema = z.strictObject({
  version: z.literal(1),
  seed: SeedValue,
  sizes: SeedSizesBody,
  accounts: z
    .array(
      z.strictObject({
        account: MockAccountSchema,
        workspaces: z.array(strictSchema(WorkspaceSummary)),
        runs: z.array(strictSchema(WorkspaceRun)),
        rules: z.array(strictSchema(GuardrailRule)),
        notifications: z.array(
          z.strictObject({
            id: z.string(),
            ruleId: z.string(),
            integrationIds: z.array(z.string()),
            createdAt: z.string(),
          }),
        ),
        stacks: z.array(strictSchema(IacStack)),
        backends: z.array(strictSchema(Backend)),
        modules: z.array(strictSchema(Module)),
        repositories: z.array(strictSchema(Repository)),
        events: z.array(strictSchema(Event)),
      }),
    )
    .min(1),
});

/**
 * The references and unique keys of a snapshot (by id), checked by `referenceProblems` as a scene's
 * are (by name): a run names its workspace, a rule its notification configuration (a configuration
 * no rule holds is free, whatever rule it names: a create may take it). A workspace's `guardrails`
 * are not checked: they may name a rule deleted since (the API keeps them). The ids of each list are
 * used once, as the accounts' ids and a repository's full name.
 */
export const SNAPSHOT_REFERENCES: DataReferences = Object.freeze<DataReferences>({
  references: [
    { from: 'runs', member: 'workspaceId', to: 'workspaces', toNoun: 'workspace', key: 'id' },
    { from: 'rules', member: 'notificationId', to: 'notifications', toNoun: 'notification', key: 'id' },
  ],
  unique: [
    ...(['workspaces', 'runs', 'rules', 'notifications', 'stacks', 'backends', 'modules'] as const).map(
      (list) => ({ list, key: ['id'], noun: list === 'runs' ? 'run' : list.slice(0, -1) }),
    ),
    { list: 'repositories', key: ['repoFullName'], noun: 'repository', keyNoun: 'full name' },
  ],
  uniqueAccounts: [{ list: 'accounts', key: ['account.id'], noun: 'account', at: 'account.id' }],
});

/**
 * The combinations of a snapshot's records that the mock relies on: a workspace's `workspaceId` is
 * its `id`, and every workspace, run and rule belongs to the account that holds it (its
 * `accountId`).
 */
function snapshotProblems(state: z.output<typeof StateSchema>): Problem[] {
  const problems: Problem[] = [];
  state.accounts.forEach(({ account, workspaces, runs, rules }, a) => {
    const owned = (name: string, records: ReadonlyArray<{ accountId?: unknown }>) => {
      records.forEach((record, i) => {
        if (record.accountId !== undefined && record.accountId !== account.id) {
          problems.push([
            at('accounts', a, name, i, 'accountId'),
            `expected "${account.id}", the id of the account holding it`,
            shown(String(record.accountId)),
          ]);
        }
      });
    };
    owned('workspaces', workspaces);
    owned('runs', runs);
    owned('rules', rules);
    workspaces.forEach((workspace, w) => {
      if (workspace.workspaceId !== workspace.id) {
        problems.push([
          at('accounts', a, 'workspaces', w, 'workspaceId'),
          `expected "${workspace.id}", the workspace's id`,
          shown(workspace.workspaceId),
        ]);
      }
    });
  });
  return problems;
}

/**
 * The largest snapshot, bytes of JSON (256 MiB): what `PUT /__mock/state` takes and `GET
 * /__mock/state` gives (a larger state answers 409). About 14,000 workspaces with their runs (6 at
 * most each) and 140,000 events; a state generated from larger sizes is made again from its seed and
 * sizes instead (`POST /__mock/seed`, `--seed`, the `seed` and `sizes` options), which give the same
 * data.
 */
export const MAX_SNAPSHOT_BYTES = 256 * 1024 * 1024;

/**
 * The shape bounds of a snapshot's JSON: nesting 64 levels deep (as any body), and lists, objects and
 * values in all up to what {@link MAX_SNAPSHOT_BYTES} can hold (each value takes 2 bytes at least):
 * the byte limit is the bound, so that every snapshot `GET /__mock/state` gives is taken back (a
 * snapshot holds lists of up to a million events, where a request body's lists stop at 10,000).
 */
export const STATE_JSON_BOUNDS: Readonly<Required<Omit<JsonBounds, 'location'>>> = Object.freeze({
  maxDepth: 64,
  maxArrayLength: MAX_SNAPSHOT_BYTES / 2,
  maxMembers: MAX_SNAPSHOT_BYTES / 2,
  maxNodes: MAX_SNAPSHOT_BYTES / 2,
});

/**
 * Checks a snapshot, the one check that `PUT /__mock/state`, `control.setState` and the `state`
 * option (`createMockServer({ state })`, `new MockCore({ state })`, `--state`) share: its shape
 * within {@link STATE_JSON_BOUNDS}, then every record by the strict contract ({@link StateSchema}),
 * then its references and unique keys ({@link SNAPSHOT_REFERENCES}) and combinations. Answers the
 * snapshot as parsed.
 * @throws HttpError 400 `validation_failed` naming the first bad record and field
 *   (`state.accounts[0].workspaces[1].repoUrl: expected string, received nothing`), its issues every
 *   problem (at most 20, then a count).
 */
export function checkSnapshot(state: unknown): MockState {
  const problem = checkJsonBounds(state, STATE_JSON_BOUNDS);
  if (problem) {
    const { location, path, message, expected, received } = problem;
    throw new HttpError(400, 'validation_failed', message, {
      issues: [{ location, path, message, expected, received }],
    });
  }
  const parsed = StateSchema.safeParse(state);
  if (!parsed.success) throw shapeError(parsed.error, state, 'state', StateSchema);
  const problems = referenceProblems(parsed.data, SNAPSHOT_REFERENCES);
  problems.push(...snapshotProblems(parsed.data));
  if (problems.length > 0) throw listedError(problemIssues(problems, 'state'));
  // The one assertion of a body left in the control plane, on purpose: a snapshot may name some
  // `sizes` only (they only say how it was made), where `MockState` names all seven; they are kept
  // as given, not filled.
  return parsed.data as MockState;
}

/** Node's `Buffer`, when there is one (the core also runs in browsers, under MSW). */
const nodeBuffer = (globalThis as { Buffer?: { byteLength(text: string): number } }).Buffer;

/** The UTF-8 length of JSON text, bytes (`JSON.stringify` writes lone surrogates as `\u` escapes). */
function utf8Length(text: string): number {
  if (nodeBuffer) return nodeBuffer.byteLength(text);
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff) {
      bytes += 1; // a surrogate pair: 4 bytes for 2 code units
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * How many bytes `JSON.stringify(value)` takes (at least that many: a member whose value is
 * `undefined` is counted though not written), without making the whole text: the state, its accounts
 * and their lists member by member, each record (four levels down) on its own. Stops as soon as the
 * count passes `limit` (the text of a large state would not fit in one string).
 */
export function snapshotBytes(value: unknown, limit: number, depth = 0): number {
  if (depth >= 4 || typeof value !== 'object' || value === null) {
    const text = JSON.stringify(value);
    return text === undefined ? 0 : utf8Length(text);
  }
  // The brackets, and a comma between two entries.
  let bytes = 1;
  if (Array.isArray(value)) {
    for (const item of value) {
      bytes += snapshotBytes(item, limit - bytes, depth + 1) + 1;
      if (bytes > limit) return bytes;
    }
  } else {
    for (const [key, member] of Object.entries(value)) {
      bytes += utf8Length(JSON.stringify(key)) + 2 + snapshotBytes(member, limit - bytes, depth + 1);
      if (bytes > limit) return bytes;
    }
  }
  return bytes === 1 ? 2 : bytes;
}
