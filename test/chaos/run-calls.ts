// The calls of a chaos run: each drawn from (seed, index), made on one of the two clients, and counted
// (outcomes, the longest attempt and deadline against their limits, how keyed calls ended); what a
// keyed call returned or how it failed goes to the service side, which checks it (keyed.ts).
import { type PaymentsClient, PaymentsError } from '../../src/index.js';
import { invoke, keyed, keyOf, type Plan, type PlannedCall, planned } from './calls.js';
import type { Server } from './channel.js';
import { CheckoutTally, checkoutWithReruns } from './checkout.js';
import { IntentTally } from './intents.js';
import { LagMonitor, Overruns } from './lag.js';
import type { ChaosOptions } from './run-options.js';
import type { Transcript } from './secrets.js';

/** The measured window's figures (zeroed after the warm-up). */
function counters() {
  return {
    ok: 0,
    failed: 0,
    notPaymentsError: 0,
    outcomeUnknown: 0,
    failedByKind: {} as Record<string, number>,
    attempts: 0,
    attemptMaxMs: 0,
    deadlineCalls: 0,
    deadlineMaxMs: 0,
  };
}

export interface CallRunnerSetup {
  clients: Record<PlannedCall['transport'], PaymentsClient>;
  /** The clients of the checkouts (their own intent store: see harness.ts). */
  checkoutClients: Record<PlannedCall['transport'], PaymentsClient>;
  server: Server;
  locationId: string;
  transcript: Transcript;
  plan: Plan;
  options: { seed: number; concurrency: number; timeoutMs: number; marginMs: number };
  /** Self-test hooks and progress, as ChaosOptions has them. */
  input: Pick<ChaosOptions, 'plantWrongAdoption' | 'plantNaiveCheckout' | 'onProgress'>;
  /** Records a broken promise. */
  breach: (line: string) => void;
}

/** Makes a run's calls and keeps its counters; `stop()` ends its timers. */
export class CallRunner {
  counts = counters();
  readonly tally = new IntentTally();
  readonly checkouts = new CheckoutTally();
  readonly lag = new LagMonitor();
  readonly attemptOverruns: Overruns;
  readonly deadlineOverruns: Overruns;

  constructor(private readonly setup: CallRunnerSetup) {
    const { options } = setup;
    this.lag.start();
    this.attemptOverruns = new Overruns(options.marginMs, this.lag);
    this.deadlineOverruns = new Overruns(options.marginMs, this.lag);
    // Attempts in flight, by client and the SDK's call id: at most `concurrency` entries.
    const all = [
      ...Object.entries(setup.clients),
      ...Object.entries(setup.checkoutClients).map(([name, c]) => [`checkout ${name}`, c] as const),
    ];
    for (const [name, client] of all) {
      setup.transcript.listen(client);
      this.tally.listen(client);
      const started = new Map<string, number>();
      const ended = (callId: string, path: string) => {
        const t0 = started.get(callId);
        if (t0 === undefined) return;
        started.delete(callId);
        const now = performance.now();
        this.counts.attempts++;
        this.counts.attemptMaxMs = Math.max(this.counts.attemptMaxMs, now - t0);
        this.attemptOverruns.note(
          `${name} ${path} (${callId}), timeout ${options.timeoutMs} ms`,
          t0 + options.timeoutMs,
          now,
        );
      };
      client.on('request', (e) => started.set(e.callId, performance.now()));
      client.on('response', (e) => ended(e.callId, e.path));
      client.on('retry', (e) => ended(e.callId, e.path));
      client.on('end', (e) => ended(e.callId, e.path));
    }
  }

  /** Makes `total` calls named `prefix`-index at the run's concurrency; `sample` after each. */
  async run(prefix: string, total: number, sample?: (done: number) => void): Promise<void> {
    let next = 0;
    let done = 0;
    const worker = async () => {
      for (let i = next++; i < total; i = next++) {
        await this.#call(planned(this.setup.options.seed, prefix, i, this.setup.plan));
        done++;
        sample?.(done);
        if (done % 1000 === 0) this.setup.input.onProgress?.(done);
      }
    };
    await Promise.all(Array.from({ length: this.setup.options.concurrency }, worker));
  }

  /** After the warm-up: its overruns judged, then the measured window starts from zero. */
  reset(): void {
    this.attemptOverruns.judge();
    this.deadlineOverruns.judge();
    this.attemptOverruns.explained = 0;
    this.deadlineOverruns.explained = 0;
    this.lag.max = 0;
    this.counts = counters();
    this.tally.reset();
    this.checkouts.reset();
  }

