/**
 * The one query engine behind every search: filters (any-of within a member, AND across members,
 * `$or` across its members; an empty list or an empty `$or` adds no constraint) and `projection`.
 * Free text lives in `text.ts`, version order in `versions.ts`, date comparison in `dates.ts`, the IaC
 * explorer's shared filters in `explorer-filters.ts`.
 */

/** How each filter member matches a record: given the filter's value, does the record match? */
export type FilterSpec<T> = Readonly<Record<string, (record: T, value: never) => boolean>>;

/** Matches a record value (or list of values) against the any-of list of a filter member. */
export function anyOf(
  actual: string | readonly string[] | undefined | null,
  wanted: readonly string[],
): boolean {
  if (actual === undefined || actual === null) return false;
  if (typeof actual === 'string') return wanted.includes(actual);
  return actual.some((value) => wanted.includes(value));
}

/**
 * Whether a filter value adds no constraint: absent, or an empty list. The product's own console
 * sends every filter member, often as `[]`, meaning "not filtered on this"; so on every endpoint an
 * empty list is read as if the member were absent (never "match nothing", never a 400).
 */
export function addsNoConstraint(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.length === 0);
}

type Filters = Record<string, unknown> & { $or?: Record<string, unknown> | undefined };

/**
 * Builds the predicate of a `filters` object: every member other than `$or` must match, and when
 * `$or` has members, at least one of them must match. Members that add no constraint (absent, or an
 * empty list: {@link addsNoConstraint}) are left out first, in `$or` too, so an `$or` whose members
 * are all empty is an empty `$or`, which adds no constraint. Returns undefined when nothing filters.
 */
export function filterPredicate<T>(
  spec: FilterSpec<T>,
  filters: Filters | undefined,
): ((record: T) => boolean) | undefined {
  if (!filters) return undefined;
  const tests: Array<(record: T) => boolean> = [];
  const orTests: Array<(record: T) => boolean> = [];
  const build = (member: string, value: unknown) => {
    const match = spec[member];
    if (!match) throw new Error(`no filter spec for ${member}`);
    return (record: T) => match(record, value as never);
  };
  for (const [member, value] of Object.entries(filters)) {
    if (member === '$or' || addsNoConstraint(value)) continue;
    tests.push(build(member, value));
  }
  for (const [member, value] of Object.entries(filters.$or ?? {})) {
    if (!addsNoConstraint(value)) orTests.push(build(member, value));
  }
  if (tests.length === 0 && orTests.length === 0) return undefined;
  return (record) =>
    tests.every((t) => t(record)) && (orTests.length === 0 || orTests.some((t) => t(record)));
}

/** Combines predicates with AND, skipping absent ones. */
export function allOf<T>(
  ...predicates: Array<((record: T) => boolean) | undefined>
): ((record: T) => boolean) | undefined {
  const present = predicates.filter((p): p is (record: T) => boolean => p !== undefined);
  if (present.length === 0) return undefined;
  if (present.length === 1) return present[0];
  return (record) => present.every((p) => p(record));
}

/** Keeps only the named members of a record, plus `id`. Without a projection the record is returned whole. */
export function project<T extends { id: string }>(
  record: T,
  projection: readonly string[] | undefined,
): Pick<T, 'id'> & Partial<T> {
  if (!projection || projection.length === 0) return record;
  const out: Record<string, unknown> = { id: record.id };
  for (const field of projection) {
    if (field in record) out[field] = (record as Record<string, unknown>)[field];
  }
  return out as Pick<T, 'id'> & Partial<T>;
}

/** Sorts a small list by several keys then id, and returns one page: for collections without an index. */
export function pageOf<T>(records: T[], compare: (a: T, b: T) => number, offset: number, limit: number): T[] {
  return records.sort(compare).slice(offset, offset + limit);
}
