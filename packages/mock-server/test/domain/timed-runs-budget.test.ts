/**
 * Timed runs and control-made runs charge the memory budget (issue 34, findings 11 and 12): a pending
 * timed run is charged its checked body's measure to `timedRuns` before anything is drawn (a 409
 * `budget_exceeded` changes nothing), given back when it finishes or is cleared; a run the control
 * plane makes is charged its measure to the data's ledger (`DomainServices.records`), and
 * `changedFiles[].path` is bounded. Counted, never timed: only a counter clock moves.
 */
import { describe, expect, it } from 'vitest';
import { MockCore } from '../../src/app/mock.js';
import { EventRecorder } from '../../src/domain/events.js';
import {
  type DomainServices,
  MAX_CHANGED_FILE_PATH_LENGTH,
  SimulatedRunBody,
  type SimulatedRunInput,
  simulateRunOnWorkspace,
} from '../../src/domain/simulate.js';
import { flightBytes, TimedRuns } from '../../src/domain/timed-runs.js';
import { heapBytes, KEPT_ITEM_BYTES, MemoryBudget } from '../../src/store/budget.js';
import { Random } from '../../src/store/random.js';
import { generateState } from '../../src/store/seed.js';
import { Store } from '../../src/store/store.js';
import { expectError, refusal } from '../helpers.js';

const T0 = Date.UTC(2026, 2, 1, 9, 0, 0);
const MINUTE = 60_000;
/** The clock's last instant, far away. */
const LATEST = Date.UTC(2100, 0, 1);

/** A store, domain services on a clock the test moves, a budget of `limit` bytes, counted ids. */
function world(limit = Number.POSITIVE_INFINITY) {
  const store = new Store(generateState({ seed: 5, sizes: { accounts: 1, workspaces: 3, rules: 0 } }));
  const account = [...store.accounts.values()][0];
  const workspace = account && [...account.workspaces.values()][0];
  if (!account || !workspace) throw new Error('expected a workspace');
  const budget = new MemoryBudget(limit);
  const records = budget.ledger('data');
  const random = new Random('runtime:5');
  let now = T0;
  let drawn = 0;
  let builds = 0;
  const services: DomainServices = {
    now: () => now,
    newId: () => {
      drawn += 1;
      return random.hex(24);
    },
    nextBuild: () => ++builds,
    events: new EventRecorder(
      () => random,
      () => now,
    ),
    records,
  };
  const timed = new TimedRuns(services, LATEST, () => {}, budget.ledger('timedRuns'));
  const runs = () => account.runs.get(workspace.id) ?? [];
  return {
    store,
    account,
    workspace,
    budget,
    records,
    services,
    timed,
    runs,
    drawn: () => drawn,
    advance: (ms: number) => {
      now += ms;
      timed.settle();
    },
  };
}

const checked = (input: SimulatedRunInput) => SimulatedRunBody.parse(input);

/** A plan of `n` changes (finding 11: 10,000 changes make a body of about 1.8 MB). */
const plan = (n: number): SimulatedRunInput => ({
  changes: Array.from({ length: n }, (_, i) => ({
    address: `aws_s3_bucket.b${i}`,
    assetType: 'aws_s3_bucket',
    actions: ['create' as const],
  })),
  apply: true,
});

const timing = { startAfterMs: MINUTE, planningMs: MINUTE, applyingMs: MINUTE };

