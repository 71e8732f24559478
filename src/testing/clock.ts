// The mock's one clock: its options, the public MockClock, the timers of the InternalClock, and
// `createClock()` (manual, or following real time).
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
 * The mock's one clock. Everything time-driven in the mock reads it: token, idempotency, hosted
 * checkout, launch token and payment lifetimes, webhook retries, rate-limit refills, demo-mode
 * outcomes and fault delays. No real timer decides what the mock does.
 *
 * @example
 * mock.clock.advance(60 * 60 * 1000); // the access token minted a moment ago is now expired
 */
export interface MockClock {
  /** Milliseconds since the epoch, on the mock's time line. */
  now(): number;
  /** The current time as an ISO 8601 UTC string. */
  iso(): string;
  /**
   * Moves the clock forward and runs whatever falls due, in time order, each at its own due time
   * (expiries, webhook retries, demo-mode outcomes, delayed fault answers).
   */
  advance(ms: number): void;
}

/** The clock as the service uses it: timers on the mock time line. */
export interface InternalClock extends MockClock {
  /** Runs after every advance and every real-time tick (due webhook attempts). */
  onAdvance(listener: () => void): void;
  /** Runs `run` once the clock has moved `ms` further; returns a cancel function. */
  schedule(ms: number, run: () => void): () => void;
  /** Resolves once the clock has moved `ms` further. */
  sleep(ms: number): Promise<void>;
  /** Runs what is due now (real-time mode calls it on its own; the service before each request). */
  tick(): void;
  /** Forgets every pending timer but the sleeps (reset). */
  clear(): void;
  /** Stops the real-time wake-up. */
  close(): void;
}

interface Timer {
  at: number;
  seq: number;
  run: () => void;
  /** Survives clear(): a delayed answer still arrives after a reset. */
  keep: boolean;
}

export function createClock(options: MockClockOptions = {}): InternalClock {
  const start = options.start === undefined ? Date.now() : new Date(options.start).getTime();
  if (!Number.isFinite(start)) throw new TypeError('clock start must be a valid date');
  const realStart = Date.now();
  const realTime = options.realTime === true;
  let offset = 0;
  let seq = 0;
  let timers: Timer[] = [];
  let wake: ReturnType<typeof setTimeout> | undefined;
  const listeners: (() => void)[] = [];
  const base = () => start + (realTime ? Date.now() - realStart : 0);
  const now = () => base() + offset;
  const next = () => timers.reduce<Timer | undefined>((a, t) => (!a || t.at < a.at ? t : a), undefined);
  const fire = (timer: Timer) => {
    timers = timers.filter((t) => t !== timer);
    try {
      timer.run();
    } catch {
      // A demo outcome that no longer fits (the test voided the payment first): nothing to do.
    }
  };
  const runDue = () => {
    for (let t = next(); t && t.at <= now(); t = next()) fire(t);
    for (const listener of listeners) listener();
  };
  // Real-time mode only: one unref'd wake-up at the next due timer. It moves nothing by itself; the
  // clock already follows real time, this only notices that a timer fell due.
  const arm = () => {
    if (!realTime) return;
    if (wake) clearTimeout(wake);
    const first = next();
    wake = first
      ? setTimeout(
          () => {
            wake = undefined;
            runDue();
            arm();
          },
          Math.max(0, first.at - now()),
        )
      : undefined;
    wake?.unref();
  };
  const schedule = (ms: number, run: () => void, keep = false) => {
    const timer: Timer = { at: now() + Math.max(0, ms), seq: seq++, run, keep };
    timers.push(timer);
    arm();
    return () => {
      timers = timers.filter((t) => t !== timer);
    };
  };
  return {
    now,
    iso: () => new Date(now()).toISOString(),
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance(ms) needs a finite number >= 0');
      const target = offset + ms;
      // Step through due timers so that each one reads its own due time from the clock.
      for (let t = next(); t && t.at <= base() + target; t = next()) {
        offset = Math.max(offset, t.at - base());
        fire(t);
      }
      offset = target;
      runDue();
      arm();
    },
    onAdvance(listener) {
      listeners.push(listener);
    },
    schedule: (ms, run) => schedule(ms, run),
    sleep: (ms) => new Promise<void>((resolve) => schedule(ms, resolve, true)),
    tick() {
      runDue();
      arm();
    },
    clear() {
      timers = timers.filter((t) => t.keep);
      arm();
    },
    close() {
      if (wake) clearTimeout(wake);
      wake = undefined;
    },
  };
}
