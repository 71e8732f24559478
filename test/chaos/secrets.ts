/**
 * Everything a chaos run's clients said (debug log lines, events, errors as message, stack,
 * `inspect` and JSON, the clients' own `inspect`), written to a file as it is said (the measured
 * process keeps none of it), and the scan of that file for secrets once the run is over.
 */
import { closeSync, createReadStream, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { inspect } from 'node:util';
import type { PaymentsClient } from '../../src/index.js';

const FLUSH_AT = 64 * 1024;

/** The clients' output, one line per thing said (newlines inside a text are escaped). */
export class Transcript {
  readonly path = join(tmpdir(), `chaos-transcript-${process.pid}-${Date.now()}.log`);
  #fd: number | undefined = openSync(this.path, 'w');
  #pending = '';
  lines = 0;

  /** Subscribes to every event of `client`. */
  listen(client: PaymentsClient): void {
    for (const name of ['request', 'response', 'retry', 'token', 'end'] as const) {
      client.on(name, (payload: unknown) => this.write(`${name} ${JSON.stringify(payload)}`));
    }
  }

  /** A logger for `logLevel: 'debug'`. */
  readonly logger = {
    debug: (...args: unknown[]) => this.line('debug', args),
    info: (...args: unknown[]) => this.line('info', args),
    warn: (...args: unknown[]) => this.line('warn', args),
    error: (...args: unknown[]) => this.line('error', args),
  };

  error(error: unknown): void {
    const e = error as Error;
    this.write(String(e?.message));
    this.write(String(e?.stack));
    this.write(inspect(error, { depth: 5 }));
    this.write(safeJson(error));
  }

  client(client: PaymentsClient): void {
    this.write(inspect(client, { depth: 5, showHidden: true }));
    this.write(safeJson(client));
  }

  write(text: string): void {
    this.lines++;
    this.#pending += `${text.replaceAll('\n', '\\n')}\n`;
    if (this.#pending.length >= FLUSH_AT) this.flush();
  }

  flush(): void {
    if (this.#pending.length > 0 && this.#fd !== undefined) writeSync(this.#fd, this.#pending);
    this.#pending = '';
  }

  close(): void {
    this.flush();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  remove(): void {
    rmSync(this.path, { force: true });
  }

  private line(level: string, args: unknown[]): void {
    this.write(
      `${level} ${args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 5 }))).join(' ')}`,
    );
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch (error) {
    return `unserialisable: ${String(error)}`;
  }
}

// Tokens, keys and the client secret are runs of these characters; a line is cut into such runs.
const RUN = /[A-Za-z0-9._~-]{8,}/g;

/** Finds secrets in lines: a set lookup per run of token characters, `includes` for the rest. */
export class SecretScanner {
  readonly #runs = new Map<string, string>();
  readonly #others: [string, string][] = [];

  constructor(secrets: Iterable<[string, string]>) {
    for (const [secret, name] of secrets) {
      if (secret.length < 8) continue;
      if (new RegExp(`^${RUN.source}$`).test(secret)) this.#runs.set(secret, name);
      else this.#others.push([secret, name]);
    }
  }

  get size(): number {
    return this.#runs.size + this.#others.length;
  }

  /** The names of the secrets in `text`. */
  scan(text: string): string[] {
    const found: string[] = [];
    for (const run of text.match(RUN) ?? []) {
      const name = this.#runs.get(run);
      if (name) found.push(name);
    }
    for (const [secret, name] of this.#others) if (text.includes(secret)) found.push(name);
    return found;
  }

  /** Every secret name found in the file at `path`, with how many lines it was found in. */
  async scanFile(path: string): Promise<Map<string, number>> {
    const found = new Map<string, number>();
    const lines = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      for (const name of new Set(this.scan(line))) found.set(name, (found.get(name) ?? 0) + 1);
    }
    return found;
  }
}
