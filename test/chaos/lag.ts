/**
 * How late this process's event loop ran, and when: a timer cannot fire, and a socket's close
 * cannot be seen, while the loop is blocked or the process is not scheduled (a loaded machine).
 * An attempt that overran its timeout is a breach only by more than the stalls that overlapped
 * its due time: those say nothing about the SDK. A fixed-size ring: bounded whatever the run.
 */
export class LagMonitor {
  /** [end, length] of each stall longer than `recordAboveMs`, the last `capacity` of them. */
  readonly #ring: Float64Array;
  readonly #capacity: number;
  #count = 0;
  #timer: ReturnType<typeof setInterval> | undefined;
  #last = 0;
  max = 0;

  constructor(
    readonly everyMs = 10,
    readonly recordAboveMs = 2,
    capacity = 8192,
  ) {
    this.#capacity = capacity;
    this.#ring = new Float64Array(2 * capacity);
  }

  start(): void {
    this.#last = performance.now();
    this.#timer = setInterval(() => {
      const now = performance.now();
      const late = now - this.#last - this.everyMs;
      this.#last = now;
      if (late > this.max) this.max = late;
      if (late > this.recordAboveMs) {
        const at = (this.#count++ % this.#capacity) * 2;
        this.#ring[at] = now;
        this.#ring[at + 1] = late;
      }
    }, this.everyMs);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  reset(): void {
    this.max = 0;
    this.#count = 0;
  }

  /** The total of the stalls that ended between `from` and `to` (ms of `performance.now()`). */
  stalledBetween(from: number, to: number): number {
    let total = 0;
    const n = Math.min(this.#count, this.#capacity);
    for (let i = 0; i < n; i++) {
      const end = this.#ring[i * 2] as number;
      if (end >= from && end <= to) total += this.#ring[i * 2 + 1] as number;
    }
    return total;
  }
}

/** Attempts that ran past their limit by more than the base margin, judged once the run is over. */
export class Overruns {
  readonly #pending: { label: string; dueAt: number; endedAt: number; overMs: number }[] = [];
  /** Past the limit by more than the margin, stalls of the loop included (a breach). */
  unexplained = 0;
  /** Past the limit by more than the margin, but not by more than the stalls at the time. */
  explained = 0;
  /** The largest overrun once the overlapping stalls are taken off. */
  maxUnexplainedMs = 0;
  readonly examples: string[] = [];

  constructor(
    readonly marginMs: number,
    readonly lag: LagMonitor,
    readonly cap = 5_000,
  ) {
    // Judged as the run goes, while the ring still holds the stalls of the time.
    this.#timer = setInterval(() => this.judge(performance.now()), 500);
    this.#timer.unref();
  }

  readonly #timer: ReturnType<typeof setInterval>;

  stop(): void {
    clearInterval(this.#timer);
  }

  /** An attempt due at `dueAt` ended at `endedAt`. */
  note(label: string, dueAt: number, endedAt: number): void {
    const overMs = endedAt - dueAt;
    if (overMs <= this.marginMs) return;
    if (this.#pending.length < this.cap) this.#pending.push({ label, dueAt, endedAt, overMs });
    else {
      this.unexplained++;
      if (this.examples.length < 20)
        this.examples.push(`${label}: overran by ${Math.round(overMs)} ms (not judged)`);
    }
  }

  /** Judges the overruns that ended before `before` against the stalls around them. */
  judge(before = Number.POSITIVE_INFINITY): void {
    const ready = this.#pending.filter((o) => o.endedAt + 200 < before);
    if (ready.length === 0) return;
    const rest = this.#pending.filter((o) => o.endedAt + 200 >= before);
    this.#pending.splice(0, this.#pending.length, ...rest);
    for (const o of ready) {
      // The stalls that ended between the due time and just after the end delayed the timer.
      const stalled = this.lag.stalledBetween(o.dueAt - this.lag.everyMs, o.endedAt + 100);
      const unexplainedMs = o.overMs - stalled;
      this.maxUnexplainedMs = Math.max(this.maxUnexplainedMs, unexplainedMs);
      if (unexplainedMs > this.marginMs) {
        this.unexplained++;
        if (this.examples.length < 20)
          this.examples.push(
            `${o.label}: overran by ${Math.round(o.overMs)} ms, of which ${Math.round(stalled)} ms the event loop stalled`,
          );
      } else this.explained++;
    }
  }
}
