// The one argument parser of the bins (partner-payments, partner-payments-mock, and any command
// family added beside them): node:util parseArgs over a command's own options table, with every
// mistake (node:util's own, such as an unknown flag or a missing value, and a bad value a command
// finds) thrown as a UsageError, which a bin prints with its usage text and exit code 2.
import { type ParseArgsConfig, parseArgs } from 'node:util';

/** A mistake in the command line: printed with the bin's usage, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** `--help` / `-h`, which every command of every bin accepts. */
export const HELP_OPTION = { help: { type: 'boolean', short: 'h', default: false } } as const;

/**
 * Parses one command's arguments against its options table (node:util parseArgs, strict);
 * node:util's own errors (an unknown flag, a missing value, a stray positional) become
 * {@link UsageError}, so that a bin has one kind of mistake to print.
 */
export function parseFlags<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}

/** A flag's value read as a URL; anything unparsable is a {@link UsageError} naming the flag. */
export function parseUrlFlag(value: string, flag: string): URL {
  try {
    return new URL(value);
  } catch {
    throw new UsageError(`${flag} must be a URL, got ${value}`);
  }
}

/** A flag's value in seconds (a number, 0 or more), or `fallback` when absent. */
export function seconds(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || value.trim() === '') {
    throw new UsageError(`${flag} must be a number of seconds, got ${value}`);
  }
  return n;
}
