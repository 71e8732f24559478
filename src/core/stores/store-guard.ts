/**
 * Calls into a shared store (Redis, Postgres, your own) for the token cache and the rate limiter,
 * with a time limit and a breaker: when the store fails, the caller's local fallback answers, one
 * warning is logged for the whole outage (not one per call), and the store is tried again at most
 * once per `retryMs` until it answers, when one line says it is back.
 */
import type { LogFn } from '../observe/logger.js';

/** How long one store call may take before the local fallback answers instead. */
export const STORE_TIMEOUT_MS = 2_000;
/** How long a failed store is left alone before the next try. */
const STORE_RETRY_MS = 1_000;

export class StoreGuard {
  #downUntil = 0;
  #down = false;

  constructor(
    private readonly what: string,
    private readonly log: LogFn | undefined,
    private readonly timeoutMs = STORE_TIMEOUT_MS,
  ) {}

  /** Whether the store failed recently (the caller may skip straight to its fallback). */
  get down(): boolean {
    return this.#down && Date.now() < this.#downUntil;
  }

  /** Runs `op` against the store; on failure or timeout returns `fallback()` instead. */
  async run<T, F = T>(op: () => Promise<T>, fallback: () => F | Promise<F>): Promise<T | F> {
    if (this.down) return fallback();
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
      });
      const value = await Promise.race([op(), timeout]);
      if (this.#down) {
        this.#down = false;
        this.log?.('info', `${this.what} is reachable again; sharing resumes`);
      }
      return value;
    } catch (error) {
      if (!this.#down) {
        this.#down = true;
        const reason = error instanceof Error ? error.message : String(error);
        this.log?.('warn', `${this.what} failed (${reason}); working on local state until it answers again`);
      }
      this.#downUntil = Date.now() + STORE_RETRY_MS;
      return fallback();
    } finally {
      clearTimeout(timer);
    }
  }
}
