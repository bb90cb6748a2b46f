/**
 * The one check of an endpoint name that a control input gives, with the closest names when it is
 * not one: journal filters, waits, faults, one-off answers and the vitest matchers read it.
 *
 * @module
 */
import { type EndpointName, endpointList, endpoints, type IssueLocation } from '@iacm/sdk/contract';
import { validationError } from '../errors.js';

/** How many close names the 400 of an unknown endpoint name suggests. */
const CLOSE_NAMES = 3;

/** How many characters of an unknown name are compared with the endpoint names (and shown). */
const COMPARED_CHARS = 64;

/**
 * An endpoint name a control input gives (a journal filter `?endpoint=`, `control.calls(name)`, a
 * wait, a fault, a one-off answer, a matcher): one of the contract's endpoint table; else a 400 naming
 * `<location>.endpoint`, what came, and the (at most 3) closest names. The comparison reads at most 64
 * characters of what came (no regular expression).
 */
export function checkEndpointName(name: unknown, location: IssueLocation = 'query'): EndpointName {
  if (typeof name === 'string' && Object.hasOwn(endpoints, name)) return name as EndpointName;
  const text = typeof name === 'string' ? name.slice(0, COMPARED_CHARS) : undefined;
  const received =
    text === undefined
      ? typeof name
      : JSON.stringify(text) + ((name as string).length > COMPARED_CHARS ? '…' : '');
  const close = text === undefined ? [] : closestNames(text);
  const hint = close.length > 0 ? `; the closest: ${close.join(', ')}` : '';
  throw validationError([
    {
      location,
      path: 'endpoint',
      message: `${location}.endpoint: expected an endpoint name of the contract (as workspaces.search), received ${received}${hint}`,
      expected: 'an endpoint name of the contract',
      received,
    },
  ]);
}

/** The endpoint names nearest to `text` by edit distance, nearest first (ties in table order). */
function closestNames(text: string): string[] {
  return endpointList
    .map((definition) => ({ name: definition.name, distance: editDistance(text, definition.name) }))
    .sort((a, b) => a.distance - b.distance)
    .slice(0, CLOSE_NAMES)
    .map((entry) => entry.name);
}

/** Levenshtein distance (two rows; both texts are short: a name of the table, 64 characters at most). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] as number;
}
