/** Small helpers over plain values, shared by the pipeline and the control plane. */

type Defined<T> = { [K in keyof T]: Exclude<T[K], undefined> };

/** A copy of an object without its `undefined` members. */
export function stripUndefined<T extends object>(value: T): Defined<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Defined<T>;
}

/** Waits `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
