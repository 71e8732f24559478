/**
 * Options of the mock's clock.
 *
 * @example
 * const mock = createMockService({ clock: { start: '2026-05-12T10:00:00Z' } });
 */
export interface MockClockOptions {
  /** Where the clock starts. @default the real time at creation */
  start?: Date | number | string;
  /**
   * Whether the clock also moves with real time. Off, it only moves on `advance()`, which keeps tests
   * deterministic; the bin turns it on so that tokens and payments expire on their own.
   * @default false
   */
  realTime?: boolean;
}

/**
 * The mock's clock. Every expiry of the mock (tokens, idempotency keys, hosted checkout, launch
 * tokens, payment time-to-live, webhook retries, rate-limit refills) reads it.
 *
 * @example
 * mock.clock.advance(60 * 60 * 1000); // the access token minted a moment ago is now expired
 */
export interface MockClock {
  /** Milliseconds since the epoch, on the mock's time line. */
  now(): number;
  /** The current time as an ISO 8601 UTC string. */
  iso(): string;
  /** Moves the clock forward and runs whatever falls due (expiries, webhook retries). */
  advance(ms: number): void;
}

/** A clock plus the hook the service uses to run due work after each advance. */
export interface InternalClock extends MockClock {
  onAdvance(listener: () => void): void;
}

export function createClock(options: MockClockOptions = {}): InternalClock {
  const start = options.start === undefined ? Date.now() : new Date(options.start).getTime();
  if (!Number.isFinite(start)) throw new TypeError('clock start must be a valid date');
  const realStart = Date.now();
  let offset = 0;
  const listeners: (() => void)[] = [];
  const now = () => start + offset + (options.realTime ? Date.now() - realStart : 0);
  return {
    now,
    iso: () => new Date(now()).toISOString(),
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance(ms) needs a finite number >= 0');
      offset += ms;
      for (const listener of listeners) listener();
    },
    onAdvance(listener) {
      listeners.push(listener);
    },
  };
}
