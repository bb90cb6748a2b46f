/**
 * What a webhook integration's configuration may hold, and how its URL is shown: control
 * characters are refused (in a header value they would end or split the header), a user name or
 * password in the URL is refused, and wherever the URL is shown or recorded its secret-looking
 * query parameters read `[redacted]`. The URL itself is sent exactly as entered (spec §5). The same
 * redaction applies to every http(s) URL string of a body the journal writes down ({@link redactUrls}).
 *
 * @module
 */
import { isSecretParameter, REDACTED } from '@iacm/sdk/contract';

/** Whether a string holds a control character: C0 (NUL to US: CR, LF, tab...), DEL, or C1. */
export function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

/** What is wrong with a webhook URL: a sentence, what was expected and a description of what came (never the URL's secrets). */
export interface WebhookUrlProblem {
  /** What is wrong, for the message. */
  message: string;
  /** What was expected. */
  expected: string;
  /** What came, described without its secrets. */
  received: string;
}

/**
 * What is wrong with a webhook URL, or `undefined` when it is an absolute http(s) URL without a user
 * name, a password or control characters. The description of what came never holds the URL's user
 * name, password or secret-looking query parameters.
 */
export function webhookUrlProblem(raw: string): WebhookUrlProblem | undefined {
  const expected = 'an absolute http(s) URL without a user name, password or control characters';
  if (hasControlCharacter(raw)) {
    return {
      message: 'must not contain control characters (CR, LF, tab, NUL...)',
      expected,
      received: `a string of ${raw.length} characters with a control character`,
    };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return {
      message: 'expected an absolute http(s) URL',
      expected,
      received: `a string of ${raw.length} characters that is not an absolute URL`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      message: 'expected an absolute http(s) URL',
      expected,
      received: `a URL with the scheme "${url.protocol.slice(0, 20)}"`,
    };
  }
  if (url.username !== '' || url.password !== '') {
    return {
      message:
        'a user name or password in the URL is not accepted (the URL is shown and recorded, and fetch does not send them): give them as credentials.basic',
      expected,
      received: `a URL with a user name or password (${redactUrl(raw)})`,
    };
  }
  return undefined;
}

/** One `name=value` part of a query or fragment. */
interface Parameter {
  /** The part as written. */
  part: string;
  /** The name as written. */
  rawName: string;
  /** The value as written; `undefined` when the part has no `=`. */
  rawValue: string | undefined;
  /** Whether the name, percent-decoded (as written when that fails), is a credential's ({@link isSecretParameter}). */
  secret: boolean;
}

/** The `&`-separated parts of a query or fragment (without its `?` or `#`). */
function parametersOf(text: string): Parameter[] {
  return text.split('&').map((part) => {
    const equals = part.indexOf('=');
    const rawName = equals === -1 ? part : part.slice(0, equals);
    let name = rawName;
    try {
      name = decodeURIComponent(rawName.replaceAll('+', ' '));
    } catch {
      // Not valid percent-encoding: judge the name as written.
    }
    const rawValue = equals === -1 ? undefined : part.slice(equals + 1);
    return { part, rawName, rawValue, secret: isSecretParameter(name) };
  });
}

/** `name=value&...` with the values of secret-looking names ({@link isSecretParameter}) replaced. */
function redactParameters(parameters: string): string {
  return parametersOf(parameters)
    .map(({ part, rawName, rawValue, secret }) =>
      rawValue !== undefined && secret ? `${rawName}=${REDACTED}` : part,
    )
    .join('&');
}

/**
 * A URL as the mock shows and records it: a user name and password replaced by `[redacted]`, and the
 * values of secret-looking query parameters, in the query and in a fragment, replaced by `[redacted]`:
 * the contract's `isSecretParameter` decides, by the services' real names in any case (`?token=`,
 * `?api_key=`, `?sig=` of Azure SAS and Logic Apps, `?code=` of Azure Functions, `?X-Amz-Signature=`,
 * `?X-Goog-Credential=`...; the list is `SECRET_PARAMETERS`). A string that is not a URL reads
 * `[redacted]` as a whole. For display only: the mock sends the URL as entered. The one home of how a
 * webhook URL is shown: the integration listings, delivery errors and the journal all call it.
 */
export function redactUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return REDACTED;
  }
  const userinfo = url.username !== '' || url.password !== '' ? `${REDACTED}@` : '';
  const query = url.search.length > 1 ? `?${redactParameters(url.search.slice(1))}` : url.search;
  const fragment = url.hash.length > 1 ? `#${redactParameters(url.hash.slice(1))}` : url.hash;
  return `${url.protocol}//${userinfo}${url.host}${url.pathname}${query}${fragment}`;
}

/**
 * `text` (an error message about a delivery) with the URL and the values of its secret-looking
 * query and fragment parameters replaced: the raw URL by its redacted form ({@link redactUrl}), then
 * each secret value that is still there (as written, and percent-decoded) by `[redacted]`.
 */
export function scrubUrl(text: string, raw: string): string {
  let out = text.split(raw).join(redactUrl(raw));
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return out;
  }
  const secrets = [url.username, url.password];
  for (const parameters of [url.search.slice(1), url.hash.slice(1)]) {
    for (const { rawValue, secret } of parametersOf(parameters)) {
      if (!secret || rawValue === undefined) continue;
      secrets.push(rawValue);
      try {
        secrets.push(decodeURIComponent(rawValue.replaceAll('+', ' ')));
      } catch {
        // Not valid percent-encoding: the value as written is enough.
      }
    }
  }
  for (const secret of secrets) if (secret.length >= 3) out = out.split(secret).join(REDACTED);
  return out;
}

