import { createHash } from 'node:crypto';
import { MockCore } from '@iacm/mock-server';
import { describe, expect, it } from 'vitest';
import { generateState } from '../src/store/seed.js';

/**
 * The seeded data, pinned: the SHA-256 of `JSON.stringify` of what `GET /__mock/state` answers for a
 * seed at the default sizes. Users rely on a seed giving the same data in every version (fixtures,
 * snapshots, screenshots), so refactoring the generator must not change a byte.
 *
 * A change that alters seeded data on purpose must re-pin these hashes in its own commit, together
 * with a changeset that says what data changed.
 */
const PINNED: ReadonlyArray<readonly [seed: number | string | undefined, sha256: string]> = [
  [undefined, 'fb0ae514aeaf6f64e53576a2b123a28043bf34941da5c03409ac6ae0641ca32e'],
  [7, '54bffb23224d43a0b44ad1f2b16b9f3834b0004edc7000b22295bf9e59139245'],
  ['demo', '8235a0eeeb4990b17c05bf9b57532b3c242734f8290d04d2aa60c033e1a60c7d'],
];

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('seeded data', () => {
  it.each(PINNED)('GET /__mock/state for seed %s hashes to its pinned value', async (seed, hash) => {
    const core = new MockCore(seed === undefined ? {} : { seed });
    const res = await core.handle({ method: 'GET', path: '/__mock/state' });
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body);
    expect(sha256(text)).toBe(hash);
    // The snapshot is the generator's output, so the generator is pinned too.
    expect(JSON.stringify(generateState(seed === undefined ? {} : { seed }))).toBe(text);
  });
});
