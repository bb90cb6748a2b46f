/**
 * The contract is written with `zod/mini` (issue 25, point 6: the SDK's bundle). What users of the
 * exported schemas rely on stays: `.parse` and `.safeParse`, composing them into their own classic
 * zod schemas, extending them with `z.extend`, and English messages (zod/mini loads no locale; the
 * contract installs English unless the app chose a locale). See docs/compatibility.md, "zod/mini".
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';
import { Timestamp, WorkspaceSummary } from '../src/contract/index.js';
import { workspaceSummary } from './fixtures.js';

describe('the contract schemas, written with zod/mini', () => {
  it('keep .parse and .safeParse', () => {
    expect(WorkspaceSummary.parse(workspaceSummary)).toEqual(workspaceSummary);
    const result = WorkspaceSummary.safeParse({ ...workspaceSummary, runsCount: -1 });
    expect(result.success).toBe(false);
    expect(() => Timestamp.parse('2024-02-30T00:00:00.000Z')).toThrow(
      'expected a real calendar date and time',
    );
  });

  it('compose into classic zod schemas, which validate through them', () => {
    const Page = z.object({ workspace: WorkspaceSummary, note: z.string().optional() });
    expect(Page.parse({ workspace: workspaceSummary })).toEqual({ workspace: workspaceSummary });
    const bad = Page.safeParse({ workspace: { ...workspaceSummary, createdAt: 'yesterday' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['workspace', 'createdAt']);
    // Classic wrappers around them work as well.
    expect(z.array(WorkspaceSummary).optional().parse(undefined)).toBeUndefined();
    expect(z.object({ at: Timestamp }).shape.at).toBe(Timestamp);
  });

  it('extend with z.extend (mini) and classic z.object({ ...shape })', () => {
    const Mine = zm.extend(WorkspaceSummary, { mine: zm.boolean() });
    expect(Mine.parse({ ...workspaceSummary, mine: true }).mine).toBe(true);
    expect(Mine.safeParse(workspaceSummary).success).toBe(false);
    const Classic = z.looseObject({ ...WorkspaceSummary.shape, mine: z.boolean() });
    expect(Classic.safeParse({ ...workspaceSummary, mine: 'yes' }).success).toBe(false);
  });

  it('write English messages, as classic zod did', () => {
    const result = WorkspaceSummary.safeParse({ ...workspaceSummary, runsCount: -1 });
    expect(result.error?.issues[0]?.message).toBe('Too small: expected number to be >=0');
  });
});
