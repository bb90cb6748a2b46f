/**
 * "Did you mean": for a member a strict schema does not know, the member it most likely meant. A
 * member the API names otherwise (`workspaceName` where a scene says `name`) is suggested by its
 * ending; else the one known member within an edit distance of 2 (the closest; none when two are as
 * close). Bounded: names over 64 characters are not compared, and at most {@link MAX_SUGGESTED}
 * unknown members are looked at.
 *
 * @module
 */
import { formatIssuePath } from '@iacm/sdk/contract';
import type * as z from 'zod';

/** The longest member name compared. */
const MAX_NAME = 64;

/** The most unknown members of one error given a suggestion. */
const MAX_SUGGESTED = 100;

/** The edit distance (insertions, deletions, substitutions) of `a` and `b`, or `max + 1` when more. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const value = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
      current.push(value);
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    previous = current;
  }
  return previous[b.length] as number;
}

/** The member of `known` that `unknown` most likely meant, or `undefined`. */
export function suggestMember(unknown: string, known: readonly string[]): string | undefined {
  if (unknown.length > MAX_NAME || known.length === 0) return undefined;
  // The API's name of a member a shorter name stands for here: `workspaceName` → `name`.
  const lower = unknown.toLowerCase();
  const ending = known
    .filter((name) => name.length < unknown.length && lower.endsWith(name.toLowerCase()))
    .sort((a, b) => b.length - a.length)[0];
  if (ending !== undefined) return ending;
  let best: string | undefined;
  let bestDistance = 3;
  let ties = 0;
  for (const name of known) {
    if (name.length > MAX_NAME) continue;
    const distance = editDistance(lower, name.toLowerCase(), 2);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
      ties = 0;
    } else if (distance === bestDistance) {
      ties += 1;
    }
  }
  return best !== undefined && ties === 0 ? best : undefined;
}

/** The definition of a zod schema, as the walk below reads it. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
}

function defOf(schema: z.ZodType | undefined): Def | undefined {
  return (schema as unknown as { _zod?: { def?: Def } } | undefined)?._zod?.def;
}

/** The object schemas `schema` may be at `path` (through wrappers, unions and arrays); bounded depth. */
function objectsAt(schema: z.ZodType, path: readonly PropertyKey[]): Def[] {
  const found: Def[] = [];
  const walk = (node: z.ZodType | undefined, at: number, depth: number): void => {
    const def = defOf(node);
    if (!def || depth > 64 || found.length > 16) return;
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        walk(def.innerType, at, depth + 1);
        return;
      case 'pipe':
        walk(def.in, at, depth + 1);
        return;
      case 'lazy':
        walk(def.getter?.(), at, depth + 1);
        return;
      case 'union':
        for (const option of def.options ?? []) walk(option, at, depth + 1);
        return;
      case 'intersection':
        walk(def.left, at, depth + 1);
        walk(def.right, at, depth + 1);
        return;
    }
    if (at === path.length) {
      if (def.type === 'object') found.push(def);
      return;
    }
    const key = path[at];
    if (def.type === 'array' && typeof key === 'number') walk(def.element, at + 1, depth + 1);
    else if (def.type === 'record') walk(def.valueType, at + 1, depth + 1);
    else if (def.type === 'object' && typeof key === 'string' && def.shape && Object.hasOwn(def.shape, key)) {
      walk(def.shape[key], at + 1, depth + 1);
    }
  };
  walk(schema, 0, 0);
  return found;
}

/**
 * The member names an object of `schema` has at `path` (through wrappers, unions and arrays: an
 * array's items at any number), or `undefined` where `schema` has no object schema there (a record,
 * an unknown, a primitive): the names a `match` may give at that path.
 */
export function memberNamesAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | undefined {
  const found = objectsAt(schema, path);
  return found.length === 0 ? undefined : [...new Set(found.flatMap((def) => Object.keys(def.shape ?? {})))];
}

/**
 * For each member `error` says `schema` does not know (its `unrecognized_keys` issues), the member it
 * most likely meant, by the issue path the SDK's wording gives it (`accounts[0].workspaces[0].workspaceName`).
 */
export function memberSuggestions(error: z.ZodError, schema: z.ZodType): Map<string, string> {
  const out = new Map<string, string>();
  let looked = 0;
  for (const issue of error.issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const known = [...new Set(objectsAt(schema, issue.path).flatMap((def) => Object.keys(def.shape ?? {})))];
    for (const key of issue.keys) {
      if (looked++ >= MAX_SUGGESTED) return out;
      const suggestion = suggestMember(key, known);
      if (suggestion !== undefined) out.set(formatIssuePath([...issue.path, key]), suggestion);
    }
  }
  return out;
}