  stop(): void {
    this.lag.stop();
    this.attemptOverruns.stop();
    this.deadlineOverruns.stop();
  }

  async #call(call: PlannedCall): Promise<void> {
    const { clients, server, locationId, transcript, options, input, breach } = this.setup;
    const c = this.counts;
    const fixture = await server.prepare(call.callId, call.kind);
    if (call.kind === 'charge') return this.#checkout(call);
    const t0 = performance.now();
    const kind = call.kind === 'payments.create' ? 'payment' : 'refund';
    try {
      const id = await invoke(clients[call.transport], call, fixture, locationId, options.timeoutMs);
      c.ok++;
      if (keyed(call.kind) && id !== undefined) {
        const adopted = this.tally.end(kind, keyOf(call.callId), 'ok');
        const planted = adopted && input.plantWrongAdoption ? fixture?.decoyId : undefined;
        server.send({ t: 'created', callId: call.callId, kind: call.kind, id: planted ?? id, adopted });
      }
    } catch (error) {
      c.failed++;
      c.failedByKind[call.kind] = (c.failedByKind[call.kind] ?? 0) + 1;
      const e = error as { outcomeUnknown?: boolean; idempotencyKey?: string };
      if (!(error instanceof PaymentsError)) {
        c.notPaymentsError++;
        breach(`${call.callId} ${call.kind}: threw a non-PaymentsError: ${String(error)}`);
      } else if (e.outcomeUnknown) c.outcomeUnknown++;
      if (keyed(call.kind)) {
        const message = error instanceof Error ? error.message : String(error);
        this.tally.end(kind, keyOf(call.callId), e.outcomeUnknown ? 'unknown' : 'known', message);
      }
      transcript.error(error);
      server.send({
        t: 'failure',
        callId: call.callId,
        kind: call.kind,
        outcomeUnknown: e.outcomeUnknown === true,
        idempotencyKey: e.idempotencyKey,
      });
    }
    if (call.deadlineMs !== undefined) {
      const now = performance.now();
      c.deadlineCalls++;
      c.deadlineMaxMs = Math.max(c.deadlineMaxMs, now - t0);
      this.deadlineOverruns.note(
        `${call.callId} ${call.kind}, deadline ${call.deadlineMs} ms`,
        t0 + call.deadlineMs,
        now,
      );
    }
  }

  /** A checkout, rerun until it succeeds; each run is judged against its own deadline. */
  async #checkout(call: PlannedCall): Promise<void> {
    const { checkoutClients, server, locationId, transcript, options, input, breach } = this.setup;
    const c = this.counts;
    const opts = {
      headers: { 'x-chaos-call': call.callId },
      timeoutMs: options.timeoutMs,
      ...(call.deadlineMs === undefined ? {} : { deadlineMs: call.deadlineMs }),
    };
    const onRun = (t0: number, error: unknown) => {
      if (error !== undefined) {
        // Every failed run, not only the last: what it threw is checked and scanned for secrets.
        if (!(error instanceof PaymentsError)) {
          c.notPaymentsError++;
          breach(`${call.callId} charge: threw a non-PaymentsError: ${String(error)}`);
        }
        transcript.error(error);
      }
      if (call.deadlineMs === undefined) return;
      const now = performance.now();
      c.deadlineCalls++;
      c.deadlineMaxMs = Math.max(c.deadlineMaxMs, now - t0);
      this.deadlineOverruns.note(
        `${call.callId} charge, deadline ${call.deadlineMs} ms`,
        t0 + call.deadlineMs,
        now,
      );
    };
    const client = checkoutClients[call.transport];
    const run = await checkoutWithReruns(
      client,
      call.callId,
      locationId,
      opts,
      onRun,
      input.plantNaiveCheckout,
    );
    this.checkouts.end(call.callId, run);
    if (run.result !== undefined) {
      c.ok++;
      server.send({ t: 'created', callId: call.callId, kind: 'charge', id: run.result, adopted: false });
      return;
    }
    c.failed++;
    c.failedByKind.charge = (c.failedByKind.charge ?? 0) + 1;
    if ((run.error as { outcomeUnknown?: boolean }).outcomeUnknown) c.outcomeUnknown++;
  }
}
