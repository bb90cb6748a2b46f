/**
 * What is never written down: the one home of the redaction rules of the SDK, the mock server and
 * the webhook receiver. One predicate, {@link isSecretName}, tells a credential's name (a header, a
 * JSON member at any depth, a query parameter) by the words it is made of; one walker,
 * {@link redactBody}, applies it to a JSON value.
 *
 * @module
 */

/** The stand-in for a redacted value. */
export const REDACTED = '[redacted]';

/** The stand-in for a part of a value nested deeper than {@link redactBody} walks. */
export const REDACTED_TOO_DEEP = '[too deep]';

/** How many levels of nested objects and arrays {@link redactBody} keeps by default (deeper ones read `[too deep]`). */
export const REDACT_MAX_DEPTH = 64;

/** Header names (lower case) whose values are credentials; {@link isSecretName} is true for each. */
export const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
] as const;

/** Member names of JSON bodies whose values are credentials; {@link isSecretName} is true for each. */
export const SECRET_MEMBERS = [
  'accessKey',
  'secretKey',
  'password',
  'token',
  'accessToken',
  'authorization',
  'secret',
  'credentials',
] as const;

/**
 * Query parameters that carry a credential in the URLs of well-known services, by their real names
 * (matched as a whole name, in any case; {@link isSecretParameter} is true for each): `sig` (Azure
 * SAS, Logic Apps), `code` (Azure Functions keys), `hmac` (Shopify), `signature` and `AWSAccessKeyId`
 * (S3 and GCS signed URLs, version 2), `X-Amz-Signature`, `X-Amz-Credential` and
 * `X-Amz-Security-Token` (AWS Signature Version 4), `X-Goog-Signature` and `X-Goog-Credential` (GCS
 * signed URLs, version 4). `sig`, `code` and `hmac` count only as a parameter's whole name
 * (`statusCode` is not one); the others count by the word rules of {@link isSecretParameter} anyway.
 */
export const SECRET_PARAMETERS = [
  'sig',
  'code',
  'hmac',
  'signature',
  'AWSAccessKeyId',
  'X-Amz-Signature',
  'X-Amz-Credential',
  'X-Amz-Security-Token',
  'X-Goog-Signature',
  'X-Goog-Credential',
] as const;

/** {@link SECRET_PARAMETERS} in lower case. */
const SECRET_PARAMETER_NAMES: ReadonlySet<string> = /* @__PURE__ */ (() =>
  new Set(SECRET_PARAMETERS.map((name) => name.toLowerCase())))();

/**
 * The words that make a name a credential's, as {@link isSecretName} reads them: `token` and `key`
 * as the last word of a name, the others anywhere in it.
 */
export const SECRET_NAME_WORDS = [
  'token',
  'secret',
  'password',
  'key',
  'credential',
  'authorization',
  'cookie',
  'session',
  'auth',
  'signature',
] as const;

/** Found inside any word of a name: `clientSecret`, `x-hub-signature`, `passwordHash`, `set-cookie`. */
const CONTAINED_WORDS = [
  'secret',
  'password',
  'passwd',
  'passphrase',
  'credential',
  'authorization',
  'authorisation',
  'cookie',
  'signature',
] as const;

/** Words that are a credential's only as a whole word (`author`, `authenticate` are not). */
const WHOLE_WORDS: ReadonlySet<string> = new Set(['auth', 'session', 'jwt']);

/** The words before `token` of a paging cursor, which is not a credential (`continuationToken`). */
const PAGING_WORDS: ReadonlySet<string> = new Set(['continuation', 'next', 'page', 'pagination', 'cursor']);

/** The words before `key` of a key that is not a credential (`sortKey`, `Idempotency-Key`, `publicKey`). */
const PLAIN_KEY_WORDS: ReadonlySet<string> = new Set([
  'sort',
  'idempotency',
  'partition',
  'primary',
  'foreign',
  'cache',
  'group',
  'lookup',
  'public',
  'unique',
  'dedup',
  'routing',
  'index',
]);

/** How a glued word ending in `key` starts when it names a credential (`apikey`, `accesskey`). */
const GLUED_KEY_PREFIXES = [
  'api',
  'access',
  'secret',
  'private',
  'client',
  'signing',
  'auth',
  'session',
  'master',
  'ssh',
  'encryption',
  'license',
] as const;

/**
 * The words of a name, lower case: split at any character other than an ASCII letter or digit
 * (`-`, `_`, `.`, space) and where camel case starts a word (`xApiKey` and `XAPIKey` are
 * `x`, `api`, `key`). Linear in the name's length.
 */
