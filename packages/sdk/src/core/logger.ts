/** Log levels, most severe first; `off` logs nothing. */
export const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug'] as const;
/** A log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * A logger whose methods take the message first, then an object of details: `console`, winston,
 * consola and most others. A pino instance fits this type too, and is called details first (see
 * {@link LoggerStyle}).
 */
export interface Logger {
  /** Logs an error. */
  error(message: string, details?: Record<string, unknown>): void;
  /** Logs a warning. */
  warn(message: string, details?: Record<string, unknown>): void;
  /** Logs information. */
  info(message: string, details?: Record<string, unknown>): void;
  /** Logs debugging detail. */
  debug(message: string, details?: Record<string, unknown>): void;
}

/**
 * A logger whose methods take an object of details first, then the message: pino, bunyan, and
 * fastify's `app.log` and `request.log`. Give `loggerStyle: 'details-first'` with one that is not
 * a pino instance.
 */
export interface DetailsFirstLogger {
  /** Logs an error. */
  error(details: Record<string, unknown>, message: string): void;
  /** Logs a warning. */
  warn(details: Record<string, unknown>, message: string): void;
  /** Logs information. */
  info(details: Record<string, unknown>, message: string): void;
  /** Logs debugging detail. */
  debug(details: Record<string, unknown>, message: string): void;
}

/**
 * How the client calls its logger's methods:
 * - `message-first`: `logger.warn(message, details)`, as `console`, winston and consola take it;
 * - `details-first`: `logger.warn(details, message)`, as pino and bunyan take it (the details become
 *   fields of the JSON line, the message its `msg`).
 *
 * By default a pino instance (node or browser build, children included) is called details first and
 * any other logger message first.
 */
export type LoggerStyle = 'message-first' | 'details-first';

/** The logger styles, for the option check. */
export const LOGGER_STYLES = ['message-first', 'details-first'] as const satisfies readonly LoggerStyle[];

/** Whether a logger looks like a pino instance (node or browser build), whose methods take details first. */
export function isPinoLike(logger: unknown): boolean {
  if (logger === null || typeof logger !== 'object') return false;
  const candidate = logger as { child?: unknown; bindings?: unknown; levels?: { values?: unknown } };
  return (
    typeof candidate.child === 'function' &&
    typeof candidate.bindings === 'function' &&
    typeof candidate.levels === 'object' &&
    candidate.levels !== null &&
    typeof candidate.levels.values === 'object'
  );
}

/**
 * A logger that drops everything below `level`, prefixes messages with `[iacm]`, and calls the
 * underlying logger in its `style`.
 */
export function leveledLogger(
  logger: Logger | DetailsFirstLogger,
  level: LogLevel,
  style: LoggerStyle = 'message-first',
): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const at =
    (name: Exclude<LogLevel, 'off'>) =>
    (message: string, details?: Record<string, unknown>): void => {
      if (rank < LOG_LEVELS.indexOf(name)) return;
      const line = `[iacm] ${message}`;
      if (style === 'details-first') (logger as DetailsFirstLogger)[name](details ?? {}, line);
      else if (details === undefined) (logger as Logger)[name](line);
      else (logger as Logger)[name](line, details);
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
