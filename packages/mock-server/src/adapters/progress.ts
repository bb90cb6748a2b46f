/**
 * What the CLI prints around a long start: a large seeding (or snapshot load) is announced before it
 * starts and its duration printed after it ends; while data is generated, a progress line at most
 * about once a second (the generator runs synchronously and reports through `onSeedProgress`).
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

/** A line for people (`text`) and the same as an object (`json`). */
export interface ProgressLine {
  /** The text line. */
  text: string;
  /** The JSON log line's object. */
  json: Record<string, unknown>;
}

const count = new Intl.NumberFormat('en-US');

/** The progress line for `done` of `total` records: `seeding: 45% (450,000 of 1,000,000 workspaces and events)`. */
export function progressLine(done: number, total: number): ProgressLine {
  const percent = total > 0 ? Math.floor((done * 100) / total) : 100;
  return {
    text: `seeding: ${percent}% (${count.format(done)} of ${count.format(total)} workspaces and events)`,
    json: { msg: 'seeding progress', percent, done, total },
  };
}

/**
 * An `onSeedProgress` callback that prints a progress line at most once per `intervalMs`, and only
 * once a generation has run that long: a small data set, quick to generate, prints nothing. The
 * last report (`done === total`) prints nothing either (the CLI then prints `seeded in X s`). A
 * report that does not follow the previous one (a `reset` or `seed` generating again) starts a new
 * generation, so regenerating large data shows its progress too.
 * @param print writes a line.
 * @param now a clock in milliseconds (default `performance.now`).
 * @param intervalMs the least time between two lines (default 1000).
 */
export function seedProgressPrinter(
  print: (line: ProgressLine) => void,
  now: () => number = () => performance.now(),
  intervalMs = 1000,
): (done: number, total: number) => void {
  let last = now();
  let previous: { done: number; total: number } | undefined;
  return (done, total) => {
    const time = now();
    if (previous && (done <= previous.done || previous.done >= previous.total)) last = time;
    previous = { done, total };
    if (done >= total || time - last < intervalMs) return;
    last = time;
    print(progressLine(done, total));
  };
}
