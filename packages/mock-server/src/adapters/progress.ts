/**
 * What the CLI prints around a long start: the generator offers no progress hook and runs
 * synchronously, so a large seeding (or snapshot load) is announced before it starts, and its
 * duration printed after it ends.
 *
 * @module
 */
import type { MockState } from '../store/state.js';
import { estimateSeedBytes, type ServeOptions } from './cli-options.js';

/** Generated data at least this large (by its memory estimate) announces its seeding: a second or more. */
export const ANNOUNCE_BYTES = 50_000_000;

/** The line (text) or object (json) printed before a large seeding or snapshot load, or undefined. */
export function startNotice(
  options: ServeOptions,
): { text: string; json: Record<string, unknown> } | undefined {
  if (options.state) {
    const { snapshot, file } = options.state;
    const count = (pick: (a: MockState['accounts'][number]) => unknown[]) =>
      snapshot.accounts.reduce((sum, account) => sum + pick(account).length, 0);
    const workspaces = count((a) => a.workspaces);
    const runs = count((a) => a.runs);
    const events = count((a) => a.events);
    if (workspaces * 1500 + runs * 1600 + events * 400 < ANNOUNCE_BYTES) return undefined;
    return {
      text: `loading ${file}: ${workspaces} workspaces, ${runs} runs, ${events} events ...`,
      json: { msg: 'loading', file, workspaces, runs, events },
    };
  }
  const { sizes } = options;
  if (estimateSeedBytes(sizes) < ANNOUNCE_BYTES) return undefined;
  return {
    text: `seeding ${sizes.workspaces} workspaces (up to ${sizes.runsPerWorkspace} runs each), ${sizes.events} events, ${sizes.accounts} accounts ...`,
    json: {
      msg: 'seeding',
      workspaces: sizes.workspaces,
      runsPerWorkspace: sizes.runsPerWorkspace,
      events: sizes.events,
      accounts: sizes.accounts,
    },
  };
}
