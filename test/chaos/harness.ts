/**
 * The client side of a chaos run. The service side (the shipped mock on loopback, the seeded chaos
 * proxy in front of it, the fixtures) runs in a child process (server.ts), so this process holds
 * the SDK's two clients (undici and a caller `fetch`) and the harness's counters, nothing else:
 * its heap growth after GC, from a warmed-up steady state, is the clients' own.
 *
 * Every call is a function of (seed, index) and is forgotten once it ended: the harness keeps
 * counters, the longest durations and the first few breaches, never a record per call. What the
 * clients say goes to a file, scanned for secrets after the heap was measured. Payments and refunds
 * go under idempotency keys: intents.ts counts how they ended, the service side checks what they
 * returned against the mock's records (keyed.ts).
 */
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { MemoryIntentStore, PaymentsClient, PaymentsError, SCOPES } from '../../src/index.js';
import { invoke, keyed, keyOf, type PlannedCall, planned } from './calls.js';
import { Server } from './channel.js';
import { collectGarbage } from './gc.js';
import { IntentTally, type KeyedFiguresClient } from './intents.js';
import { LagMonitor, Overruns } from './lag.js';
import { SecretScanner, Transcript } from './secrets.js';
import type { FAULTS, Kind, ServerSummary } from './types.js';

export interface ChaosOptions {
  /** Calls measured. */
  calls: number;
  concurrency: number;
  seed: number;
  /** Calls made first, to reach a steady state (JIT, pools, token), before the baseline heap. @default 400 */
  warmup?: number;
  /** Share of requests the proxy breaks. @default 0.13 */
  faultRate?: number;
  /** Every attempt's `timeoutMs`. @default 1000 */
  timeoutMs?: number;
  /** The `deadlineMs` of about one call in five. @default 2500 */
  deadlineMs?: number;
  /**
   * What an attempt or a call may overrun its limit by (timer granularity, abort and close), on top
   * of the event loop's stalls at that moment (a loaded machine). @default 250
   */
  marginMs?: number;
  /** Heap samples (after GC) taken during the measured calls, for the slope. @default 0 */
  samples?: number;
  /** The self-test's defect (`duplicateOrders` of ServerOptions in types.ts). */
  duplicateOrders?: boolean | undefined;
  /** Payments and refunds with a lost answer: `auto` reconciles, `off` is 0.2.0's. @default 'auto' */
  reconcile?: 'auto' | 'off';
  /**
   * The clients' `settleMs`: above the longest the mock may still process a request after the
   * client gave up on it: a `slow_request` reaches it up to timeoutMs + 600 ms after the proxy got
   * it, and the event loops of both processes may each stall about a second on a loaded machine
   * (docs/reliability.md). @default 5000
   */
  settleMs?: number;
  /**
   * The `deadlineMs` of one keyed call in five: room for two sends each reconciled (timeoutMs +
   * settleMs) and a third. @default 15000
   */
  keyedDeadlineMs?: number;
  /** The mix of calls (a self-test's). @default calls.ts's WEIGHTS */
  weights?: Partial<Record<Kind, number>> | undefined;
  /** Only these faults (a self-test's). @default every fault */
  faults?: (typeof FAULTS)[number][] | undefined;
  /**
   * A self-test's defect on the client side: an adopted payment is reported as the order's decoy,
   * as if reconciliation had adopted a payment its key did not make.
   */
  plantWrongAdoption?: boolean | undefined;
  /**
   * The `maxIntents` of the intent store both clients share: small enough that the warm-up fills
   * it (400 calls make about 190 keyed intents), so the baseline heap already holds a full store
   * and the heap check measures what grows beyond the store's bound (docs/reliability.md). @default 150
   */
  maxIntents?: number;
  /** Writes a heap snapshot after the warm-up and one after the calls there (to find a leak). */
  heapSnapshots?: string | undefined;
  /** Called every 1,000 calls. */
  onProgress?: ((done: number) => void) | undefined;
}

