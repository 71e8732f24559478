// fileStores (api.md 22) beyond the intent store contract (test/fleets/intent-stores.test.ts runs
// that): processes killed with SIGKILL while the service's answer is held, a new process on the same
// directory returning the payment or refund (one of each); two processes racing one key (one
// payment; the control, one directory each, pays twice); the order of writes, syncs and the send
// (with the control: a store that skips its syncs is caught); the de-duplication store shared by two
// instances; pruning; and the runtimes without a file system.
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as nodeFs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ConfigurationError,
  type IntentRecord,
  MemoryIntentStore,
  PaymentsClient,
  type PaymentsClientOptions,
  SCOPES,
} from '../../src/index.js';
import { type FileStoreFs, fileStores } from '../../src/stores/index.js';
import { createWebhookHandler, MemoryDedupeStore, webhookSignatureHeader } from '../../src/webhooks/index.js';
import { isPaymentPost } from '../fleets/checkout-crash.js';
import { type CountingMock, startCountingMock } from '../fleets/counting-mock.js';
import { runtimeGraph } from '../helpers/runtime-graph.js';
import type { FileCommand, FileReply } from './file-worker.js';

// Each child process loads the SDK through tsx: a few seconds on a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const WORKER = fileURLToPath(new URL('./file-worker.ts', import.meta.url));
/**
 * The killed process's deadline, and so its lease on the key: the new process waits this long at
 * most. Its token is minted before (`warm`), so this covers the payment alone, on a loaded machine.
 */
const LEASE_MS = 3_000;
/** No faults and one call in flight: the mock answers in milliseconds. */
const SETTLE_MS = 300;

let m: CountingMock;
beforeAll(async () => {
  m = await startCountingMock();
});
afterAll(async () => {
  await m?.close();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'pp-files-'));
  folders.push(dir);
  return dir;
};

const isRefundPost = (request: Request) =>
  request.method === 'POST' && new URL(request.url).pathname.endsWith('/refunds');
const paymentsOf = (orderId: string) => m.mock.snapshot().payments.filter((p) => p.order_id === orderId);
const refundsOf = (paymentId: string) => m.mock.snapshot().refunds.filter((r) => r.payment_id === paymentId);

interface Worker {
  call(cmd: FileCommand): Promise<FileReply>;
  /** SIGKILL: nothing runs after it; resolves once the process is gone. */
  kill(): Promise<void>;
}

/** A process of the partner's server with its client on `dir` (file-worker.ts). */
function startWorker(dir: string, options: PaymentsClientOptions): Promise<Worker> {
  const child: ChildProcess = fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, PP_STORE_DIR: dir, PP_CLIENT_OPTIONS: JSON.stringify(options) },
  });
  const pending = new Map<number, { resolve(r: FileReply): void; reject(e: Error): void }>();
  let next = 1;
  const gone = new Promise<void>((done) => child.once('exit', () => done()));
  return new Promise((ready, failed) => {
    child.on('message', (message: { id: number; reply: FileReply }) => {
      if (message.id === 0) {
        ready({
          call: (cmd) =>
            new Promise((res, rej) => {
              const id = next++;
              pending.set(id, { resolve: res, reject: rej });
              child.send({ id, cmd });
            }),
          async kill() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
            await gone;
          },
        });
        return;
      }
      pending.get(message.id)?.resolve(message.reply);
      pending.delete(message.id);
    });
    child.on('exit', (code, signal) => {
      const error = new Error(`worker exited (${signal ?? code})`);
      failed(error);
      for (const p of pending.values()) p.reject(error);
      pending.clear();
    });
  });
}

/** A client of the fleet's machine client in this process, through the mock directly. */
function localClient(options: PaymentsClientOptions, onRequest?: (request: Request) => void) {
  return new PaymentsClient({
    ...options,
    baseUrl: 'https://api.payments.test',
    authUrl: 'https://api.payments.test',
    fetch: (input, init) => {
      const request = new Request(input, init);
      onRequest?.(request);
      return m.mock.fetch(request);
    },
  });
}

