import { describe, expect, it } from 'vitest';
import { generateState } from '../../src/store/seed.js';
import type { AccountState } from '../../src/store/state.js';

describe('generateState: large sizes', () => {
  it('makes 100,000 workspaces and 1,000,000 events', () => {
    const large = generateState({ sizes: { workspaces: 100_000, events: 1_000_000 } });
    const [first] = large.accounts as [AccountState];
    expect(first.workspaces).toHaveLength(100_000);
    expect(first.events).toHaveLength(1_000_000);
    expect(new Set(first.workspaces.map((w) => w.workspaceName)).size).toBe(100_000);
    expect(first.runs.length).toBe(first.workspaces.reduce((sum, w) => sum + w.runsCount, 0));
    expect(first.runs.length).toBeGreaterThan(100_000);
  }, 180_000);
});
