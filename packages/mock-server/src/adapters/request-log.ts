/**
 * The request log of the standalone server's CLI: one line per finished request (method, path with
 * secret-looking query parameters masked, status, milliseconds), as text or JSON, written so that it
 * never blocks the server nor buffers without bound.
 *
 * @module
 */

import { isSecretParameter } from '../http/redact.js';

/** A finished request, as the request log prints it. */
export interface RequestLogEntry {
  /** The request's method. */
  method: string;
  /** The request target as received: path and query string. */
  url: string;
  /** The status answered, or `undefined` when the connection closed without a complete answer. */
  status: number | undefined;
  /** From the request's arrival to the end of the answer, milliseconds. */
  durationMs: number;
}

/** How the request log prints its lines: `text` for people, `json` (one object a line) for log tools. */
export type LogFormat = 'text' | 'json';

/** Where log lines go: a writable stream such as `process.stdout`. */
export interface LogStream {
  /** Writes a chunk; `false` means the stream's buffer is full and it will emit `drain` once emptied. */
  write(chunk: string): boolean;
  /** Listens once for `drain`. */
  once(event: 'drain', listener: () => void): unknown;
}

/** The longest path (with its query) a log line shows; longer ones are cut. */
const MAX_PATH_LENGTH = 2000;

/**
 * The request target with the value of every secret-looking query parameter (a name containing
 * token, key, secret, password, signature, auth or credential, in any case) replaced by `***`. The
 * other parameters are kept exactly as sent.
 *
 * @example maskSecrets('/v2/x?pageSize=5&access_token=abc') // '/v2/x?pageSize=5&access_token=***'
 */
export function maskSecrets(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const masked = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // Not valid percent-encoding: test the name as sent.
      }
      return isSecretParameter(name) ? `${rawName}=***` : pair;
    });
  return `${url.slice(0, at)}?${masked.join('&')}`;
}

function shortened(path: string): string {
  return path.length > MAX_PATH_LENGTH ? `${path.slice(0, MAX_PATH_LENGTH)}...` : path;
}

/**
 * One log line (without the newline) for a finished request.
 * Text: `12:00:01.234 POST /v2/login 200 3.1 ms`; JSON: `{"time","method","path","status","ms"}`,
 * `status` being `null` when no complete answer was sent.
 * @param entry the request.
 * @param format `text` or `json`.
 * @param time when the request finished (the log's own wall clock, not the mock's clock).
 */
export function formatRequestLine(entry: RequestLogEntry, format: LogFormat, time: Date): string {
  const path = shortened(maskSecrets(entry.url));
  const ms = Math.round(entry.durationMs * 10) / 10;
  if (format === 'json') {
    return JSON.stringify({
      time: time.toISOString(),
      method: entry.method,
      path,
      status: entry.status ?? null,
      ms,
    });
  }
  // The path is shown as received, except for control characters (never in a valid request line).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const shown = path.replace(/[\u0000-\u001f\u007f]/g, '?');
  const status = entry.status === undefined ? 'no-answer' : String(entry.status);
  return `${time.toISOString().slice(11, 23)} ${entry.method} ${shown} ${status} ${ms} ms`;
}

/**
 * Writes lines to a stream without ever waiting for it: when `write()` returns `false` (the reader
 * is behind), the following lines are dropped and counted until the stream emits `drain`, then
 * `(N log lines dropped)` is written (or at once by {@link DroppingLineWriter.reportDropped}, when the
 * server stops). So a stalled pipe costs at most one buffered line, never memory or time. (A
 * terminal is written synchronously on Linux: a paused terminal pauses the writer.) After a write
 * error (the reader went away) every line is dropped.
 */
export class DroppingLineWriter {
  readonly #stream: LogStream;
  readonly #notice: (dropped: number) => string;
  #waiting = false;
  #broken = false;
  #dropped = 0;
  #droppedTotal = 0;

  /**
   * @param stream where the lines go.
   * @param notice the line that reports dropped lines (default `(N log lines dropped)`).
   */
  constructor(stream: LogStream, notice: (dropped: number) => string = droppedNotice) {
    this.#stream = stream;
    this.#notice = notice;
  }

  /** How many lines were dropped in all. */
  get dropped(): number {
    return this.#droppedTotal;
  }

  /** Writes one line (a newline is added), or drops it while the stream is backed up. */
  line(text: string): void {
    if (this.#waiting || this.#broken) {
      this.#dropped += 1;
      this.#droppedTotal += 1;
      return;
    }
    this.#write(`${text}\n`);
  }

  /** Stops writing for good (the stream failed, for example EPIPE after the reader exited). */
  markBroken(): void {
    this.#broken = true;
  }

  /**
   * Reports now the lines dropped since the last report, without waiting for `drain` (for the end:
   * the process may exit before the stream drains). The report is written even while the stream is
   * backed up: one more line in its buffer. Returns how many lines it reported (0: nothing was
   * pending, or the stream failed and nothing can be written).
   */
  reportDropped(): number {
    const dropped = this.#dropped;
    if (dropped === 0 || this.#broken) return 0;
    this.#dropped = 0;
    try {
      this.#stream.write(`${this.#notice(dropped)}\n`);
    } catch {
      this.#broken = true;
      return 0;
    }
    return dropped;
  }

  #write(chunk: string): void {
    let accepted: boolean;
    try {
      accepted = this.#stream.write(chunk);
    } catch {
      this.#broken = true;
      return;
    }
    if (accepted) return;
    this.#waiting = true;
    this.#stream.once('drain', () => {
      this.#waiting = false;
      if (this.#dropped > 0 && !this.#broken) {
        const dropped = this.#dropped;
        this.#dropped = 0;
        this.#write(`${this.#notice(dropped)}\n`);
      }
    });
  }
}

/** The text line that reports dropped log lines. */
export function droppedNotice(dropped: number): string {
  return `(${dropped} log line${dropped === 1 ? '' : 's'} dropped)`;
}

/** The request log: formats each finished request and writes it with a {@link DroppingLineWriter}. */
export class RequestLog {
  readonly #writer: DroppingLineWriter;
  readonly #format: LogFormat;
  readonly #now: () => Date;

  /**
   * @param stream where the lines go (`process.stdout` in the CLI).
   * @param format `text` or `json`.
   * @param now the time printed on each line (default: the wall clock).
   */
  constructor(stream: LogStream, format: LogFormat = 'text', now: () => Date = () => new Date()) {
    this.#format = format;
    this.#now = now;
    this.#writer = new DroppingLineWriter(stream, (dropped) =>
      format === 'json'
        ? JSON.stringify({ dropped, message: droppedNotice(dropped) })
        : droppedNotice(dropped),
    );
  }

  /** How many lines were dropped in all. */
  get dropped(): number {
    return this.#writer.dropped;
  }

  /** Logs a finished request. */
  log(entry: RequestLogEntry): void {
    this.#writer.line(formatRequestLine(entry, this.#format, this.#now()));
  }

  /** Stops writing for good (after a write error on the stream). */
  markBroken(): void {
    this.#writer.markBroken();
  }

  /**
   * Called when the server stops: reports the lines dropped since the last report (which would
   * otherwise wait for a `drain` that may never come before the process exits). Returns their count.
   */
  stop(): number {
    return this.#writer.reportDropped();
  }
}
