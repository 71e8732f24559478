// Logging: the Logger shape (console, pino, winston), the log levels, and `makeLog()`, which writes
// redacted lines from a minimum level up.
import type { SecretRegistry } from '../../internal/redact.js';

/**
 * Anything shaped like `console` or a pino/winston logger.
 *
 * @example
 * const client = new PaymentsClient({ logger: pino(), logLevel: 'debug' });
 */
export interface Logger {
  /** Each attempt and its answer. */
  debug(message: string, ...rest: unknown[]): void;
  /** Token minted or replayed. */
  info(message: string, ...rest: unknown[]): void;
  /** A retry, or an outcome that is unknown. */
  warn(message: string, ...rest: unknown[]): void;
  /** Not written by the SDK today; part of the shape so any logger fits. */
  error(message: string, ...rest: unknown[]): void;
}

/**
 * The least severe level written; `off` writes nothing.
 *
 * @example
 * const logLevel: LogLevel = process.env.NODE_ENV === 'production' ? 'warn' : 'debug';
 * const client = new PaymentsClient({ logger: console, logLevel });
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

/** Writes a line at a level, after scrubbing secrets. */
export type LogFn = (level: Exclude<LogLevel, 'off'>, message: string) => void;

/** Whether `value` is one of the log levels. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && value in RANK;
}

/**
 * A log function writing to `logger` from `level` up, or undefined when nothing would be written
 * (so the hot path can skip building the line).
 */
export function makeLog(
  logger: Logger | undefined,
  level: LogLevel,
  secrets: SecretRegistry,
): LogFn | undefined {
  if (!logger || level === 'off') return undefined;
  const min = RANK[level];
  return (at, message) => {
    if (RANK[at] < min) return;
    // Every line is redacted with the client's secrets: a message may quote a server's text.
    logger[at](`[partner-payments] ${secrets.redact(message)}`);
  };
}
