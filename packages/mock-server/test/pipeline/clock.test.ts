import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/errors.js';
import { MovableClock } from '../../src/pipeline/clock.js';

describe('the clock', () => {
  it('runs from its base, moves by an offset, stops at an instant, and resumes unmoved', () => {
    let base = 1000;
    const clock = new MovableClock(() => base);
    clock.advance(500);
    expect(clock.now()).toBe(1500);
    base = 2000;
    expect(clock.now()).toBe(2500);
    clock.set('1970-01-01T00:00:10.000Z');
    base = 9999;
    expect(clock.now()).toBe(10_000);
    clock.advance(-1000);
    expect(clock.now()).toBe(9000);
    clock.reset();
    expect(clock.now()).toBe(9999);
  });

  it('refuses an instant that is not one with 400', () => {
    const clock = new MovableClock(() => 0);
    expect(() => clock.set('soon')).toThrow(HttpError);
  });
});