describe('fileStores across processes killed with SIGKILL', () => {
  it('a payment made by the service whose answer never came back: a new process on the directory returns it, one payment', async () => {
    const dir = folder();
    const { options, orderIds } = await m.fleetClient('high', { orders: 1, totalCents: 5_000 });
    const orderId = orderIds[0]!;
    const key = `pay-${orderId}`;
    const pay: FileCommand = { op: 'pay', orderId, key, amountCents: 1_000 };
    const first = await startWorker(dir, {
      ...options,
      maxRetries: 1,
      settleMs: SETTLE_MS,
      deadlineMs: LEASE_MS,
    });
    await first.call({ op: 'warm', orderId }); // its token minted: the short deadline is the payment's own
    let posts = 0;
    m.door = async (request) => {
      if (!isPaymentPost(request)) return;
      posts++;
      if (posts > 1) return;
      const answer = await m.mock.fetch(request); // the service made the payment
      await first.kill(); // its answer reaches no one
      return answer;
    };
    try {
      await expect(first.call(pay)).rejects.toThrow(/worker exited \(SIGKILL\)/);
      expect(paymentsOf(orderId)).toHaveLength(1);
      const second = await startWorker(dir, {
        ...options,
        maxRetries: 1,
        settleMs: SETTLE_MS,
        deadlineMs: 10_000,
      });
      const rerun = await second.call(pay);
      await second.kill();
      const payments = paymentsOf(orderId);
      expect(payments).toHaveLength(1);
      expect(rerun).toEqual({ ok: true, id: payments[0]!.payment_id });
      expect(posts).toBe(1); // the rerun learned it from the service's records, and sent nothing
      const kept = await fileStores(dir).intentStore.get(key);
      expect(kept).toMatchObject({ state: 'landed', resultId: payments[0]!.payment_id });
    } finally {
      m.door = undefined;
    }
  });

  it('a refund made by the service whose answer never came back: once its event is noted, a new process returns it, one refund', async () => {
    const dir = folder();
    const fleet = await m.fleetClient('high', { orders: 1, totalCents: 3_000 });
    const options = { ...fleet.options, scopes: [...SCOPES] }; // refunds included
    const orderId = fleet.orderIds[0]!;
    const payment = await localClient(options).payments.create(orderId, {
      method: 'card',
      amount_cents: 3_000,
    });
    m.mock.processor.approve(payment.payment_id);
    m.mock.processor.settle(payment.payment_id);
    const key = `refund-${payment.payment_id}`;
    const refund: FileCommand = {
      op: 'refund',
      orderId,
      paymentId: payment.payment_id,
      key,
      amountCents: 1_000,
    };
    const first = await startWorker(dir, {
      ...options,
      maxRetries: 1,
      settleMs: SETTLE_MS,
      deadlineMs: LEASE_MS,
    });
    await first.call({ op: 'warm', orderId }); // its token minted: the short deadline is the payment's own
    let posts = 0;
    m.door = async (request) => {
      if (!isRefundPost(request)) return;
      posts++;
      if (posts > 1) return;
      const answer = await m.mock.fetch(request);
      await first.kill();
      return answer;
    };
    try {
      await expect(first.call(refund)).rejects.toThrow(/worker exited \(SIGKILL\)/);
      const made = refundsOf(payment.payment_id);
      expect(made).toHaveLength(1);
      // The service lists no refunds of a payment: the webhook receiver of this machine (this
      // process) notes the payment.refunded event in the same directory.
      m.mock.processor.confirmRefund(made[0]!.refund_id);
      const event = m.mock.webhooks
        .events()
        .find((e) => (e.resource as { refund_id?: string }).refund_id === made[0]!.refund_id)!;
      const secret = 'whsec_test_file_stores';
      const handler = createWebhookHandler({ secret, on: {}, intentStore: fileStores(dir).intentStore });
      const body = JSON.stringify(event);
      const delivered = await handler.fetch(
        new Request('http://127.0.0.1/hooks', {
          method: 'POST',
          body,
          headers: { 'x-service-signature': webhookSignatureHeader(body, secret) },
        }),
      );
      expect(delivered.status).toBe(200);

      const second = await startWorker(dir, {
        ...options,
        maxRetries: 1,
        settleMs: SETTLE_MS,
        deadlineMs: 10_000,
      });
      const rerun = await second.call(refund);
      await second.kill();
      expect(refundsOf(payment.payment_id)).toHaveLength(1);
      expect(rerun).toEqual({ ok: true, id: made[0]!.refund_id });
      expect(posts).toBe(1);
    } finally {
      m.door = undefined;
    }
  });

  it('two processes racing new keys on one directory: one payment per key, both answered with it; the control (a directory each) pays twice', async () => {
    const race = async (dirs: [string, string], keys: number) => {
      const { options, orderIds } = await m.fleetClient('high', { orders: keys, totalCents: 5_000 });
      const client = { ...options, maxRetries: 1, settleMs: SETTLE_MS, deadlineMs: 20_000 };
      const workers = await Promise.all(dirs.map((dir) => startWorker(dir, client)));
      try {
        const answers: FileReply[][] = [];
        for (const orderId of orderIds) {
          const pay: FileCommand = { op: 'pay', orderId, key: `race-${orderId}`, amountCents: 1_000 };
          answers.push(await Promise.all(workers.map((w) => w.call(pay))));
        }
        return orderIds.map((orderId, i) => ({ answers: answers[i]!, payments: paymentsOf(orderId) }));
      } finally {
        await Promise.all(workers.map((w) => w.kill()));
      }
    };
    const shared = folder();
    for (const { answers, payments } of await race([shared, shared], 4)) {
      expect(payments).toHaveLength(1);
      expect(answers).toEqual([
        { ok: true, id: payments[0]!.payment_id },
        { ok: true, id: payments[0]!.payment_id },
      ]);
    }
    const [control] = await race([folder(), folder()], 1);
    expect(control!.payments).toHaveLength(2);
  });
});