export interface ChaosResult {
  options: Required<
    Omit<
      ChaosOptions,
      'duplicateOrders' | 'onProgress' | 'heapSnapshots' | 'weights' | 'faults' | 'plantWrongAdoption'
    >
  >;
  calls: number;
  ok: number;
  failed: number;
  /** Failures that were not a `PaymentsError` (must be 0). */
  notPaymentsError: number;
  outcomeUnknown: number;
  failedByKind: Record<string, number>;
  /** The keyed payments and refunds, as the clients saw them (the measured calls). */
  keyed: KeyedFiguresClient;
  durationMs: number;
  /**
   * Attempts as the clients timed them: from the `request` event to the attempt's end. `explained`:
   * past timeout + margin, but not past the event loop's stalls at the time; `over`: breaches.
   */
  attempts: { count: number; maxMs: number; explained: number; over: number; maxUnexplainedMs: number };
  /** Calls with a `deadlineMs`: their longest duration, and the same judgement. */
  deadlines: { calls: number; maxMs: number; explained: number; over: number };
  heap: {
    baselineBytes: number;
    afterBytes: number;
    growthBytes: number;
    /** [calls done, heapUsed after GC] during the measured calls. */
    samples: [number, number][];
    /**
     * The shared intent store's size after the warm-up and after the calls, and the intents it
     * keeps by design beyond its cap at the end (open or unknown: never dropped until settled).
     */
    intents: { baseline: number; after: number; unsettled: number };
  };
  clientLoopDelayMaxMs: number;
  unhandled: number;
  transcript: { lines: number; secretsScanned: number; found: Record<string, number>; controlFound: boolean };
  server: ServerSummary;
  /** Every broken promise, as lines: empty when the SDK kept them all. */
  broken: string[];
}

const HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** Only loopback addresses may be targets: the proxy and the mock never leave the machine. */
export function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!HOSTS.has(host)) throw new Error(`chaos targets must be loopback addresses, not ${host}`);
}

