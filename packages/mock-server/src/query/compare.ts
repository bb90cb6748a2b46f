/** A value a record can be sorted by. `undefined` (a missing value) always sorts last. */
export type SortValue = string | number | boolean | undefined | null;

/** Compares two sort values in the given direction; missing values go last in both directions. */
export function compareValues(a: SortValue, b: SortValue, order: 1 | -1): number {
  const aMissing = a === undefined || a === null;
  const bMissing = b === undefined || b === null;
  if (aMissing || bMissing) return aMissing === bMissing ? 0 : aMissing ? 1 : -1;
  if (a === b) return 0;
  if (typeof a === 'string' && typeof b === 'string') return (a < b ? -1 : 1) * order;
  return ((a as number) < (b as number) ? -1 : 1) * order;
}

/** Compares record ids, ascending: the tie-breaker that keeps every order total. */
export function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A sort key: how to read the value, and the direction. */
export interface SortKey<T> {
  /** Reads the value to sort by. */
  get: (record: T) => SortValue;
  /** 1 ascending, -1 descending. */
  order: 1 | -1;
}

/** Builds a comparator over several keys, then the id ascending. */
export function comparator<T extends { id: string }>(
  keys: ReadonlyArray<SortKey<T>>,
): (a: T, b: T) => number {
  return (a, b) => {
    for (const key of keys) {
      const c = compareValues(key.get(a), key.get(b), key.order);
      if (c !== 0) return c;
    }
    return compareIds(a.id, b.id);
  };
}
