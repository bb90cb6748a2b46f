/**
 * The answer's JSON text, as the adapters write it: byte for byte what `JSON.stringify(body)` gives
 * (in UTF-8, {@link answerBytes}), with the text of each stored record written and encoded once and
 * reused.
 *
 * Stored records are frozen deeply and never changed in place: the domain stores a new version, a new
 * object (`store/template.ts`). So the JSON text of a record object cannot change, and
 * {@link answerBytes} keeps its UTF-8 bytes by the object ({@link RecordTexts}): a page of 25
 * workspaces is the envelope copied around 25 kept texts instead of a walk over every member and an
 * encoding of the whole. A changed record is a
 * new object (not yet frozen by anyone, so written each time); a projection (`projection`, a search's
 * field selection) is a new object made per request, written each time, its members' frozen values
 * kept like records. Credentials never reach this: what an answer may show is decided by the
 * operation that builds it (a redacted copy is a new object), and the text is the text of that.
 *
 * What is kept is bounded twice: by the records' lives (a `WeakMap` keyed by the record objects, so a
 * text goes with its record) and by size: past {@link ANSWER_TEXT_CACHE_BYTES} bytes kept, the
 * whole cache is dropped and begun again (so at most that many bytes, plus the map's entries,
 * whatever the data's size).
 *
 * @module
 */

/**
 * The most bytes of record texts kept at once (8 MiB: the texts of about 8,000 workspaces); past it
 * the cache starts again empty.
 */
export const ANSWER_TEXT_CACHE_BYTES = 8 * 1024 * 1024;

/**
 * How deep {@link answerBytes} walks containers made for the answer (not frozen) before handing a
 * value to `JSON.stringify` whole: an envelope, its list, a projected item, its members.
 */
const WALK_DEPTH = 4;

/**
 * The most values {@link answerBytes} writes itself, piece by piece, in one answer (20,000): past it
 * the answer is written by `JSON.stringify` whole. A body made of many small values (a kept body of
 * 300,000 empty objects, listed) would otherwise make a text of as many pieces, tens of megabytes of
 * heap per answer until it is encoded; a page of records is a few hundred.
 */
export const MAX_WRITTEN_VALUES = 20_000;

/** How deep a frozen value may nest to be kept (records are a few levels deep; deeper ones are written each time). */
const KEEP_DEPTH = 16;

/**
 * The JSON texts (UTF-8) of frozen values (records), by the object, bounded in bytes (see the
 * module's comment). One per process: records are shared by every mock and session made from the
 * same data.
 */
export class RecordTexts {
  #texts = new WeakMap<object, Uint8Array>();
  #bytes = 0;
  readonly #maxBytes: number;

