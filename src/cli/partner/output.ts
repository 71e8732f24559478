// What the bin writes: lines and a JSON document through the Io (../shared/io.ts), and the Scrubber
// every line passes through, so that no secret reaches the terminal or a CI log even by mistake.
import type { Io } from '../shared/io.js';

const REDACTED = '[REDACTED]';

/** Credentials whatever their value: bearer tokens, JWTs, signatures, `token=` parameters. */
const PATTERNS: RegExp[] = [
  /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi,
  /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
  /hmac-sha256=[0-9a-fA-F]+/g,
  /\b(token|launch_token|access_token|client_secret)=[^&\s"']+/gi,
];

/**
 * The last guard before output: the secret values the bin was given or saw (client secret, webhook
 * secret, access tokens) and credential patterns are replaced. The checks never put a secret into
 * a message in the first place; this catches what a future change might.
 */
export class Scrubber {
  readonly #values = new Set<string>();

  /** Registers a value that must never be printed (4 characters or more). */
  add(value: string | undefined): void {
    if (value && value.length >= 4) this.#values.add(value);
  }

  scrub(text: string): string {
    let out = text;
    for (const value of this.#values) if (out.includes(value)) out = out.split(value).join(REDACTED);
    for (const pattern of PATTERNS) out = out.replace(pattern, REDACTED);
    return out;
  }
}

/** Writes through a scrubber: lines to stdout (unless `--json`), one JSON document at the end. */
export class Output {
  constructor(
    private readonly io: Io,
    readonly json: boolean,
    readonly scrubber: Scrubber,
  ) {}

  /** A line for people (suppressed with `--json`, so that stdout is one JSON document). */
  line(text = ''): void {
    if (!this.json) this.io.stdout(`${this.scrubber.scrub(text)}\n`);
  }

  /** The JSON document (`--json` only). */
  document(value: unknown): void {
    if (this.json) this.io.stdout(`${this.scrubber.scrub(JSON.stringify(value, null, 2))}\n`);
  }

  /** A message on stderr (both modes). */
  error(text: string): void {
    this.io.stderr(`${this.scrubber.scrub(text)}\n`);
  }
}

/** `text` padded to `width` columns. */
export function pad(text: string, width: number): string {
  return text.length >= width ? `${text} ` : text + ' '.repeat(width - text.length);
}

/** A duration for people: `850 ms`, `12.4 s`, `3 min 12 s`. */
export function duration(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < 1000) return `${Math.round(abs)} ms`;
  if (abs < 60_000) return `${(abs / 1000).toFixed(1)} s`;
  const seconds = Math.round(abs / 1000);
  const rest = seconds % 60;
  return rest ? `${Math.floor(seconds / 60)} min ${rest} s` : `${seconds / 60} min`;
}
