/**
 * Generated data made once and shared (`store/template.ts`): the cache finds it again by seed and
 * sizes (or scene), a template's records are frozen, and each instance has lists of its own where a
 * store changes the list itself.
 */
import { describe, expect, it } from 'vitest';
import { generateLazyState } from '../../src/store/seed.js';
import { DEFAULT_SIZES } from '../../src/store/state.js';
import { DataTemplate, hasTemplate, sceneKey, seedKey, templateFor } from '../../src/store/template.js';

function template(seed: number) {
  const { state, runs, events } = generateLazyState({ seed, sizes: { workspaces: 5, events: 20 } });
  return new DataTemplate(
    state,
    state.accounts.map((_, i) => ({ runs: runs[i], events: events[i] })),
  );
}

describe('the template cache', () => {
  it('keys a seed and its sizes whatever the order of the sizes, and tells a number from its text', () => {
    const reordered = Object.fromEntries(Object.entries(DEFAULT_SIZES).reverse()) as typeof DEFAULT_SIZES;
    expect(seedKey(1, reordered)).toBe(seedKey(1, DEFAULT_SIZES));
    expect(seedKey('1', DEFAULT_SIZES)).not.toBe(seedKey(1, DEFAULT_SIZES));
    expect(seedKey(1, { ...DEFAULT_SIZES, events: 999 })).not.toBe(seedKey(1, DEFAULT_SIZES));
    expect(sceneKey({ seed: 1 })).not.toBe(seedKey(1, DEFAULT_SIZES));
  });

  it('keys a scene by a hash of its values, not its text, and tells scenes apart', () => {
    const label = (i: number) => `team-${i}-`.padEnd(128, 'x');
    const scene = { seed: 1, accounts: [{ workspaces: [{ name: 'a', labels: [label(1), label(2)] }] }] };
    const key = sceneKey(scene);
    expect(key.length).toBeLessThan(40);
    // The same values in a new object: the same key; any value changed, moved or added: another.
    expect(sceneKey(structuredClone(scene))).toBe(key);
    const changed = structuredClone(scene);
    (changed.accounts[0]?.workspaces[0]?.labels as string[])[1] = label(3);
    expect(sceneKey(changed)).not.toBe(key);
    const swapped = structuredClone(scene);
    swapped.accounts[0]?.workspaces[0]?.labels.reverse();
    expect(sceneKey(swapped)).not.toBe(key);
    expect(sceneKey({ ...scene, seed: '1' })).not.toBe(key);
    expect(sceneKey({ seed: 1, accounts: [{ workspaces: [{ name: 'a', labels: [label(1)] }] }] })).not.toBe(
      key,
    );
  });

  it('never hands a scene the template of another scene under the same key (a hash collision)', () => {
    let made = 0;
    const make = () => {
      made += 1;
      return template(43);
    };
    const key = 'test:template-collision';
    const scene = { seed: 1, accounts: [{ name: 'one' }] };
    const other = { seed: 1, accounts: [{ name: 'two' }] };
    const first = templateFor(key, make, scene);
    // An equal scene (another object): the cached template.
    expect(templateFor(key, make, structuredClone(scene))).toBe(first);
    expect(hasTemplate(key, structuredClone(scene))).toBe(true);
    // Another scene under the same key: made anew, not cached; the first stays cached.
    expect(hasTemplate(key, other)).toBe(false);
    const second = templateFor(key, make, other);
    expect(second).not.toBe(first);
    expect(made).toBe(2);
    expect(templateFor(key, make, scene)).toBe(first);
    expect(hasTemplate(key, other)).toBe(false);
  });

  it('makes a template once per key while it is in memory', () => {
    let made = 0;
    const make = () => {
      made += 1;
      return template(41);
    };
    const key = 'test:template-once';
    expect(hasTemplate(key)).toBe(false);
    const first = templateFor(key, make);
    expect(templateFor(key, make)).toBe(first);
    expect(made).toBe(1);
    expect(hasTemplate(key)).toBe(true);
  });
});

describe('a template', () => {
  it('freezes its records and gives each instance its own stack list and event log', () => {
    const shared = template(42);
    const one = shared.instance();
    const two = shared.instance();
    const [a, b] = [one.state.accounts[0], two.state.accounts[0]];
    expect(Object.isFrozen(a?.workspaces[0])).toBe(true);
    expect(a?.workspaces[0]).toBe(b?.workspaces[0]);
    expect(a?.stacks).not.toBe(b?.stacks);
    expect(Object.isFrozen(a?.stacks)).toBe(false);
    expect(one.seeded[0]?.events).not.toBe(two.seeded[0]?.events);
    one.seeded[0]?.events?.deleteOldest();
    expect(one.seeded[0]?.events?.size).toBe((two.seeded[0]?.events?.size ?? 0) - 1);
  });
});
