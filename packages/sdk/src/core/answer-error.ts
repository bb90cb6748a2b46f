/**
 * What the client needs to read an error answer (a status other than 2xx), imported by the
 * transport on the first such answer: the error class of each status (the contract's API error
 * table, `contract/error-table.ts`), the answer's headers and its body. A call answered
 * successfully never loads it (P6, the first call's bundle); the error classes themselves stay in
 * `errors.ts`, which the package's entry exports (this module imports none of them, so that a
 * bundler keeps them in the entry's chunk).
 *
 * @module
 */
import { type ApiErrorClassName, errorClassOfStatus } from '../contract/error-table.js';
import type { ErrorClasses } from './errors.js';

/**
 * The error class for a status, as the API error table (`API_ERRORS` in the contract) names it,
 * taken from `classes` (the SDK's {@link ErrorClasses}, passed in so that this module does not
 * import the classes: they stay in the entry's chunk).
 */
export function errorClassFor(status: number, classes: ErrorClasses): ErrorClasses[ApiErrorClassName] {
  return classes[errorClassOfStatus(status)];
}

/** An answer's headers as a plain object, names lower-cased. */
export function headersOf(response: Response): Record<string, string> {
  const out: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    out[name.toLowerCase()] = value;
  });
  return out;
}

/** An error answer's body: its JSON, else its text (at most 500 characters), else undefined. */
export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text.length > 500 ? `${text.slice(0, 500)}…` : text;
  }
}
