/**
 * The client side of a chaos run. The service side (the shipped mock on loopback, the seeded chaos
 * proxy in front of it, the fixtures) runs in a child process (server.ts), so this process holds
 * the SDK's two clients (undici and a caller `fetch`) and the harness's counters, nothing else:
 * its heap growth after GC, from a warmed-up steady state, is the clients' own.
 *
 * Every call is a function of (seed, index) and is forgotten once it ended: the harness keeps
 * counters, the longest durations and the first few breaches, never a record per call. What the
 * clients say goes to a file, scanned for secrets after the heap was measured.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';
import { PaymentsClient, PaymentsError, SCOPES } from '../../src/index.js';
import { invoke, type PlannedCall, planned } from './calls.js';
import { collectGarbage } from './gc.js';
import { LagMonitor, Overruns } from './lag.js';
import { SecretScanner, Transcript } from './secrets.js';
import type { Fixture, Kind, ServerOptions, ServerSummary, ToClient, ToServer } from './types.js';

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
  /** The self-test's defect (see {@link ServerOptions.duplicateOrders}). */
  duplicateOrders?: boolean | undefined;
  /** Writes a heap snapshot after the warm-up and one after the calls there (to find a leak). */
  heapSnapshots?: string | undefined;
  /** Called every 1,000 calls. */
  onProgress?: ((done: number) => void) | undefined;
}

export interface ChaosResult {
  options: Required<Omit<ChaosOptions, 'duplicateOrders' | 'onProgress' | 'heapSnapshots'>>;
  calls: number;
  ok: number;
  failed: number;
  /** Failures that were not a `PaymentsError` (must be 0). */
  notPaymentsError: number;
  outcomeUnknown: number;
  failedByKind: Record<string, number>;
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

/** The server process and a request/answer channel to it. */
class Server {
  readonly #child: ChildProcess;
  readonly #waiting = new Map<number, { resolve: (message: ToClient) => void; reject: (e: Error) => void }>();
  #exited: Error | undefined;
  #next = 0;
  readonly ready: Promise<Extract<ToClient, { t: 'ready' }>>;

  constructor(options: ServerOptions) {
    this.#child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), [JSON.stringify(options)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.ready = new Promise((resolve, reject) => {
      // A server that dies fails every question in flight, instead of leaving the run hanging.
      this.#child.once('exit', (code, signal) => {
        this.#exited = new Error(`the chaos server exited (${signal ?? code})`);
        reject(this.#exited);
        for (const { reject: fail } of this.#waiting.values()) fail(this.#exited);
        this.#waiting.clear();
      });
      this.#child.on('message', (message: ToClient) => {
        if (message.t === 'ready') resolve(message);
        else this.#waiting.get(message.id)?.resolve(message);
      });
    });
  }

  send(message: ToServer): void {
    this.#child.send(message);
  }

  #ask<T extends ToClient>(message: (id: number) => ToServer): Promise<T> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      if (this.#exited) return reject(this.#exited);
      this.#waiting.set(id, {
        resolve: (answer) => {
          this.#waiting.delete(id);
          resolve(answer as T);
        },
        reject,
      });
      this.#child.send(message(id));
    });
  }

  async prepare(callId: string, kind: Kind): Promise<Fixture | undefined> {
    const answer = await this.#ask<Extract<ToClient, { t: 'fixture' }>>((id) => ({
      t: 'prepare',
      id,
      callId,
      kind,
    }));
    if (answer.error) throw new Error(`preparing ${callId}: ${answer.error}`);
    return answer.fixture;
  }

  /** Resolves once the server has handled every message sent before. */
  async sync(): Promise<void> {
    await this.#ask((id) => ({ t: 'sync', id }));
  }

  async collect(reset: boolean): Promise<ServerSummary> {
    return (await this.#ask<Extract<ToClient, { t: 'summary' }>>((id) => ({ t: 'collect', id, reset })))
      .summary;
  }

  close(): void {
    if (this.#child.connected) this.#child.disconnect();
  }
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
    ...input,
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
  });
  const transcript = new Transcript();
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
          const call: PlannedCall = planned(options.seed, prefix, i, options.deadlineMs);
          const fixture = await server.prepare(call.callId, call.kind);
          const t0 = performance.now();
          try {
            await invoke(clients[call.transport], call, fixture, ready.locationId, options.timeoutMs);
            c.ok++;
          } catch (error) {
            c.failed++;
            c.failedByKind[call.kind] = (c.failedByKind[call.kind] ?? 0) + 1;
            const e = error as { outcomeUnknown?: boolean; idempotencyKey?: string };
            if (!(error instanceof PaymentsError)) {
              c.notPaymentsError++;
              breach(`${call.callId} ${call.kind}: threw a non-PaymentsError: ${String(error)}`);
            } else if (e.outcomeUnknown) c.outcomeUnknown++;
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

    const baselineBytes = await settledHeap();
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
    for (const line of server_.proxy.heldOverExamples) breach(`an abandoned request ${line}`);
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
      },
      calls: options.calls,
      ok: c.ok,
      failed: c.failed,
      notPaymentsError: c.notPaymentsError,
      outcomeUnknown: c.outcomeUnknown,
      failedByKind: c.failedByKind,
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
      heap: { baselineBytes, afterBytes, growthBytes: afterBytes - baselineBytes, samples },
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
