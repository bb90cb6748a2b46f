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

/**
 * `text` cut to at most `max` characters, with `…` when it was cut: how an error answer shows what
 * came, small whatever its size.
 */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