/** `node:fs/promises` recording, in order, each write, sync, link and rename (and skipping syncs if told). */
function recordingFs(ops: string[], skipSync = false): FileStoreFs {
  return {
    mkdir: (path, options) => nodeFs.mkdir(path, options),
    async open(path, flags) {
      const handle = await nodeFs.open(path, flags);
      return {
        async writeFile(data) {
          await handle.writeFile(data);
          ops.push(`write ${path}`);
        },
        async sync() {
          if (skipSync) return; // the planted defect: the data may still be in the page cache
          await handle.sync();
          ops.push(`sync ${path}`);
        },
        close: () => handle.close(),
      };
    },
    async link(from, to) {
      await nodeFs.link(from, to);
      ops.push(`place ${from} ${to}`);
    },
    async rename(from, to) {
      await nodeFs.rename(from, to);
      ops.push(`place ${from} ${to}`);
    },
    unlink: (path) => nodeFs.unlink(path),
    rmdir: (path) => nodeFs.rmdir(path),
    rm: (path, options) => nodeFs.rm(path, options),
    readdir: (path) => nodeFs.readdir(path),
    readFile: (path, encoding) => nodeFs.readFile(path, encoding),
    stat: (path) => nodeFs.stat(path),
  };
}

/**
 * What was not on disk when the payment went out: an intent file named before its content was
 * synced, or whose folder (the name) was not synced after it and before the send; or no intent at all.
 */
function unsyncedAtSend(ops: string[]): string[] {
  const send = ops.indexOf('send');
  expect(send).toBeGreaterThan(0);
  const before = ops.slice(0, send);
  const problems: string[] = [];
  const placed = before.flatMap((op, i) => {
    const [verb, from, to] = op.split(' ');
    return verb === 'place' ? [{ i, from: from!, to: to! }] : [];
  });
  if (!placed.some((p) => p.to.includes('/orders/'))) problems.push('no intent was written before the send');
  for (const { i, from, to } of placed) {
    if (!before.slice(0, i).includes(`sync ${from}`))
      problems.push(`${to}: named before its content was synced`);
    const dir = to.slice(0, to.lastIndexOf('/'));
    if (!before.slice(i + 1).includes(`sync ${dir}`))
      problems.push(`${to}: its name was not synced before the send`);
  }
  return problems;
}

describe('fileStores writes and syncs an intent before its payment is sent', () => {
  const payOnce = async (skipSync: boolean) => {
    const dir = folder();
    const ops: string[] = [];
    const { options, orderIds } = await m.fleetClient('high', { orders: 1, totalCents: 5_000 });
    const { intentStore } = fileStores(dir, { fs: recordingFs(ops, skipSync) });
    const client = localClient({ ...options, intentStore }, (request) => {
      if (isPaymentPost(request)) ops.push('send');
    });
    await client.payments.create(
      orderIds[0]!,
      { method: 'card', amount_cents: 1_000 },
      { idempotencyKey: 'k' },
    );
    return ops;
  };

  it('each file of the intent is synced, then named, then its folder synced, all before the send', async () => {
    const ops = await payOnce(false);
    expect(unsyncedAtSend(ops)).toEqual([]);
    // The intent's ledger (orders/) and the key's pointer (keys/), both before the send.
    const send = ops.indexOf('send');
    expect(
      ops
        .slice(0, send)
        .filter((op) => op.startsWith('place '))
        .map((op) => op.split('/').at(-2)),
    ).toEqual(expect.arrayContaining([expect.any(String), 'keys']));
  });

  it('control: the same check catches a store that skips its syncs', async () => {
    const problems = unsyncedAtSend(await payOnce(true));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toMatch(/named before its content was synced/);
    expect(problems.join('\n')).toMatch(/its name was not synced before the send/);
  });
});