  /** A cache keeping at most `maxBytes` bytes of text. */
  constructor(maxBytes = ANSWER_TEXT_CACHE_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** How many bytes it keeps now. */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * The text kept for `value`, if any: kept only for a value found frozen through and plain, which
   * can change neither its members nor its prototype since.
   */
  kept(value: object): Uint8Array | undefined {
    return this.#texts.get(value);
  }

  /**
   * The JSON text of `value`, a frozen plain object or array, in UTF-8: kept from before, or written
   * now and kept when `value` is frozen through (every object in it frozen, plain, with data members
   * only), so that it can never read otherwise.
   */
  textOf(value: object): Uint8Array {
    const kept = this.#texts.get(value);
    if (kept !== undefined) return kept;
    const text = encoder.encode(JSON.stringify(value));
    if (text.length <= this.#maxBytes && frozenThrough(value, 0)) {
      if (this.#bytes + text.length > this.#maxBytes) this.clear();
      this.#texts.set(value, text);
      this.#bytes += text.length;
    }
    return text;
  }

  /** Forgets every text. */
  clear(): void {
    this.#texts = new WeakMap();
    this.#bytes = 0;
  }
}

const encoder = new TextEncoder();

/** The process's record texts ({@link answerBytes} uses them). */
export const recordTexts = new RecordTexts();

/** Whether `value`'s prototype is a plain object's (or none) or an array's. */
function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return Array.isArray(value) ? proto === Array.prototype : proto === Object.prototype || proto === null;
}

/**
 * Whether `value` and everything in it is frozen plain data: frozen plain objects and arrays whose
 * members are data properties (no getters, no `toJSON`), down to primitives. Such a value's JSON text
 * never changes.
 */
function frozenThrough(value: object, depth: number): boolean {
  if (depth > KEEP_DEPTH || !Object.isFrozen(value) || !isPlain(value)) return false;
  const descriptors = Object.getOwnPropertyDescriptors(value);
  for (const key of Object.keys(descriptors)) {
    const descriptor = descriptors[key] as PropertyDescriptor;
    if (!('value' in descriptor) || key === 'toJSON') return false;
    const member: unknown = descriptor.value;
    if (typeof member === 'object' && member !== null && !frozenThrough(member, depth + 1)) return false;
  }
  return true;
}

/** What {@link write} answers for a container holding something it does not write itself. */
const WHOLE = Symbol('whole');

/** The answer's text as it is written: text made for it and kept texts, in order. */
type Parts = Array<string | Uint8Array>;

/**
 * `JSON.stringify(body)` in UTF-8, the same bytes, reusing the kept text of every frozen record in it
 * (see the module's comment). Containers made for the answer (the list, an envelope, a projected
 * item) are written here as `JSON.stringify` writes them: members in `Object.keys` order, members
 * whose value has no JSON (`undefined`, functions, symbols) left out of objects and `null` in arrays.
 * A body holding anything else (a `Date`, a class instance, a `toJSON` member, a bigint) is written by
 * `JSON.stringify` whole.
 * @param body the answer's body; `undefined` (no JSON) gives `undefined`, as `JSON.stringify` does.
 * @param texts the kept texts (the process's by default).
 * @param reuse whether the bytes may be written into a buffer the next such call writes over (up to
 *   {@link SCRATCH_BYTES}): for a caller that copies them at once, as a fetch `Response` does with a
 *   buffer it is given (the Fetch standard's "extract a body" copies the bytes). Or a function giving
 *   the buffer to write into, at least as long as asked (the standalone server's pool of answer
 *   buffers, `adapters/answer-buffers.ts`); it is asked only when the answer is made of several parts
 *   (a single kept text is answered as it is), and what it gives may hold anything: only the bytes
 *   returned are written.
 */
export function answerBytes(
  body: unknown,
  texts: RecordTexts = recordTexts,
  reuse: boolean | ((bytes: number) => Uint8Array) = false,
): Uint8Array | undefined {
  const parts: Parts = [];
  const written = write(body, texts, 0, parts, { left: MAX_WRITTEN_VALUES });
  if (written === WHOLE) {
    const text = JSON.stringify(body);
    return text === undefined ? undefined : encoder.encode(text);
  }
  if (!written) return undefined;
  if (parts.length === 1) {
    const [only] = parts as [string | Uint8Array];
    return typeof only === 'string' ? encoder.encode(only) : only;
  }
  let most = 0;
  for (const part of parts) most += typeof part === 'string' ? 3 * part.length : part.length;
  const out =
    typeof reuse === 'function'
      ? reuse(most)
      : reuse && most <= SCRATCH_BYTES
        ? scratchOf(most)
        : new Uint8Array(most);
  let at = 0;
  for (const part of parts) {
    if (typeof part !== 'string') {
      out.set(part, at);
      at += part.length;
    } else if (part.length > SHORT_TEXT || !writeAscii(part, out, at)) {
      at += encoder.encodeInto(part, out.subarray(at)).written;
    } else at += part.length;
  }
  return out.subarray(0, at);
}

/** The largest buffer {@link answerBytes} reuses (1 MiB); a larger answer gets its own. */
export const SCRATCH_BYTES = 1024 * 1024;

let scratch = new Uint8Array(0);

/** The reused buffer, at least `bytes` long (grown by doubling, up to {@link SCRATCH_BYTES}). */
function scratchOf(bytes: number): Uint8Array {
  if (scratch.length < bytes)
    scratch = new Uint8Array(Math.min(SCRATCH_BYTES, Math.max(bytes, 2 * scratch.length)));
  return scratch;
}

/** Text up to this length (the commas and brackets between records) is copied by {@link writeAscii}. */
const SHORT_TEXT = 32;

/** Copies ASCII `text` into `out` at `at` (false, nothing meant, when it is not ASCII). */
function writeAscii(text: string, out: Uint8Array, at: number): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code > 0x7f) return false;
    out[at + i] = code;
  }
  return true;
}

/**
 * Writes `value`'s JSON text into `parts`: true when it wrote it, false when `value` has no JSON
 * (`undefined`, a function, a symbol: nothing written), {@link WHOLE} when the body must be written by
 * `JSON.stringify` whole.
 */
function write(
  value: unknown,
  texts: RecordTexts,
  depth: number,
  parts: Parts,
  count: { left: number },
): boolean | typeof WHOLE {
  // Past the most values written piece by piece, the whole body goes to JSON.stringify.
  if (--count.left < 0) return WHOLE;
  if (typeof value !== 'object' || value === null) {
    if (typeof value === 'bigint') return WHOLE; // JSON.stringify throws, as it should.
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return false;
    add(parts, text);
    return true;
  }
  // A record whose text is kept was checked (frozen through, plain) when it was kept: only a `toJSON`
  // inherited since (a polluted prototype) can change its JSON now.
  const kept = texts.kept(value);
  if (kept !== undefined && !('toJSON' in value)) {
    parts.push(kept);
    return true;
  }
  if (!isPlain(value) || 'toJSON' in value) return WHOLE;
  if (Object.isFrozen(value)) {
    parts.push(texts.textOf(value));
    return true;
  }
  // Deeper, a plain value is written whole (its members by their own keys, as nested).
  if (depth >= WALK_DEPTH) {
    add(parts, JSON.stringify(value));
    return true;
  }
  if (Array.isArray(value)) {
    add(parts, '[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) add(parts, ',');
      const written = write(value[i], texts, depth + 1, parts, count);
      if (written === WHOLE) return WHOLE;
      if (!written) add(parts, 'null');
    }
    add(parts, ']');
    return true;
  }
  add(parts, '{');
  let first = true;
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (hasNoJson(member)) continue;
    add(parts, `${first ? '' : ','}${JSON.stringify(key)}:`);
    if (write(member, texts, depth + 1, parts, count) === WHOLE) return WHOLE;
    first = false;
  }
  add(parts, '}');
  return true;
}

/** Whether `JSON.stringify` leaves a member with this value out of an object. */
function hasNoJson(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Appends text to `parts`, joined to the text before it. */
function add(parts: Parts, text: string): void {
  const last = parts.length - 1;
  if (last >= 0 && typeof parts[last] === 'string') parts[last] = `${parts[last]}${text}`;
  else parts.push(text);
}