/**
 * Whether a string starts as the WHATWG URL parser reads an http(s) URL: after leading spaces and
 * C0 controls (which the parser strips), with tabs, CRs and LFs anywhere ignored (which it removes),
 * the scheme `http` or `https` in any case, then `:` (`HTTPS://`, `https:\\`, `https:host` are all
 * URLs to it). Reads only the leading blanks and the next few characters.
 */
function startsAsHttpUrl(text: string): boolean {
  let i = 0;
  while (i < text.length && text.charCodeAt(i) <= 0x20) i++;
  let scheme = '';
  for (; i < text.length && scheme.length <= 5; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x09 || code === 0x0a || code === 0x0d) continue;
    if (code === 0x3a) return scheme === 'http' || scheme === 'https';
    scheme += String.fromCharCode(code | 0x20);
  }
  return false;
}

/** Whether a text has a place a URL keeps secrets in: user info (`@`), a query (`?`), a fragment (`#`). */
function hasUrlSecretPlace(text: string): boolean {
  return text.includes('@') || text.includes('?') || text.includes('#');
}

/** A container {@link redactUrls} is walking: its members in order, `copy` made at its first change. */
interface UrlFrame {
  readonly source: Record<string, unknown> | unknown[];
  readonly keys: string[] | undefined;
  index: number;
  copy: Record<string, unknown> | unknown[] | undefined;
}

/** What {@link redactUrls} puts for a container met again inside itself (as the contract's `redactBody` does). */
const CIRCULAR = '[circular]';

/**
 * A JSON value with every string that is an absolute http(s) URL, at any depth (object members and
 * array items alike), shown as {@link redactUrl} shows it: its user name and password, and the values
 * of its secret-looking query and fragment parameters, read `[redacted]`; a string that starts as an
 * http(s) URL (`https:`, in any case, after blanks) but does not parse reads `[redacted]` as a whole
 * when it has a place a URL keeps secrets in (`@`, `?` or `#`), and is kept otherwise (`HTTPS: required`).
 * A URL with nothing to redact is kept as written (not normalised), and any other string is kept:
 * text that merely mentions a URL is not a URL.
 *
 * The answer is `{ value }`, the value shown. Bounded: the URL parser is given at most `budget`
 * characters in all (the strings that start as an http(s) URL, each counted in full); past that the
 * answer is `undefined` and nothing more is parsed
 * (the journal passes its body limit: such a body is more than it keeps). Every other string costs
 * a look at its leading blanks and first characters. Iterative (no recursion, whatever the depth),
 * each container walked once however often it is shared, and copy-on-write: only the objects and
 * arrays on the way to a changed string are copied, `value` is never changed, and comes back itself
 * when nothing changed. A container met again inside itself reads `[circular]`.
 */
export function redactUrls(value: unknown, budget: number): { value: unknown } | undefined {
  let left = budget;
  let over = false;
  /** A string as shown, or `undefined` past the budget. */
  const shown = (text: string): string | undefined => {
    if (!startsAsHttpUrl(text)) return text;
    if (text.length > left) {
      over = true;
      return undefined;
    }
    left -= text.length;
    const redacted = redactUrl(text);
    // One that does not parse is text (`HTTPS: required`) unless it has where a URL keeps secrets.
    if (redacted === REDACTED) return hasUrlSecretPlace(text) ? REDACTED : text;
    return redacted.includes(REDACTED) ? redacted : text;
  };
  if (typeof value === 'string') {
    const out = shown(value);
    return over ? undefined : { value: out };
  }
  if (value === null || typeof value !== 'object') return { value };
  /** Containers walked (their result), and `CIRCULAR` while being walked. */
  const done = new Map<object, unknown>();
  const open = (source: object): UrlFrame => {
    done.set(source, CIRCULAR);
    const array = Array.isArray(source);
    return {
      source: source as UrlFrame['source'],
      keys: array ? undefined : Object.keys(source),
      index: 0,
      copy: undefined,
    };
  };
  const stack: UrlFrame[] = [open(value)];
  let result: unknown = value;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as UrlFrame;
    const length = frame.keys ? frame.keys.length : (frame.source as unknown[]).length;
    if (frame.index >= length) {
      stack.pop();
      const out = frame.copy ?? frame.source;
      done.set(frame.source, out);
      const parent = stack[stack.length - 1];
      if (parent) settleUrl(parent, out);
      else result = out;
      continue;
    }
    const key = frame.keys ? (frame.keys[frame.index] as string) : undefined;
    const member =
      key === undefined
        ? (frame.source as unknown[])[frame.index]
        : (frame.source as Record<string, unknown>)[key];
    if (typeof member === 'string') {
      const out = shown(member);
      if (over) return undefined;
      settleUrl(frame, out);
    } else if (member === null || typeof member !== 'object') {
      settleUrl(frame, member);
    } else if (done.has(member)) {
      settleUrl(frame, done.get(member));
    } else {
      stack.push(open(member));
    }
  }
  return { value: result };
}

/** Records the walked value of a frame's current member and moves on; copies the container at its first change. */
function settleUrl(frame: UrlFrame, out: unknown): void {
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
    for (let k = 0; k < i; k++) defineMember(copy, frame.keys[k] as string, source[frame.keys[k] as string]);
    frame.copy = copy;
  }
  defineMember(frame.copy as Record<string, unknown>, key, out);
}

/** Sets an own member, `__proto__` included (as an own member, never the prototype). */
function defineMember(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') {
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[name] = value;
  }
}