function wordsOf(name: string): string[] {
  const words: string[] = [];
  let current = '';
  for (let i = 0; i < name.length; i++) {
    const here = charKind(name.charCodeAt(i));
    if (here === 'other') {
      if (current !== '') words.push(current);
      current = '';
      continue;
    }
    if (here === 'upper' && current !== '') {
      const before = charKind(name.charCodeAt(i - 1));
      const after = i + 1 < name.length ? charKind(name.charCodeAt(i + 1)) : 'other';
      if (before === 'lower' || (before === 'upper' && after === 'lower')) {
        words.push(current);
        current = '';
      }
    }
    current += name[i]?.toLowerCase() ?? '';
  }
  if (current !== '') words.push(current);
  return words;
}

/** An ASCII capital, another letter or a digit (any non-ASCII character counts as one), or a separator. */
function charKind(code: number): 'upper' | 'lower' | 'other' {
  if (code >= 65 && code <= 90) return 'upper';
  if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code >= 128) return 'lower';
  return 'other';
}

/** A word without its plural `s` (`keys` -> `key`, `credentials` -> `credential`). */
function singular(word: string): string {
  return word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word;
}

/**
 * Whether a name (a header, a JSON member at any depth, a query parameter) is a credential's. The
 * name is read as words ({@link SECRET_NAME_WORDS}; split at `-`, `_`, `.` and camel case, in any
 * case, a plural `s` ignored). It is a credential's when:
 * - a word contains `secret`, `password`, `passwd`, `passphrase`, `credential`, `authorization`
 *   (or `authorisation`), `cookie` or `signature`, or is `auth`, `session` or `jwt`
 *   (`clientSecret`, `X-Auth-Token`, `set-cookie`, `sessionId`; not `author` or `WWW-Authenticate`);
 * - its last word is `token`, unless the word before is `continuation`, `next`, `page`,
 *   `pagination` or `cursor`: a paging cursor is not a credential (`refreshToken`, `access_token`
 *   and `token` are; `continuationToken` and `tokenType` are not);
 * - its last word is `key` after another word that is not `sort`, `idempotency`, `partition`,
 *   `primary`, `foreign`, `cache`, `group`, `lookup`, `public`, `unique`, `dedup`, `routing` or
 *   `index` (`apiKey`, `Api-Key`, `accessKey`, `secretKey` are; `key` alone, the field of an event
 *   filter or attribute, is not, nor `keyName`, `keyword`, `sortKey`, `Idempotency-Key`);
 * - it is glued in one word: a word ending in `token` after anything but a paging word
 *   (`accesstoken`), or a word ending in `key` after `api`, `access`, `secret`, `private`,
 *   `client`, `signing`, `auth`, `session`, `master`, `ssh`, `encryption` or `license` (`apikey`,
 *   `xapikey`; not `monkey`).
 *
 * Every name of {@link SECRET_HEADERS} and {@link SECRET_MEMBERS} is a credential's.
 */
export function isSecretName(name: string): boolean {
  const words = wordsOf(name).map(singular);
  for (const word of words) {
    if (WHOLE_WORDS.has(word)) return true;
    for (const contained of CONTAINED_WORDS) if (word.includes(contained)) return true;
  }
  const last = words[words.length - 1];
  if (last === undefined) return false;
  const before = words[words.length - 2];
  if (last === 'token') return before === undefined || !PAGING_WORDS.has(before);
  if (last === 'key') return before !== undefined && !PLAIN_KEY_WORDS.has(before);
  if (last.length > 5 && last.endsWith('token')) return !PAGING_WORDS.has(last.slice(0, -5));
  if (last.length > 3 && last.endsWith('key')) return isGluedKey(last);
  return false;
}

/**
 * Whether a query parameter's value is a credential: {@link isSecretName}; a name of
 * {@link SECRET_PARAMETERS} in any case (`?sig=`, `?code=`, `?X-Amz-Signature=`); and any name with
 * a word `key` or `token` (or a glued word ending in one): a URL is logged, bookmarked and shared,
 * `?key=` is how many APIs take an API key, and a paging cursor in a URL is masked too
 * (`?key=`, `?KEY=`, `?sortKey=`, `?continuationToken=`, `?my_token=`; not `?keyword=` or `?page=`).
 */
export function isSecretParameter(name: string): boolean {
  if (SECRET_PARAMETER_NAMES.has(name.toLowerCase()) || isSecretName(name)) return true;
  return wordsOf(name).some((word) => {
    const one = singular(word);
    return (
      one === 'key' || one.endsWith('token') || (one.length > 3 && one.endsWith('key') && isGluedKey(one))
    );
  });
}

/** Whether a glued word ending in `key` names a credential's key (`apikey`, `xapikey`; not `monkey`). */
function isGluedKey(word: string): boolean {
  const prefix = word.slice(0, -3);
  return GLUED_KEY_PREFIXES.some((p) => prefix.endsWith(p));
}

/** Whether a header's value is a credential: {@link isSecretName} (the one rule for every name). */
export const isSecretHeader: (name: string) => boolean = isSecretName;

