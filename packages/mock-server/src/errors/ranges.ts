/**
 * Documented numeric ranges, one home for every number a caller sets (the clock, the rate limit, the
 * delivery policy, the retention bounds, ...): a number is accepted only when it is finite, an integer
 * where the range says so, and within `[min, max]`, both ends included. Out of range, the error names
 * the field, the range and what came: a 400 `validation_failed` for a control request (over HTTP or
 * in process), a `RangeError` for an option of the mock.
 *
 * An {@link OptionGroup} is a set of such numbers with their defaults (the delivery policy, the
 * retention bounds): {@link resolveOptionGroup} fills what is not given and checks the rest,
 * {@link optionGroupSchema} is the same check as the body schema of a control route.
 *
 * The bottom layer, beside `errors.ts`: it imports only the contract, zod and the error type.
 *
 * @module
 */
import { describe, type IssueLocation } from '@iacm/sdk/contract';
import * as z from 'zod';
import { HttpError } from '../errors.js';

/** A documented range of a number: `min` to `max`, both ends included. */
export interface NumberRange {
  /** The smallest value. */
  readonly min: number;
  /** The largest value. */
  readonly max: number;
  /** Whole numbers only. Default `true`. */
  readonly integer?: boolean;
  /** The unit messages name after the range (`milliseconds`, `seconds`). */
  readonly unit?: string;
  /**
   * How messages say the range when its numbers alone would not do (an instant's range as dates):
   * replaces `an integer from <min> to <max> (<unit>)`.
   */
  readonly expected?: string;
}

/** What a range expects, as messages say it: `an integer from 1 to 10 (seconds)`. */
export function expectedOf(range: NumberRange): string {
  if (range.expected !== undefined) return range.expected;
  const kind = range.integer === false ? 'a number' : 'an integer';
  return `${kind} from ${range.min} to ${range.max}${range.unit ? ` (${range.unit})` : ''}`;
}

/** Whether `value` is a finite number within `range` (and an integer when the range wants one). */
export function isInRange(value: unknown, range: NumberRange): value is number {
  return (
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (range.integer === false || Number.isInteger(value)) &&
    value >= range.min &&
    value <= range.max
  );
}

/** What came, short and never echoing a long value: `number 1e+308`, `number -0`, `"5"`, `null`, `an array`. */
export function receivedOf(value: unknown): string {
  return Object.is(value, -0) ? 'number -0' : describe(value);
}

/**
 * The 400 `validation_failed` for a number out of its range, naming the field, the range and what
 * came: `body.limit: expected an integer from 1 to 1000000 (requests), received number 0`.
 * @param field the field's dotted path inside `location` (`limit`, `sizes.workspaces`).
 */
export function outOfRange(
  field: string,
  range: NumberRange,
  value: unknown,
  location: IssueLocation = 'body',
): HttpError {
  const expected = expectedOf(range);
  const received = receivedOf(value);
  const message = `${location}.${field}: expected ${expected}, received ${received}`;
  return new HttpError(400, 'validation_failed', message, {
    issues: [{ location, path: field, message, expected, received }],
  });
}

/**
 * `value`, when it is within `range`; else throws {@link outOfRange} (400). For control requests,
 * over HTTP and in process.
 */
export function checkRange(
  field: string,
  value: unknown,
  range: NumberRange,
  location: IssueLocation = 'body',
): number {
  if (!isInRange(value, range)) throw outOfRange(field, range, value, location);
  return value;
}

/**
 * `value`, when it is within `range`; else throws a `RangeError` naming the option, the range and
 * what came: `MockOptions rateLimit.limit: expected an integer from 1 to 1000000 (requests), received 0`. For
 * the options a mock is created with.
 * @param label the option, as the message names it (`MockOptions rateLimit.limit`).
 */
export function checkOptionRange(label: string, value: unknown, range: NumberRange): number {
  if (isInRange(value, range)) return value;
  const received =
    typeof value === 'number'
      ? Object.is(value, -0)
        ? '-0'
        : String(value)
      : `a value of type ${value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value}`;
  throw new RangeError(`${label}: expected ${expectedOf(range)}, received ${received}`);
}

/**
 * The zod schema of a number within `range`: one issue, whose message names the range (`expected an
 * integer from 1 to 10`; the issue formatter adds the field and what came), whatever is wrong with it.
 */
export function rangeSchema(range: NumberRange): z.ZodNumber {
  const error = `expected ${expectedOf(range)}`;
  let schema = z.number({ error });
  if (range.integer !== false) schema = schema.int({ error, abort: true });
  return schema.min(range.min, { error, abort: true }).max(range.max, { error });
}

/**
 * A group of numeric settings, each with its documented range and default (the delivery policy,
 * the retention bounds).
 */
export interface OptionGroup<K extends string> {
  /** Each member's range. */
  readonly ranges: Readonly<Record<K, NumberRange>>;
  /** Each member's default, within its range. */
  readonly defaults: Readonly<Record<K, number>>;
}

/**
 * The whole group from its defaults and a partial one (`undefined` members take the default), each
 * member checked against its range.
 * @param label names the group in errors (`MockOptions retention`).
 * @param noun what a member is called in the error for an unknown one (`bound`).
 * @throws RangeError naming the member, its range and what came, or an unknown member.
 */
export function resolveOptionGroup<K extends string>(
  group: OptionGroup<K>,
  given: unknown,
  label: string,
  noun = 'member',
): Record<K, number> {
  const names = Object.keys(group.ranges) as K[];
  const resolved = { ...group.defaults } as Record<K, number>;
  if (given === undefined) return resolved;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new RangeError(
      `${label}: expected an object with some of ${names.join(', ')}, received ${receivedOf(given)}`,
    );
  }
  for (const [name, value] of Object.entries(given)) {
    if (!Object.hasOwn(group.ranges, name)) {
      throw new RangeError(`${label}.${name.slice(0, 60)}: unknown ${noun}; expected ${names.join(', ')}`);
    }
    if (value === undefined) continue;
    const key = name as K;
    resolved[key] = checkOptionRange(`${label}.${name}`, value, group.ranges[key]);
  }
  return resolved;
}

/**
 * The body schema of a partial group (a control route's): a strict object whose members are each
 * optional and within their range ({@link rangeSchema}).
 */
export function optionGroupSchema<K extends string>(
  group: OptionGroup<K>,
): z.ZodObject<Record<K, z.ZodOptional<z.ZodNumber>>, z.core.$strict> {
  const shape = {} as Record<K, z.ZodOptional<z.ZodNumber>>;
  for (const name of Object.keys(group.ranges) as K[]) {
    shape[name] = rangeSchema(group.ranges[name]).optional();
  }
  return z.strictObject(shape);
}
