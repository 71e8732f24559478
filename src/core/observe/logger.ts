// Logging: the Logger shape (console, pino, winston), the log levels, and `makeLog()`, which writes
// redacted lines from a minimum level up, with the call's trace ids as structured fields.
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

/** The structured fields of a log line: the trace and span of the call, when a tracer is set. */
export interface LogFields {
  trace_id: string;
  span_id: string;
}

/** Writes a line at a level, after scrubbing secrets, with the call's fields when it has any. */
export type LogFn = (level: Exclude<LogLevel, 'off'>, message: string, fields?: LogFields) => void;

/**
 * Whether a logger takes its fields first (pino: `logger.info({ trace_id }, 'message')`) rather
 * than after the message (winston, console: `logger.info('message', { trace_id })`).
 */
function fieldsFirst(logger: Logger): boolean {
  const l = logger as unknown as { child?: unknown; bindings?: unknown; levels?: { values?: unknown } };
  return (
    typeof l.child === 'function' && typeof l.bindings === 'function' && typeof l.levels?.values === 'object'
  );
}

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
  const first = fieldsFirst(logger);
  return (at, message, fields) => {
    if (RANK[at] < min) return;
    // Every line is redacted with the client's secrets: a message may quote a server's text.
    const line = `[partner-payments] ${secrets.redact(message)}`;
    if (!fields) logger[at](line);
    else if (first) (logger[at] as unknown as (f: LogFields, m: string) => void).call(logger, fields, line);
    else logger[at](line, fields);
  };
}
