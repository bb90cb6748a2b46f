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

/**
 * Defines member `name` of `target` as computed by `read` each time it is read (enumerable, so JSON
 * writes it; set like any member, which then holds the value set): a listing that parses a kept
 * text only when, and each time, a caller reads it.
 */
export function lazyMember<T extends object>(target: T, name: keyof T & string, read: () => unknown): void {
  Object.defineProperty(target, name, {
    enumerable: true,
    configurable: true,
    get: read,
    set: (value: unknown) => {
      Object.defineProperty(target, name, { value, enumerable: true, configurable: true, writable: true });
    },
  });
}