/** Whether a JSON member's value is a credential: {@link isSecretName} (the one rule for every name). */
export const isSecretMember: (name: string) => boolean = isSecretName;

/** Whether a name looks like a credential's: {@link isSecretName} (the one rule for every name). */
export const looksLikeSecretName: (name: string) => boolean = isSecretName;

/** Copies headers, replacing the values of secret headers ({@link isSecretName}) with `[redacted]`. */
export function redactHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    define(out, name, isSecretName(name) ? REDACTED : value);
  }
  return out;
}

/** Options of {@link redactBody}. */
export interface RedactOptions {
  /** Levels of nested objects and arrays kept (the value itself is level 1); deeper ones read `[too deep]`. Default {@link REDACT_MAX_DEPTH}. */
  maxDepth?: number;
}

/** A container being walked: its members are visited in order; `copy` is made at its first change. */
interface Frame {
  readonly source: Record<string, unknown> | unknown[];
  readonly keys: string[] | undefined;
  readonly depth: number;
  index: number;
  copy: Record<string, unknown> | unknown[] | undefined;
}

const CIRCULAR = '[circular]';

/**
 * A JSON value with the values of credential members ({@link isSecretName}), at any depth, replaced
 * by `[redacted]` (booleans and `null` are kept: a flag like `replaceCredentials` is no secret).
 * Objects and arrays nested deeper than `maxDepth` read `[too deep]`, and one met again inside itself
 * reads `[circular]`. Iterative (no recursion, whatever the depth) and copy-on-write: only the
 * objects and arrays on the way to a replaced value are copied; the rest is shared with `value`
 * (which is never changed), and `value` itself comes back when nothing was replaced.
 */
export function redactBody(value: unknown, options: RedactOptions = {}): unknown {
  if (value === null || typeof value !== 'object') return value;
  const maxDepth = options.maxDepth ?? REDACT_MAX_DEPTH;
  if (maxDepth < 1) return REDACTED_TOO_DEEP;
  const names = new Map<string, boolean>();
  const secret = (name: string) => {
    let known = names.get(name);
    if (known === undefined) {
      known = isSecretName(name);
      names.set(name, known);
    }
    return known;
  };
  /** Results of containers already walked (a value shared by two members is walked once); `CIRCULAR` while in progress. */
  const done = new Map<object, unknown>();
  const open = (source: object, depth: number): Frame => {
    done.set(source, CIRCULAR);
    const array = Array.isArray(source);
    return {
      source: source as Frame['source'],
      keys: array ? undefined : Object.keys(source),
      depth,
      index: 0,
      copy: undefined,
    };
  };
  const stack: Frame[] = [open(value, 1)];
  let result: unknown = value;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    const length = frame.keys ? frame.keys.length : (frame.source as unknown[]).length;
    if (frame.index >= length) {
      stack.pop();
      const out = frame.copy ?? frame.source;
      done.set(frame.source, out);
      const parent = stack[stack.length - 1];
      if (parent) settle(parent, out);
      else result = out;
      continue;
    }
    const key = frame.keys ? (frame.keys[frame.index] as string) : undefined;
    const member =
      key === undefined
        ? (frame.source as unknown[])[frame.index]
        : (frame.source as Record<string, unknown>)[key];
    if (key !== undefined && secret(key) && member !== null && typeof member !== 'boolean') {
      settle(frame, member === undefined ? member : REDACTED);
    } else if (member === null || typeof member !== 'object') {
      settle(frame, member);
    } else if (done.has(member)) {
      settle(frame, done.get(member));
    } else if (frame.depth >= maxDepth) {
      settle(frame, REDACTED_TOO_DEEP);
    } else {
      stack.push(open(member, frame.depth + 1));
    }
  }
  return result;
}

/** Records the walked value of a frame's current member and moves to the next; copies the frame's container at its first change. */
function settle(frame: Frame, out: unknown): void {
  const i = frame.index;
  frame.index += 1;
  if (frame.keys === undefined) {
    const source = frame.source as unknown[];
    if (frame.copy === undefined) {
      if (out === source[i]) return;
      frame.copy = source.slice(0, i);
    }
    (frame.copy as unknown[]).push(out);
    return;
  }
  const key = frame.keys[i] as string;
  const source = frame.source as Record<string, unknown>;
  if (frame.copy === undefined) {
    if (out === source[key]) return;
    const copy: Record<string, unknown> = {};
    for (let k = 0; k < i; k++) {
      const name = frame.keys[k] as string;
      define(copy, name, source[name]);
    }
    frame.copy = copy;
  }
  define(frame.copy as Record<string, unknown>, key, out);
}

/** Sets an own member, `__proto__` included (as an own member, never the prototype). */
function define(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') {
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[name] = value;
  }
}
