/**
 * What a webhook integration's configuration may hold, and how its URL is shown: control
 * characters are refused (in a header value they would end or split the header), a user name or
 * password in the URL is refused, and wherever the URL is shown or recorded its secret-looking
 * query parameters read `[redacted]`. The URL itself is sent exactly as entered (spec §5).
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
