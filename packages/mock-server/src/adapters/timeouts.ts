/**
 * The standalone server's connection timeouts (`listen`'s `headersTimeoutMs`, `requestTimeoutMs`,
 * `keepAliveTimeoutMs`, `idleTimeoutMs`; the CLI's `--*-timeout` flags): their defaults and their
 * documented range, checked by the one option-range helper (`errors/ranges.ts`).
 *
 * @module
 */
import { checkOptionRange, type NumberRange } from '../errors/ranges.js';

/** The standalone server's connection timeouts by default, milliseconds. */
export const DEFAULT_SERVER_TIMEOUTS = Object.freeze({
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 5_000,
  idleTimeoutMs: 60_000,
});

/** A connection timeout's name. */
export type ServerTimeout = keyof typeof DEFAULT_SERVER_TIMEOUTS;

/** The longest connection timeout, ms (one hour); the shortest is 1 ms. */
export const MAX_TIMEOUT_MS = 3_600_000;

/** Each timeout's documented range: 1 ms to {@link MAX_TIMEOUT_MS}. */
export const SERVER_TIMEOUT_RANGE: NumberRange = Object.freeze({
  min: 1,
  max: MAX_TIMEOUT_MS,
  unit: 'milliseconds',
});

/**
 * The four timeouts from `listen`'s options (a missing one takes its default).
 * @throws RangeError naming the option, its range and what came (`ListenOptions headersTimeoutMs: ...`).
 */
export function resolveServerTimeouts(
  given: Partial<Record<ServerTimeout, number | undefined>>,
): Record<ServerTimeout, number> {
  const resolved: Record<ServerTimeout, number> = { ...DEFAULT_SERVER_TIMEOUTS };
  for (const name of Object.keys(DEFAULT_SERVER_TIMEOUTS) as ServerTimeout[]) {
    const value = given[name];
    if (value !== undefined)
      resolved[name] = checkOptionRange(`ListenOptions ${name}`, value, SERVER_TIMEOUT_RANGE);
  }
  return resolved;
}
