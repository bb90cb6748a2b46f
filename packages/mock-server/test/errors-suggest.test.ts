// "Did you mean" for unknown members (issue 35, finding 8).
import { describe, expect, it } from 'vitest';
import { editDistance, suggestMember } from '../src/errors/suggest.js';

describe('suggestMember', () => {
  const workspace = ['name', 'labels', 'guardrails', 'runs', 'status', 'repository'];

  it('gives the API name its scene name by its ending, and a near spelling within 2 edits', () => {
    expect(suggestMember('workspaceName', workspace)).toBe('name');
    expect(suggestMember('lables', workspace)).toBe('labels');
    expect(suggestMember('Status', workspace)).toBe('status');
    expect(suggestMember('gardrail', workspace)).toBe('guardrails');
  });

  it('gives nothing when nothing is near, when two are as near, or for a name over 64 characters', () => {
    expect(suggestMember('colour', workspace)).toBeUndefined();
    expect(suggestMember('ab', ['ac', 'ad'])).toBeUndefined();
    expect(suggestMember(`${'n'.repeat(65)}`, workspace)).toBeUndefined();
    expect(suggestMember('name', [])).toBeUndefined();
  });

  it('counts edits, stopping past the bound', () => {
    expect(editDistance('kitten', 'sitting', 5)).toBe(3);
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
    expect(editDistance('same', 'same', 2)).toBe(0);
    expect(editDistance('a', 'abcd', 2)).toBe(3);
  });
});
