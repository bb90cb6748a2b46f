/** Log levels, most severe first; `off` logs nothing. */
export const LOG_LEVELS = ['off', 'error', 'warn', 'info', 'debug'] as const;
/** A log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A logger: `console` fits, as do pino, winston and most others. */
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

/** Header names whose values are secrets: always redacted in logs and hooks. */
const SECRET_HEADERS = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key|x-auth-token)$/i;

/** Copies headers, replacing the values of secret headers with `[redacted]`. */
export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    out[name] = SECRET_HEADERS.test(name) ? '[redacted]' : value;
  return out;
}

/** Body members whose values are secrets. */
const SECRET_MEMBERS = /^(accessKey|secretKey|password|accessToken|token|secret|authorization)$/i;

/** Copies a JSON value, replacing the values of credential members with `[redacted]`. */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactBody);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([k, v]) => [
      k,
      SECRET_MEMBERS.test(k) ? '[redacted]' : redactBody(v),
    ]),
  );
}

/** A logger that drops everything below `level`. */
export function leveledLogger(logger: Logger, level: LogLevel): Logger {
  const rank = LOG_LEVELS.indexOf(level);
  const at =
    (name: Exclude<LogLevel, 'off'>) =>
    (message: string, details?: Record<string, unknown>): void => {
      if (rank >= LOG_LEVELS.indexOf(name)) {
        if (details === undefined) logger[name](`[iacm] ${message}`);
        else logger[name](`[iacm] ${message}`, details);
      }
    };
  return { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') };
}
