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
   * @default true with `autoProcess` (demo outcomes arrive on their own), otherwise false
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
  /** Runs after each `advance()` only (the test moved the clock); returns a function that removes it. */
  onMoved(listener: () => void): () => void;
  /** Whether the clock also follows real time. */
  readonly realTime: boolean;
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
  /** Its place in the heap; -1 once it left. */
  index: number;
}

/** Whether timer `a` falls due before `b` (by due time, then by the order they were scheduled). */
const before = (a: Timer, b: Timer) => a.at < b.at || (a.at === b.at && a.seq < b.seq);

/**
 * The pending timers as a binary min-heap: the next due timer is at the top, adding and removing
 * one (a cancel) cost O(log n), so a mock with 100,000 pending payment expiries stays fast.
 */
class TimerHeap {
  private items: Timer[] = [];

  get size(): number {
    return this.items.length;
  }

  peek(): Timer | undefined {
    return this.items[0];
  }

  push(timer: Timer): void {
    timer.index = this.items.length;
    this.items.push(timer);
    this.up(timer.index);
  }

  remove(timer: Timer): void {
    const i = timer.index;
    if (i < 0 || this.items[i] !== timer) return;
    const last = this.items.pop()!;
    timer.index = -1;
    if (last === timer) return;
    this.items[i] = last;
    last.index = i;
    this.up(i);
    this.down(last.index);
  }

  /** Keeps only the timers `keep` says, in a new heap order. */
  filter(keep: (timer: Timer) => boolean): void {
    const kept = this.items.filter(keep);
    for (const t of this.items) t.index = -1;
    this.items = [];
    for (const t of kept) this.push(t);
  }

  private swap(i: number, j: number): void {
    const a = this.items[i]!;
    const b = this.items[j]!;
    this.items[i] = b;
    this.items[j] = a;
    a.index = j;
    b.index = i;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(this.items[i]!, this.items[parent]!)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    const n = this.items.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let least = i;
      if (l < n && before(this.items[l]!, this.items[least]!)) least = l;
      if (r < n && before(this.items[r]!, this.items[least]!)) least = r;
      if (least === i) return;
      this.swap(i, least);
      i = least;
    }
  }
}

export function createClock(options: MockClockOptions = {}): InternalClock {
  const start = options.start === undefined ? Date.now() : new Date(options.start).getTime();
  if (!Number.isFinite(start)) throw new TypeError('clock start must be a valid date');
  const realStart = Date.now();
  const realTime = options.realTime === true;
  let offset = 0;
  let seq = 0;
  const timers = new TimerHeap();
  let wake: ReturnType<typeof setTimeout> | undefined;
  let wakeAt = Number.NaN;
  const listeners: (() => void)[] = [];
  const moved = new Set<() => void>();
  const base = () => start + (realTime ? Date.now() - realStart : 0);
  const now = () => base() + offset;
  const fire = (timer: Timer) => {
    timers.remove(timer);
    try {
      timer.run();
    } catch {
      // A demo outcome that no longer fits (the test voided the payment first): nothing to do.
    }
  };
  const runDue = () => {
    for (let t = timers.peek(); t && t.at <= now(); t = timers.peek()) fire(t);
    for (const listener of listeners) listener();
  };
  // Real-time mode only: one unref'd wake-up at the next due timer. It moves nothing by itself; the
  // clock already follows real time, this only notices that a timer fell due. It is re-armed only
  // when the next due time changed, not on every request.
  const arm = () => {
    if (!realTime) return;
    const first = timers.peek();
    if (first && wake && first.at === wakeAt) return;
    if (wake) clearTimeout(wake);
    wake = undefined;
    wakeAt = Number.NaN;
    if (!first) return;
    wakeAt = first.at;
    wake = setTimeout(
      () => {
        wake = undefined;
        wakeAt = Number.NaN;
        runDue();
        arm();
      },
      Math.max(0, first.at - now()),
    );
    wake.unref();
  };
  const schedule = (ms: number, run: () => void, keep = false) => {
    const timer: Timer = { at: now() + Math.max(0, ms), seq: seq++, run, keep, index: -1 };
    timers.push(timer);
    arm();
    return () => timers.remove(timer);
  };
  // Many records of one request share a millisecond: its ISO text is formatted once.
  let isoMs = Number.NaN;
  let isoText = '';
  return {
    now,
    iso: () => {
      const ms = now();
      if (ms !== isoMs) {
        isoMs = ms;
        isoText = new Date(ms).toISOString();
      }
      return isoText;
    },
    advance(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance(ms) needs a finite number >= 0');
      const target = offset + ms;
      // Step through due timers so that each one reads its own due time from the clock.
      for (let t = timers.peek(); t && t.at <= base() + target; t = timers.peek()) {
        offset = Math.max(offset, t.at - base());
        fire(t);
      }
      offset = target;
      runDue();
      arm();
      for (const listener of [...moved]) listener();
    },
    onAdvance(listener) {
      listeners.push(listener);
    },
    onMoved(listener) {
      moved.add(listener);
      return () => moved.delete(listener);
    },
    realTime,
    schedule: (ms, run) => schedule(ms, run),
    sleep: (ms) => new Promise<void>((resolve) => schedule(ms, resolve, true)),
    tick() {
      runDue();
      arm();
    },
    clear() {
      timers.filter((t) => t.keep);
      arm();
    },
    close() {
      if (wake) clearTimeout(wake);
      wake = undefined;
      wakeAt = Number.NaN;
    },
  };
}
