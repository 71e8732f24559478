/**
 * The client side of a chaos run. The service side (the shipped mock on loopback, the seeded chaos
 * proxy in front of it, the fixtures) runs in a child process (server.ts), so this process holds
 * the SDK's two clients (undici and a caller `fetch`) and the harness's counters, nothing else:
 * its heap growth after GC, from a warmed-up steady state, is the clients' own.
 *
 * Every call is a function of (seed, index) and is forgotten once it ended (run-calls.ts makes and
 * counts them): the harness keeps counters, the longest durations and the first few breaches,
 * never a record per call. What the clients say goes to a file, scanned for secrets after the heap
 * was measured. Payments and refunds go under idempotency keys: intents.ts counts how they ended,
 * the service side checks what they returned against the mock's records (keyed.ts).
 */
import { join } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';
import { MemoryIntentStore, PaymentsClient, SCOPES } from '../../src/index.js';
import { collectGarbage } from '../helpers/gc.mjs';
import { Server } from './channel.js';
import { CallRunner } from './run-calls.js';
import type { ChaosOptions, ChaosResult } from './run-options.js';
import { SecretScanner, Transcript } from './secrets.js';

export type { ChaosOptions, ChaosResult } from './run-options.js';

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
    // The checkouts' own store, as bounded: a checkout is rerun while its key is known, and in the
    // shared store a key that stayed unknown for seconds was the oldest one when it landed, so the
    // cap dropped it before the rerun could find it (the rerun then paid again: a bound of the
    // store that MemoryIntentStore documents, not kept by a harness that reruns; docs/reliability.md).
    const checkoutStore = new MemoryIntentStore({ maxIntents: options.maxIntents });
    const checkoutClients = {
      undici: new PaymentsClient({ ...common, intentStore: checkoutStore }),
      fetch: new PaymentsClient({
        ...common,
        intentStore: checkoutStore,
        fetch: (url, init) => globalThis.fetch(url, init),
      }),
    };

    const runner = new CallRunner({
      clients,
      checkoutClients,
      server,
      locationId: ready.locationId,
      transcript,
      plan,
      options,
      input,
      breach,
    });
    stops.push(() => runner.stop());

    /** Quiet (every message handled, the transcript written), then a full GC: the heap in use. */
    const settledHeap = async () => {
      await server.sync();
      transcript.flush();
      await new Promise((resolve) => setTimeout(resolve, 50));
      await collectGarbage();
      return process.memoryUsage().heapUsed;
    };

    await runner.run('warm', options.warmup);
    await server.collect(true);
    runner.reset();

    const baselineBytes = await settledHeap();
    const baselineIntents = intentStore.size;
    if (input.heapSnapshots) writeHeapSnapshot(join(input.heapSnapshots, 'before.heapsnapshot'));
    const samples: [number, number][] = [[0, baselineBytes]];
    const every = options.samples > 0 ? Math.max(1, Math.floor(options.calls / options.samples)) : 0;
    const startedAt = performance.now();
    let sampling = Promise.resolve();
    await runner.run('chaos', options.calls, (done) => {
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
    const clientLoopDelayMaxMs = Math.round(runner.lag.max);
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
    transcript.client(checkoutClients.undici);
    transcript.client(checkoutClients.fetch);
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
    const { attemptOverruns, deadlineOverruns, counts: c } = runner;
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
      keyed: runner.tally.figures,
      checkouts: runner.checkouts.figures,
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