describe('fileStores dedupeStore', () => {
  it('two instances on one directory: an id is claimed once, again after delete or expiry; 8 claims at once, one wins', async () => {
    const dir = folder();
    const [a, b] = [fileStores(dir).dedupeStore, fileStores(dir).dedupeStore];
    expect(await a.add('evt_1', 60_000)).toBe(true);
    expect(await b.add('evt_1', 60_000)).toBe(false);
    await b.delete('evt_1');
    expect(await a.add('evt_1', 60_000)).toBe(true);
    expect(await b.add('evt_short', 1)).toBe(true);
    await new Promise((r) => setTimeout(r, 15)); // lets the 1 ms claim lapse
    expect(await a.add('evt_short', 60_000)).toBe(true);
    const claims = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).add('evt_race', 60_000)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
  });
});

describe('fileStores retention', () => {
  const record = (key: string, orderId: string, at: number): IntentRecord => ({
    key,
    kind: 'payment',
    fingerprint: 'fp',
    orderId,
    amountCents: 1_000,
    method: 'card',
    state: 'open',
    sends: 1,
    createdAt: at,
    updatedAt: at,
  });

  it('prune forgets an order whose keys all finished before the TTL, keeps one with a key open, and the key is new after', async () => {
    const dir = folder();
    const stores = fileStores(dir, { ttlMs: 1_000 });
    const { intentStore } = stores;
    const now = Date.now();
    await intentStore.begin(record('done', 'order-a', now - 5_000), 'o', 60_000);
    await intentStore.put(
      { ...record('done', 'order-a', now - 5_000), state: 'landed', resultId: 'pay_1' },
      'o',
      true,
    );
    await intentStore.begin(record('open', 'order-b', now - 5_000), 'o', 60_000);
    await intentStore.put(record('open', 'order-b', now - 5_000), 'o', true);
    await intentStore.noteRefund({
      refundId: 'r1',
      paymentId: 'p1',
      orderId: 'order-a',
      amountCents: 1,
      occurredAt: now,
    });
    vi.useFakeTimers({ toFake: ['Date'], now: now + 5_000 });
    try {
      await stores.prune();
    } finally {
      vi.useRealTimers();
    }
    expect(await intentStore.get('done')).toBeUndefined();
    expect(await intentStore.forOrder('order-a')).toEqual([]);
    expect(await intentStore.refundsOf('p1')).toEqual([]);
    expect(await intentStore.get('open')).toMatchObject({ state: 'open' });
    expect((await intentStore.begin(record('done', 'order-a', Date.now()), 'n', 60_000)).status).toBe(
      'acquired',
    );
  });
});

describe('fileStores on every runtime', () => {
  it('the stores entry loads no node: module at import (node:fs is loaded on first use)', () => {
    const { packages } = runtimeGraph(resolve(import.meta.dirname, '../../src/stores/index.ts'));
    expect([...packages].filter((p) => p.startsWith('node:'))).toEqual([]);
  });

  it('on a runtime without a file system (workerd), fileStores throws a ConfigurationError when called', () => {
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    try {
      expect(() => fileStores('/tmp/x')).toThrow(ConfigurationError);
      expect(() => fileStores('/tmp/x')).toThrow(
        /needs a file system .*workerd.*redisStores\(\) or postgresStores\(\)/,
      );
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('says which stores survive a restart', () => {
    const dir = folder();
    expect(new MemoryIntentStore().durable).toBe(false);
    expect(new MemoryDedupeStore().durable).toBe(false);
    expect(fileStores(dir).intentStore.durable).toBe(true);
    expect(fileStores(dir).dedupeStore.durable).toBe(true);
  });
});
