/**
 * The host stage (standalone server): a request whose `Host` names something other than this server
 * is refused with 403 before anything else, so that a web page cannot reach the mock through DNS
 * rebinding (a name the attacker controls, pointed at 127.0.0.1). The names a server answers to are
 * the bound address, `localhost`, `127.0.0.1`, `[::1]`, every address of the machine when bound to
 * all of them (`0.0.0.0`, `::`), and the `allowedHosts` given (the CLI's `--allowed-host`). A request
 * without a `Host` (HTTP/1.0) is let through: a browser always sends one.
 *
 * @module
 */

import { readHeader } from '@iacm/sdk/contract';
import { HttpError } from '../errors.js';
import type { MockRequest } from '../http/message.js';
import { clip } from '../http/objects.js';

/** Whether `host` is a loopback name or address (`localhost`, `127.0.0.0/8`, `::1`). */
export function isLoopbackHost(host: string): boolean {
  const h = bareHost(host);
  if (h === 'localhost' || h === '::1') return true;
  const parts = h.split('.');
  return (
    parts.length === 4 &&
    parts[0] === '127' &&
    parts.every(
      (p) => p.length > 0 && p.length <= 3 && [...p].every((c) => c >= '0' && c <= '9') && Number(p) <= 255,
    )
  );
}

/** Names every server answers to. */
const ALWAYS_ALLOWED = ['localhost', '127.0.0.1', '::1'];

/** The host names of a server bound to `bound`, lower-case, IPv6 without brackets. */
export function allowedHostNames(
  bound: string,
  allowedHosts: readonly string[] = [],
  interfaceAddresses: readonly string[] = [],
): ReadonlySet<string> {
  const names = new Set<string>(ALWAYS_ALLOWED);
  names.add(bareHost(bound));
  if (bound === '0.0.0.0' || bound === '::' || bound === '[::]') {
    for (const address of interfaceAddresses) names.add(bareHost(address));
  }
  for (const host of allowedHosts) names.add(bareHost(host));
  return names;
}

/** A host name without brackets, lower-case. */
function bareHost(host: string): string {
  const lower = host.trim().toLowerCase();
  return lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
}

/** The name part of a `Host` header (no port; IPv6 without brackets), lower-case. */
export function hostNameOf(header: string): string {
  const value = header.trim().toLowerCase();
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    return end === -1 ? value : value.slice(1, end);
  }
  const colon = value.indexOf(':');
  return colon === -1 ? value : value.slice(0, colon);
}

/** Refuses (403, naming `--allowed-host`) a request whose `Host` is not one of `allowed`. */
export function checkHost(request: MockRequest, allowed: ReadonlySet<string> | undefined): void {
  if (!allowed) return;
  const header = readHeader(request.headers, 'host');
  if (header === undefined) return;
  const name = hostNameOf(header);
  if (allowed.has(name)) return;
  const shown = JSON.stringify(clip(name, 80));
  throw new HttpError(
    403,
    'forbidden',
    `the Host ${shown} is not a name of this mock server (a guard against DNS rebinding): start it with --allowed-host ${shown} (or the allowedHosts option of listen) to accept it`,
  );
}
