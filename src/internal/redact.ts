/**
 * Scrubbing of secrets from anything the SDK writes: error messages, log lines, event payloads.
 *
 * Two layers: patterns that catch credentials whatever their value (bearer tokens, form fields,
 * JWT-shaped strings, `token=` query parameters), and the exact values one client registered as
 * secret (its client secret, its current access token) in its own {@link SecretRegistry}. A
 * registry lives and dies with its client: there is no process-wide list that only grows, and one
 * client's secret never redacts another client's words.
 */

const REDACTED = '[REDACTED]';

const PATTERNS: RegExp[] = [
  // Authorization header values.
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
  // Form or query fields that carry credentials.
  /\b(client_secret|access_token|refresh_token|signing_secret|launch_token|session_token|token)=([^&\s"']+)/gi,
  // JSON fields that carry credentials.
  /"(client_secret|access_token|refresh_token|signing_secret|launch_token|session_token|secret)"\s*:\s*"[^"]*"/gi,
  // JWTs (three base64url segments, the first starting with eyJ).
  /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
  // Webhook signatures.
  /hmac-sha256=[0-9a-fA-F]+/g,
];

/**
 * The exact secret values of one client (and the clients derived from it): its client secret and
 * the access tokens it currently holds. Released with the client.
 */
export class SecretRegistry {
  readonly #values = new Set<string>();

  /** Registers a value that must never appear in output (at least 4 characters). */
  add(value: string | undefined | null): void {
    if (value && value.length >= 4) this.#values.add(value);
  }

  /** Forgets a value (a replaced access token). */
  delete(value: string | undefined | null): void {
    if (value) this.#values.delete(value);
  }

  /** How many values are registered (for tests). */
  get size(): number {
    return this.#values.size;
  }

  /** `text` with this client's secrets and every generic credential pattern redacted. */
  redact(text: string): string {
    let out = text;
    for (const secret of this.#values) {
      if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    }
    return redact(out);
  }

  /** {@link safeHeaders} with this client's secrets redacted too. */
  headers(headers: Record<string, string>): Record<string, string> {
    return safeHeaders(headers, this);
  }
}

// Values secret for the duration of a call (a launch token being exchanged), counted so that two
// concurrent calls with the same value do not release each other's hold.
const held = new Map<string, number>();

/**
 * Treats `value` as a secret until the returned function is called: what a call sends as its
 * credential (a launch token) is scrubbed from the errors and log lines of that call, even when the
 * service echoes it bare. Released afterwards, so single-use values do not pile up.
 */
export function holdSecret(value: string): () => void {
  if (value.length < 4) return () => {};
  held.set(value, (held.get(value) ?? 0) + 1);
  return () => {
    const count = (held.get(value) ?? 1) - 1;
    if (count > 0) held.set(value, count);
    else held.delete(value);
  };
}

/**
 * Returns `text` with every credential that a generic pattern recognises, and every value held
 * with {@link holdSecret}, replaced by `[REDACTED]`.
 */
export function redact(text: string): string {
  let out = text;
  for (const secret of held.keys()) {
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match, name: string | undefined) => {
      if (match.startsWith('"')) return `"${name}":"${REDACTED}"`;
      if (/^(Bearer|Basic)\s/i.test(match)) return `${name} ${REDACTED}`;
      if (name && match.includes('=') && !match.startsWith('hmac')) return `${name}=${REDACTED}`;
      return REDACTED;
    });
  }
  return out;
}

/** Header names whose values are never kept or shown. */
const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-service-signature',
]);

/** A copy of `headers` without credential-bearing headers (and a client's secrets, given its registry). */
export function safeHeaders(
  headers: Record<string, string>,
  registry?: SecretRegistry,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADERS.has(name.toLowerCase())
      ? REDACTED
      : registry
        ? registry.redact(value)
        : redact(value);
  }
  return out;
}