/** Runs a warm-up, then the measured calls, and checks every promise. */
export async function runChaos(input: ChaosOptions): Promise<ChaosResult> {
  const options = {
    warmup: 400,
    faultRate: 0.13,
    timeoutMs: 1_000,
    deadlineMs: 2_500,
    marginMs: 250,
    samples: 0,
    reconcile: 'auto' as const,
    settleMs: 5_000,
    keyedDeadlineMs: 15_000,
    maxIntents: 150,
    ...input,
  };
  const plan = {
    deadlineMs: options.deadlineMs,
    keyedDeadlineMs: options.keyedDeadlineMs,
    weights: input.weights,
  };
  const broken: string[] = [];
  const breach = (line: string) => {
    if (broken.length < 50) broken.push(line);
  };
  let unhandled = 0;
  const onUnhandled = (reason: unknown) => {
    unhandled++;
    breach(`unhandled rejection: ${String(reason)}`);
  };
  process.on('unhandledRejection', onUnhandled);
  const server = new Server({
    seed: options.seed,
    faultRate: options.faultRate,
    timeoutMs: options.timeoutMs,
    marginMs: options.marginMs,
    duplicateOrders: input.duplicateOrders,
    faults: input.faults,
  });
  const transcript = new Transcript();
  const intentStore = new MemoryIntentStore({ maxIntents: options.maxIntents });
  const stops: (() => void)[] = [];
  try {
    const ready = await server.ready;
    assertLoopback(ready.proxyUrl);
    const common = {
      clientId: ready.clientId,
      clientSecret: ready.clientSecret,
      baseUrl: ready.proxyUrl,
      authUrl: ready.proxyUrl,
      scopes: [...SCOPES],
      timeoutMs: options.timeoutMs,
      logger: transcript.logger,
      logLevel: 'debug' as const,
      reconcile: options.reconcile,
      settleMs: options.settleMs,
      // Bounded and full before the baseline: what it holds by design is not counted as growth.
      intentStore,
    };
    const clients = {
      undici: new PaymentsClient(common),
      fetch: new PaymentsClient({ ...common, fetch: (url, init) => globalThis.fetch(url, init) }),
    };

    // Counters: the measured window's figures. Reset after the warm-up.
    const c = {
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
    const tally = new IntentTally();
    const lag = new LagMonitor();
    lag.start();
    const attemptOverruns = new Overruns(options.marginMs, lag);
    const deadlineOverruns = new Overruns(options.marginMs, lag);
    stops.push(
      () => lag.stop(),
      () => attemptOverruns.stop(),
      () => deadlineOverruns.stop(),
    );
    // Attempts in flight, by client and the SDK's call id: at most `concurrency` entries.
    for (const [name, client] of Object.entries(clients)) {
      transcript.listen(client);
      tally.listen(client);
      const started = new Map<string, number>();
      const ended = (callId: string, path: string) => {
        const t0 = started.get(callId);
        if (t0 === undefined) return;
        started.delete(callId);
        const now = performance.now();
        c.attempts++;
        c.attemptMaxMs = Math.max(c.attemptMaxMs, now - t0);
        attemptOverruns.note(
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

    const runCalls = async (prefix: string, total: number, sample?: (done: number) => void) => {
      let next = 0;
      let done = 0;
      const worker = async () => {
        for (let i = next++; i < total; i = next++) {
          const call: PlannedCall = planned(options.seed, prefix, i, plan);
          const fixture = await server.prepare(call.callId, call.kind);
          const t0 = performance.now();
          const kind = call.kind === 'payments.create' ? 'payment' : 'refund';
          try {
            const id = await invoke(
              clients[call.transport],
              call,
              fixture,
              ready.locationId,
              options.timeoutMs,
            );
            c.ok++;
            if (keyed(call.kind) && id !== undefined) {
              const adopted = tally.end(kind, keyOf(call.callId), 'ok');
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
              tally.end(kind, keyOf(call.callId), e.outcomeUnknown ? 'unknown' : 'known', message);
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
            deadlineOverruns.note(
              `${call.callId} ${call.kind}, deadline ${call.deadlineMs} ms`,
              t0 + call.deadlineMs,
              now,
            );
          }
          done++;
          sample?.(done);
          if (done % 1000 === 0) input.onProgress?.(done);
        }
      };
      await Promise.all(Array.from({ length: options.concurrency }, worker));
    };

    /** Quiet (every message handled, the transcript written), then a full GC: the heap in use. */
    const settledHeap = async () => {
      await server.sync();
      transcript.flush();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await collectGarbage();
      return process.memoryUsage().heapUsed;
    };

    await runCalls('warm', options.warmup);
    await server.collect(true);
    attemptOverruns.judge();
    deadlineOverruns.judge();
    attemptOverruns.explained = 0;
    deadlineOverruns.explained = 0;
    lag.max = 0;
    for (const key of Object.keys(c) as (keyof typeof c)[]) {
      if (key !== 'failedByKind') c[key] = 0;
    }
    c.failedByKind = {};
    tally.reset();

    const baselineBytes = await settledHeap();
    const baselineIntents = intentStore.size;
    if (input.heapSnapshots) writeHeapSnapshot(join(input.heapSnapshots, 'before.heapsnapshot'));
    const samples: [number, number][] = [[0, baselineBytes]];
    const every = options.samples > 0 ? Math.max(1, Math.floor(options.calls / options.samples)) : 0;
    const startedAt = performance.now();
    let sampling = Promise.resolve();
    await runCalls('chaos', options.calls, (done) => {
      if (every > 0 && done % every === 0 && done < options.calls) {
        sampling = sampling
          .then(() => collectGarbage())
          .then(() => {
            samples.push([done, process.memoryUsage().heapUsed]);
          });
      }
    });
    await sampling;
    const durationMs = performance.now() - startedAt;
    const clientLoopDelayMaxMs = Math.round(lag.max);
    const afterBytes = await settledHeap();
    samples.push([options.calls, afterBytes]);
    const intents = {
      baseline: baselineIntents,
      after: intentStore.size,
      unsettled: (await intentStore.unfinished(0)).length,
    };
    if (input.heapSnapshots) writeHeapSnapshot(join(input.heapSnapshots, 'after.heapsnapshot'));

    // What the clients themselves show, then the scan (after the heap was measured).
    transcript.client(clients.undici);
    transcript.client(clients.fetch);
    transcript.close();
    const server_ = await server.collect(false);
    const scanner = new SecretScanner(server_.secrets);
    const found = await scanner.scanFile(transcript.path);
    // Positive control: a real minted token, written as a careless log line would, is found.
    const token = server_.secrets.find(([, name]) => name === 'an access token')?.[0];
    const checkout = server_.secrets.find(([, name]) => name === 'a hosted checkout URL')?.[0];
    const controlFound =
      token !== undefined &&
      checkout !== undefined &&
      scanner
        .scan(`debug POST /pos/v1/orders {"authorization":"Bearer ${token}"}`)
        .includes('an access token') &&
      scanner.scan(`info redirect to ${checkout}`).includes('a hosted checkout token') &&
      scanner.scan(`client ${inspect_(ready.clientSecret)}`).includes('the client secret');
    if (!controlFound) breach('the secret scan did not find the planted secrets (positive control)');
    for (const [name, lines] of found) breach(`${name} leaked into the clients' output (${lines} lines)`);
    for (const line of server_.broken) breach(line);
    // The clients close an abandoned request when their own timer fires, so a stall of the clients'
    // loop delays it as much, which the proxy's clock cannot tell from a late client: an overrun within
    // the clients' longest stall is theirs (their own clock judges every attempt above), not the SDK's.
    for (const line of server_.proxy.heldOverExamples) {
      const held = Number(/held (\d+) ms/.exec(line)?.[1] ?? Number.POSITIVE_INFINITY);
      if (held > options.timeoutMs + options.marginMs + clientLoopDelayMaxMs)
        breach(`an abandoned request ${line} (the clients' loop stalled at most ${clientLoopDelayMaxMs} ms)`);
    }
    if (unhandled > 0) breach(`${unhandled} unhandled rejections`);
    attemptOverruns.judge();
    deadlineOverruns.judge();
    for (const line of attemptOverruns.examples) breach(`an attempt ${line}`);
    for (const line of deadlineOverruns.examples) breach(`a call ${line}`);

    return {
      options: {
        calls: options.calls,
        concurrency: options.concurrency,
        seed: options.seed,
        warmup: options.warmup,
        faultRate: options.faultRate,
        timeoutMs: options.timeoutMs,
        deadlineMs: options.deadlineMs,
        marginMs: options.marginMs,
        samples: options.samples,
        reconcile: options.reconcile,
        settleMs: options.settleMs,
        keyedDeadlineMs: options.keyedDeadlineMs,
        maxIntents: options.maxIntents,
      },
      calls: options.calls,
      ok: c.ok,
      failed: c.failed,
      notPaymentsError: c.notPaymentsError,
      outcomeUnknown: c.outcomeUnknown,
      failedByKind: c.failedByKind,
      keyed: tally.figures,
      durationMs,
      attempts: {
        count: c.attempts,
        maxMs: Math.round(c.attemptMaxMs),
        explained: attemptOverruns.explained,
        over: attemptOverruns.unexplained,
        maxUnexplainedMs: Math.round(attemptOverruns.maxUnexplainedMs),
      },
      deadlines: {
        calls: c.deadlineCalls,
        maxMs: Math.round(c.deadlineMaxMs),
        explained: deadlineOverruns.explained,
        over: deadlineOverruns.unexplained,
      },
      heap: { baselineBytes, afterBytes, growthBytes: afterBytes - baselineBytes, samples, intents },
      clientLoopDelayMaxMs,
      unhandled,
      transcript: {
        lines: transcript.lines,
        secretsScanned: scanner.size,
        found: Object.fromEntries(found),
        controlFound,
      },
      server: server_,
      broken,
    };
  } finally {
    for (const stop of stops) stop();
    transcript.close();
    transcript.remove();
    server.close();
    process.off('unhandledRejection', onUnhandled);
  }
}

function inspect_(value: string): string {
  return JSON.stringify({ clientSecret: value });
}
