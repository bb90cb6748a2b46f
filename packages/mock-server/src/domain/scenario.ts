/**
 * Scenarios: a scene and a timeline of steps on the mock's clock (`docs/testing-with-the-mock.md`,
 * "Scenarios"). This module holds what a scenario may say ({@link Scenario}, {@link SCENARIO_LIMITS},
 * the `at` grammar of {@link parseScenarioAt}), the shape of a scenario ({@link ScenarioShape}) and the
 * checks of its timeline against its scene ({@link timelineSteps}): references by name (an account
 * by name or index, a workspace by name, a stack by its workspace's name), one kind per step, `at`
 * within its bound. The scene itself is checked by the control plane (`control/scenario.ts`), which
 * runs both before anything changes; the steps are played by `scenario-player.ts`.
 *
 * @module
 */

import { WebhookPayload, WorkspaceLabelsBody, zodIssues } from '@iacm/sdk/contract';
import * as z from 'zod';
import { listedError, type Problem, problemIssues } from '../errors.js';
import type { Steps } from '../query/pause.js';
import { type CheckedScene, SCENE_LIMITS, type Scene } from '../store/seed/scene.js';
import { DEFAULT_SIZES } from '../store/state.js';
import { type CheckedFinding, FindingBody, type FindingInput } from './findings.js';
import { type CheckedNotification, notificationPayload } from './notify.js';
import { type CheckedSimulatedRun, SimulatedRunBody, type SimulatedRunInput } from './simulate.js';
import { NotificationBody } from './webhooks.js';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The bounds of a scenario, each a 400 naming the member past it: at most `maxSteps` steps (10,000),
 * each `at` at most `maxAtMs` after the start (30 days); `POST /__mock/scenario` takes at most
 * `maxBodyBytes` (32 MiB: a scene's 16 MiB and a timeline). The scene has the bounds of `SCENE_LIMITS`.
 */
export const SCENARIO_LIMITS = Object.freeze({
  /** Steps of a timeline. */
  maxSteps: 10_000,
  /** The latest `at`, milliseconds after the start (30 days). */
  maxAtMs: 30 * DAY,
  /** The largest `POST /__mock/scenario` body, bytes (32 MiB). */
  maxBodyBytes: 32 * 1024 * 1024,
});

/** The units of an `at` text and their milliseconds. */
const AT_UNITS: Readonly<Record<string, number>> = Object.freeze({
  ms: 1,
  s: SECOND,
  m: MINUTE,
  h: HOUR,
  d: DAY,
});

/** `+`, 1 to 10 digits, a unit (a fixed pattern: never built from input). */
const AT_TEXT = /^\+(\d{1,10})(ms|s|m|h|d)$/;

/** What an `at` is expected to be, as messages say it. */
const AT_EXPECTED =
  '"+<n><unit>" (unit ms, s, m, h or d: "+30s", "+5m", "+2h", "+1d") or whole milliseconds, from 0 to 30 days';

/**
 * When a step is due, relative to the start of the scenario: a text `+<n><unit>` (`+30s`, `+5m`,
 * `+2h`, `+1d`, `+250ms`: `+`, 1 to 10 digits, a unit of `ms`, `s`, `m`, `h` or `d`) or a whole
 * number of milliseconds; 0 to {@link SCENARIO_LIMITS}`.maxAtMs` (30 days).
 */
export type ScenarioAt = `+${number}${'ms' | 's' | 'm' | 'h' | 'd'}` | number;

/**
 * The milliseconds an `at` stands for (see {@link ScenarioAt}), or `undefined` when it is not one
 * (a text of another form, a fraction, a negative number, or past 30 days).
 */
export function parseScenarioAt(value: unknown): number | undefined {
  let ms: number | undefined;
  if (typeof value === 'number') ms = Number.isSafeInteger(value) ? value : undefined;
  else if (typeof value === 'string') {
    const match = AT_TEXT.exec(value);
    const unit = match ? AT_UNITS[match[2] as string] : undefined;
    ms = match && unit !== undefined ? Number(match[1]) * unit : undefined;
  }
  return ms !== undefined && ms >= 0 && ms <= SCENARIO_LIMITS.maxAtMs ? ms : undefined;
}

/** An account of the scene: its name, or its index in the scene's `accounts` (0, the primary, by default). */
export type ScenarioAccountRef = string | number;

/** What every step that names records takes: the account, by name or index (default the primary). */
interface AccountMember {
  /** The scene's account, by its name or its index in `accounts`; default the first (the primary). */
  account?: ScenarioAccountRef | undefined;
}

/** A `simulateRun` step: a simulated run (`control.simulateRun`'s body, `timing` included) on a workspace by name. */
export interface ScenarioRunStep extends SimulatedRunInput, AccountMember {
  /** The name of the workspace (one of the scene account's `workspaces`). */
  workspace: string;
}

/** A `finding` step: a finding (`control.recordFinding`'s body) on a stack, named by its workspace. */
export interface ScenarioFindingStep extends FindingInput, AccountMember {
  /** The name of the workspace whose stack it is (one of the scene account's `stacks`). */
  stack: string;
}

/** A `labels` step: the workspace's new labels, as `PUT /v2/workspaces/{id}/labels` replaces them. */
export interface ScenarioLabelsStep extends AccountMember {
  /** The name of the workspace (one of the scene account's `workspaces`). */
  workspace: string;
  /** The complete new list: at most 50 labels of 1 to 128 characters, each once; `[]` removes them. */
  labels: string[];
}

/**
 * A `notify` step: a notification queued and delivered (`control.notify`'s body: `notificationType`
 * and payload members), to the account named by `account` (not `accountId`).
 */
export interface ScenarioNotifyStep extends AccountMember {
  /** `Drift`, `GhostResource`, `UnmanagedResource` or `InsightDetected`. */
  notificationType: CheckedNotification['notificationType'];
  /** Payload members that replace the generated ones. */
  [member: string]: unknown;
}

/** One step of a scenario's timeline: when, and exactly one thing that happens then. */
export type ScenarioStep = { at: ScenarioAt } & (
  | { simulateRun: ScenarioRunStep }
  | { finding: ScenarioFindingStep }
  | { labels: ScenarioLabelsStep }
  | { notify: ScenarioNotifyStep }
);

/**
 * A scenario: a scene (what the data holds at the start) and a timeline of steps on the mock's clock,
 * relative to the start (`control.play()`, `POST /__mock/scenario`, `iacm-mock --scenario`). Steps
 * apply in `at` order (ties in the order of the timeline) when the clock passes them.
 */
export interface Scenario {
  /** The data at the start, as `control.scene` takes it. */
  scene: Scene;
  /** The steps, at most 10,000. */
  timeline: ScenarioStep[];
}

/** What `control.play()` and `POST /__mock/scenario` answer: how many steps, and when they fall. */
export interface ScenarioAnswer {
  /** `playing`. */
  status: 'playing';
  /** How many steps the timeline holds. */
  steps: number;
  /** The start (the clock's now when it was played), ISO 8601. */
  startsAt: string;
  /** When the last step is due (the start for an empty timeline), ISO 8601. */
  endsAt: string;
}

/** A step that was not applied: where it is in the timeline, when it fell, and why. */
export interface SkippedStep {
  /** Its position in the scenario's `timeline` (from 0). */
  step: number;
  /** Its kind: `simulateRun`, `finding`, `labels` or `notify`. */
  kind: string;
  /** When it fell due, ISO 8601. */
  at: string;
  /** Why it was skipped (its workspace or stack deleted since, a bound full), at most 300 characters. */
  reason: string;
}

/** How many skipped steps a scenario's progress lists (the first ones; `skippedCount` counts them all): 100. */
export const MAX_LISTED_SKIPS = 100;

/**
 * How far the scenario being played has gone (`GET /__mock/scenario`, `control.scenarioProgress()`):
 * `none` when no scenario was played since the data was last replaced.
 */
export type ScenarioProgress =
  | { status: 'none' }
  | {
      /** `playing` while steps are pending, `finished` once none is. */
      status: 'playing' | 'finished';
      /** How many steps the timeline holds. */
      steps: number;
      /** How many were applied. */
      applied: number;
      /** How many are still to come. */
      pending: number;
      /** How many were skipped (each listed in `skipped`, up to {@link MAX_LISTED_SKIPS}). */
      skippedCount: number;
      /** The first skipped steps, in the order they fell due. */
      skipped: SkippedStep[];
      /** The start, ISO 8601. */
      startsAt: string;
      /** When the last step is due, ISO 8601. */
      endsAt: string;
    };

const Name = z.string().trim().min(1).max(128);
const AccountRef = z.union([
  Name,
  z
    .int()
    .min(0)
    .max(SCENE_LIMITS.accounts - 1),
]);
const account = { account: AccountRef.optional() };

/** The kinds of step, in the order messages list them. */
const STEP_KINDS = ['simulateRun', 'finding', 'labels', 'notify'] as const;

/** A step's shape (the kind is checked by {@link timelineSteps}, with the references). */
export const ScenarioStepSchema = z.strictObject({
  at: z.union([z.number(), z.string().max(64)]),
  simulateRun: SimulatedRunBody.extend({ workspace: Name, ...account }).optional(),
  finding: FindingBody.extend({ stack: Name, ...account }).optional(),
  labels: z.strictObject({ ...WorkspaceLabelsBody.shape, workspace: Name, ...account }).optional(),
  notify: NotificationBody.extend(account).optional(),
});

/** A scenario's shape: the scene (checked as a scene), the timeline's steps (at most 10,000). */
export const ScenarioShape = z.strictObject({
  scene: z.looseObject({}),
  timeline: z.array(ScenarioStepSchema).max(SCENARIO_LIMITS.maxSteps),
});

/**
 * A scenario's shape without its steps' (each an unknown value, at most 10,000): what a check in
 * slices parses at once, before it parses each step by {@link ScenarioStepSchema}.
 */
export const ScenarioOuterShape = z.strictObject({
  scene: z.looseObject({}),
  timeline: z.array(z.unknown()).max(SCENARIO_LIMITS.maxSteps),
});

/** A scenario once its shape was parsed. */
export type ScenarioShapeOutput = z.output<typeof ScenarioShape>;

/** What one checked step does, with its account by index into the scene's accounts. */
export type CheckedScenarioAction =
  | { kind: 'simulateRun'; workspace: string; run: CheckedSimulatedRun }
  | { kind: 'finding'; stack: string; finding: CheckedFinding }
  | { kind: 'labels'; workspace: string; labels: string[] }
  | { kind: 'notify'; notification: CheckedNotification };

/** A step once checked: milliseconds after the start, the account's index, what it does. */
export interface CheckedScenarioStep {
  /** Milliseconds after the start. */
  readonly at: number;
  /** The index of the account in the scene's accounts (0: the primary). */
  readonly account: number;
  /** What it does. */
  readonly action: CheckedScenarioAction;
}

/** A scenario once checked whole: the checked scene and the checked steps, in timeline order. */
export interface CheckedScenario {
  /** The scene. */
  readonly scene: CheckedScene;
  /** The steps, in the order of the timeline. */
  readonly timeline: readonly CheckedScenarioStep[];
}

/** A problem of a timeline: where (`timeline[3].simulateRun.workspace`), what was expected, what came. */
export type TimelineProblem = Problem;

/** A name as a message shows it: quoted, at most 60 characters. */
const shown = (name: string) => JSON.stringify(name.length > 60 ? `${name.slice(0, 60)}…` : name);

/** The scene's account a reference names (its index), or the problem. */
function accountIndex(
  scene: CheckedScene,
  ref: ScenarioAccountRef | undefined,
  where: string,
): number | TimelineProblem {
  if (ref === undefined) return 0;
  const accounts = scene.accounts;
  if (typeof ref === 'number') {
    const count = accounts?.length ?? DEFAULT_SIZES.accounts;
    return ref < count
      ? ref
      : [
          `${where}.account`,
          `expected the index of one of the scene's ${count} accounts (0 to ${count - 1})`,
          String(ref),
        ];
  }
  const index = accounts ? accounts.findIndex((a) => a.name === ref) : -1;
  return index >= 0
    ? index
    : [
        `${where}.account`,
        accounts
          ? "expected the name of one of the scene's accounts (or its index)"
          : 'expected the index of an account (the scene names none: name them in "accounts" to refer to them by name)',
        shown(ref),
      ];
}

/** The problem of a workspace named by a step, if any. */
function workspaceProblem(
  scene: CheckedScene,
  a: number,
  name: string,
  path: string,
): TimelineProblem | undefined {
  const workspaces = scene.accounts?.[a]?.workspaces;
  if (!workspaces) {
    return [
      path,
      `expected the name of a workspace of the account: name the workspaces in the scene's accounts[${a}].workspaces to refer to them`,
      shown(name),
    ];
  }
  if (workspaces.some((w) => w.name === name)) return undefined;
  return [path, "expected the name of one of the account's workspaces", shown(name)];
}

/** The problem of a stack named (by its workspace's name) by a step, if any. */
function stackProblem(
  scene: CheckedScene,
  a: number,
  name: string,
  path: string,
): TimelineProblem | undefined {
  const stacks = scene.accounts?.[a]?.stacks;
  if (!stacks) {
    return [
      path,
      `expected the workspace name of a stack of the account: name the stacks in the scene's accounts[${a}].stacks to refer to them`,
      shown(name),
    ];
  }
  if (stacks.some((s) => s.workspace === name)) return undefined;
  return [path, "expected the workspace name of one of the account's stacks", shown(name)];
}

/** The issues of a notification's payload (as `control.notify` checks it), named under `where`. */
function payloadProblems(
  scene: CheckedScene,
  a: number,
  notify: CheckedNotification,
  where: string,
): TimelineProblem[] {
  const placeholder = { id: '0'.repeat(24), name: scene.accounts?.[a]?.name ?? 'Account' };
  const payload = notificationPayload(placeholder, notify);
  const checked = WebhookPayload.safeParse(payload);
  if (checked.success) return [];
  return zodIssues(checked.error, payload, {
    label: (p) => `scenario.${where}${p ? `.${p}` : ''}`,
    max: 5,
  }).map(
    (issue) =>
      [`${where}${issue.path ? `.${issue.path}` : ''}`, issue.message, issue.received] as TimelineProblem,
  );
}

/** How many steps a check reads between two points where it may stop (`Steps`): 256. */
export const CHECK_STEP = 256;

/**
 * Checks a timeline (its shape parsed) against its checked scene: each step has exactly one kind and
 * an `at` of the grammar within 30 days; its account, workspace and stack name records of the scene
 * (`timeline[3].simulateRun.workspace: expected the name of one of the account's workspaces`); a
 * `notify` names its account by `account`, and makes a valid payload. Answers the checked steps, or
 * the problems (paths relative to the scenario, messages whole). In steps of {@link CHECK_STEP}
 * steps of the timeline (`query/pause.ts`: run by `drive` in slices, or whole by `drain`).
 */
export function* timelineSteps(
  timeline: ScenarioShapeOutput['timeline'],
  scene: CheckedScene,
): Steps<{ steps: CheckedScenarioStep[]; problems: TimelineProblem[] }> {
  const steps: CheckedScenarioStep[] = [];
  const problems: TimelineProblem[] = [];
  for (let i = 0; i < timeline.length; i++) {
    if (i > 0 && i % CHECK_STEP === 0) yield;
    checkStep(timeline[i] as ScenarioShapeOutput['timeline'][number], i, scene, steps, problems);
  }
  return { steps, problems };
}

/** Checks step `i` of a timeline: its checked form pushed to `steps`, or its problems to `problems`. */
function checkStep(
  step: ScenarioShapeOutput['timeline'][number],
  i: number,
  scene: CheckedScene,
  steps: CheckedScenarioStep[],
  problems: TimelineProblem[],
): void {
  const base = `timeline[${i}]`;
  const found: TimelineProblem[] = [];
  const at = parseScenarioAt(step.at);
  if (at === undefined) {
    found.push([
      `${base}.at`,
      `expected ${AT_EXPECTED}`,
      typeof step.at === 'string' ? shown(step.at) : String(step.at),
    ]);
  }
  const kinds = STEP_KINDS.filter((kind) => step[kind] !== undefined);
  if (kinds.length !== 1) {
    found.push([
      base,
      `expected exactly one of ${STEP_KINDS.map((k) => `"${k}"`).join(', ')}`,
      kinds.length === 0 ? 'none' : kinds.map((k) => `"${k}"`).join(' and '),
    ]);
    problems.push(...found);
    return;
  }
  const kind = kinds[0] as (typeof STEP_KINDS)[number];
  const where = `${base}.${kind}`;
  const body = step[kind] as { account?: ScenarioAccountRef };
  const a = accountIndex(scene, body.account, where);
  if (typeof a !== 'number') {
    problems.push(...found, a);
    return;
  }
  let action: CheckedScenarioAction | undefined;
  if (step.simulateRun) {
    const { workspace, account: _a, ...run } = step.simulateRun;
    const problem = workspaceProblem(scene, a, workspace, `${where}.workspace`);
    if (problem) found.push(problem);
    action = { kind: 'simulateRun', workspace, run };
  } else if (step.finding) {
    const { stack, account: _a, ...finding } = step.finding;
    const problem = stackProblem(scene, a, stack, `${where}.stack`);
    if (problem) found.push(problem);
    action = { kind: 'finding', stack, finding };
  } else if (step.labels) {
    const { workspace, labels } = step.labels;
    const problem = workspaceProblem(scene, a, workspace, `${where}.workspace`);
    if (problem) found.push(problem);
    action = { kind: 'labels', workspace, labels };
  } else if (step.notify) {
    const { account: _a, ...notification } = step.notify;
    if (notification.accountId !== undefined) {
      found.push([
        `${where}.accountId`,
        'expected the account by "account" (its name or index in the scene: its id is drawn when the scene loads)',
        'an accountId',
      ]);
    } else found.push(...payloadProblems(scene, a, notification, where));
    action = { kind: 'notify', notification };
  }
  if (found.length > 0 || at === undefined || !action) {
    problems.push(...found);
    return;
  }
  steps.push({ at, account: a, action });
}

/**
 * The last instant step `step` of a scenario played from `start` falls at: its `at`, or for a
 * `simulateRun` with `timing`, the end of the timed run it starts (its apply, when it has one).
 */
function stepEnd(step: CheckedScenarioStep, start: number): number {
  const at = start + step.at;
  if (step.action.kind !== 'simulateRun') return at;
  const { timing, apply } = step.action.run;
  if (!timing) return at;
  return at + timing.startAfterMs + timing.planningMs + (apply ? timing.applyingMs : 0);
}

/**
 * Checks that a checked scenario played from `start` ends by `latest` (the clock's last instant), as
 * a timed run is checked when it is scheduled: before anything changes, so that no step is kept
 * pending for ever.
 * @throws HttpError 400 `validation_failed` naming the first step that would fall after it
 *   (`scenario.timeline[3].at: expected a step that ends by +275760-09-13T00:00:00.000Z (the
 *   clock's last instant), received one ending at epoch milliseconds ...`), its issues each such step.
 */
export function checkScenarioFits(scenario: CheckedScenario, start: number, latest: number): void {
  const problems: Problem[] = [];
  const last = new Date(latest).toISOString();
  scenario.timeline.forEach((step, index) => {
    const end = stepEnd(step, start);
    if (end <= latest) return;
    problems.push([
      `timeline[${index}].at`,
      `expected a step that ends by ${last} (the clock's last instant) when played from the clock's now`,
      `one ending at epoch milliseconds ${end}`,
    ]);
  });
  if (problems.length > 0) throw listedError(problemIssues(problems, 'scenario'));
}