describe('timed runs and the memory budget (finding 11)', () => {
  it('charges a pending run its body’s measure, and gives it back when the run finishes', () => {
    const w = world();
    const input = checked({ ...plan(10_000), timing });
    const bytes = flightBytes(input);
    expect(bytes).toBe(heapBytes(input) + KEPT_ITEM_BYTES);
    expect(bytes).toBeGreaterThan(1_000_000);
    w.timed.schedule(w.store.accounts.values(), w.workspace.id, input, timing);
    expect(w.budget.view().stores.timedRuns).toBe(bytes);
    expect(w.timed.chargedBytes).toBe(bytes);
    w.advance(MINUTE); // planning
    w.advance(MINUTE); // applying
    expect(w.budget.view().stores.timedRuns).toBe(bytes);
    w.advance(MINUTE); // finished
    expect(w.timed.inFlight).toBe(0);
    expect(w.budget.view().stores.timedRuns).toBe(0);
    // The run it made is a record, kept: charged to the data's ledger as it is now.
    const run = w.runs().at(-1);
    expect(run?.status).toBe('apply_success');
    expect(w.records.held).toBe(heapBytes(run));
  });

  it('refuses a run past the budget with a 409 naming timedRuns, before any id is drawn', () => {
    const small = checked({ ...plan(10), timing });
    const w = world(flightBytes(small) + 1000);
    w.timed.schedule(w.store.accounts.values(), w.workspace.id, small, timing);
    const drawn = w.drawn();
    const error = refusal(() =>
      w.timed.schedule(w.store.accounts.values(), w.workspace.id, checked({ ...plan(100), timing }), timing),
    );
    expect([error.status, error.code]).toEqual([409, 'budget_exceeded']);
    expect(error.message).toMatch(/^timedRuns \(the pending timed runs\) would take/);
    expect(error.message).toContain('POST /__mock/clock');
    expect(w.drawn()).toBe(drawn);
    expect(w.timed.inFlight).toBe(1);
    expect(w.budget.view().stores.timedRuns).toBe(flightBytes(small));
  });

  it('gives back a pending run dropped because its workspace went, and every pending run on clear', () => {
    const w = world();
    const input = checked({ ...plan(5), timing });
    w.timed.schedule(w.store.accounts.values(), w.workspace.id, input, timing);
    w.timed.schedule(w.store.accounts.values(), w.workspace.id, input, timing);
    expect(w.budget.view().stores.timedRuns).toBe(2 * flightBytes(input));
    w.timed.clear();
    expect(w.budget.view().stores.timedRuns).toBe(0);
    w.timed.schedule(w.store.accounts.values(), w.workspace.id, input, timing);
    w.account.workspaces.delete(w.workspace.id);
    w.advance(MINUTE);
    expect(w.timed.inFlight).toBe(0);
    expect(w.budget.view().stores.timedRuns).toBe(0);
  });
});

describe('control-made runs and the memory budget (finding 12)', () => {
  it('charges each kept run its measure to the data’s ledger', () => {
    const w = world();
    const input = checked({
      changedFiles: Array.from({ length: 100 }, (_, i) => ({
        path: `src/f${i}.tf`,
        type: 'modified' as const,
      })),
      apply: true,
    });
    const { run } = simulateRunOnWorkspace(w.store.accounts.values(), w.workspace.id, input, w.services);
    // Measured before the ids were drawn, with ids as long as the longest: at least the run's measure.
    expect(w.records.held).toBeGreaterThanOrEqual(heapBytes(run));
    expect(w.records.held).toBeLessThan(heapBytes(run) + 512);
    simulateRunOnWorkspace(w.store.accounts.values(), w.workspace.id, input, w.services);
    expect(w.records.held).toBeGreaterThanOrEqual(2 * heapBytes(run));
  });

  it('refuses a run past the budget with a 409 naming data: no run kept, no id drawn', () => {
    const w = world(64 * 1024);
    const input = checked({
      changedFiles: Array.from({ length: 2000 }, (_, i) => ({
        path: `src/f${i}.tf`,
        type: 'added' as const,
      })),
    });
    const before = w.runs().length;
    const error = refusal(() =>
      simulateRunOnWorkspace(w.store.accounts.values(), w.workspace.id, input, w.services),
    );
    expect([error.status, error.code]).toEqual([409, 'budget_exceeded']);
    expect(error.message).toMatch(/^data \(/);
    expect(w.drawn()).toBe(0);
    expect(w.runs()).toHaveLength(before);
    expect(w.records.held).toBe(0);
  });

  it('bounds changedFiles[].path: a longer path is a 400 naming the field', async () => {
    const long = 'p'.repeat(MAX_CHANGED_FILE_PATH_LENGTH + 1);
    expect(SimulatedRunBody.safeParse({ changedFiles: [{ path: long, type: 'added' }] }).success).toBe(false);
    expect(
      SimulatedRunBody.safeParse({
        changedFiles: [{ path: 'p'.repeat(MAX_CHANGED_FILE_PATH_LENGTH), type: 'added' }],
      }).success,
    ).toBe(true);
    const core = new MockCore({ sizes: { accounts: 1, workspaces: 2, rules: 0 } });
    const workspace = [...(core.store.accounts.values().next().value?.workspaces.values() ?? [])][0];
    if (!workspace) throw new Error('expected a workspace');
    const res = await core.handle({
      method: 'POST',
      path: `/__mock/workspaces/${workspace.id}/runs`,
      headers: { 'content-type': 'application/json' },
      body: {
        changedFiles: [
          { path: 'ok.tf', type: 'added' },
          { path: long, type: 'added' },
        ],
      },
    });
    const body = expectError(res, 400, 'validation_failed');
    expect(body.issues?.map((issue) => issue.path)).toContain('changedFiles[1].path');
    expect(body.message).toContain('changedFiles[1].path');
  });
});
