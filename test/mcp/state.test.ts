// `partner-payments mcp` across restarts (api.md 22): its keys in fileStores under --state-dir (or
// the per-user default folder), so that a server killed with SIGKILL and started again on the same
// folder returns the same payment for a key and refunds once. Each "once" has a positive control: a
// server on another, empty folder does not know the key and pays or refunds again, and the mock's
// count shows it. Also --help, the usage error of --state-dir with --intent-store, and a folder that
// cannot be used (exit 3).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultStateDir } from '../../src/cli/mcp/args.js';
import { body, connectStdio, type Recorded, serveRecording } from './helpers.js';

const BIN = resolve(import.meta.dirname, '../../src/cli/partner/bin.ts');
const WRITES = ['--allow-writes', '--scopes', 'payments:create,payments:read,locations:read,payments:refund'];
const POSIX = process.platform !== 'win32';

let served: Recorded;
const temps: string[] = [];
const temp = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `mcp-${name}-`));
  temps.push(dir);
  return dir;
};
beforeAll(async () => {
  served = await serveRecording();
});
afterAll(async () => {
  await served?.close();
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const location = () => served.mock.fixtures.partners[0]!.locations.payments;
const paymentsOf = (orderId: string) => served.mock.snapshot().payments.filter((p) => p.order_id === orderId);
const refundsOf = (paymentId: string) =>
  served.mock.snapshot().refunds.filter((r) => r.payment_id === paymentId);

/** One tool call through a fresh server on `flags`, which is then killed (SIGKILL, no clean exit). */
async function callThenKill(flags: string[], name: string, args: Record<string, unknown>) {
  const server = await connectStdio(served, [...WRITES, ...flags]);
  try {
    return { result: await server.call(name, args), stderr: server.stderr() };
  } finally {
    await server.kill();
  }
}

type Charged = { payment: { payment_id: string; order_id: string } };

describe('--state-dir: exactly once across a restart', () => {
  it('the same charge after a restart returns the same payment and sends nothing', async () => {
    const state = ['--state-dir', join(temp('charge'), 'state')]; // absent: the server creates it
    const key = 'state-inv-1';
    const args = {
      idempotency_key: key,
      order: { location_id: location(), total_cents: 5_000, external_reference: key },
      amount_cents: 1_500,
    };
    const first = await callThenKill(state, 'charge', args);
    expect(first.result.isError, `${JSON.stringify(first.result)}\n${first.stderr}`).toBeFalsy();
    const { payment } = body(first.result) as Charged;
    const posts = { orders: served.posts('/orders'), payments: served.posts('/payments') };

    const again = await callThenKill(state, 'charge', args);
    expect(again.result.isError, `${JSON.stringify(again.result)}\n${again.stderr}`).toBeFalsy();
    expect((body(again.result) as Charged).payment.payment_id).toBe(payment.payment_id);
    expect((body(again.result) as Charged).payment).toEqual(payment);
    expect(paymentsOf(payment.order_id)).toHaveLength(1);
    // The folder knew the key's order and payment: not even the order was asked for again.
    expect(served.posts('/payments')).toBe(posts.payments);
    expect(served.posts('/orders')).toBe(posts.orders);

    // Control: a server on another, empty folder does not know the key and pays a second time.
    const other = await callThenKill(['--state-dir', temp('charge-other')], 'charge', args);
    expect(other.result.isError, JSON.stringify(other.result)).toBeFalsy();
    expect((body(other.result) as Charged).payment.payment_id).not.toBe(payment.payment_id);
    expect(paymentsOf(payment.order_id)).toHaveLength(2);
  }, 60_000);

  it('the same refund after a restart returns the same refund: one refund', async () => {
    const state = ['--state-dir', temp('refund')];
    const charged = await callThenKill(state, 'charge', {
      idempotency_key: 'state-refund-charge',
      order: { location_id: location(), total_cents: 4_000 },
    });
    expect(charged.result.isError, JSON.stringify(charged.result)).toBeFalsy();
    const { payment } = body(charged.result) as Charged;
    served.mock.processor.approve(payment.payment_id);
    served.mock.processor.settle(payment.payment_id);
    const args = {
      idempotency_key: 'state-refund-1',
      order_id: payment.order_id,
      payment_id: payment.payment_id,
      amount_cents: 1_000,
    };

    const first = await callThenKill(state, 'refund_payment', args);
    expect(first.result.isError, `${JSON.stringify(first.result)}\n${first.stderr}`).toBeFalsy();
    const refundId = body(first.result).refund_id as string;
    expect(refundsOf(payment.payment_id).map((r) => r.refund_id)).toEqual([refundId]);

    const again = await callThenKill(state, 'refund_payment', args);
    expect(again.result.isError, `${JSON.stringify(again.result)}\n${again.stderr}`).toBeFalsy();
    expect(body(again.result).refund_id).toBe(refundId);
    expect(refundsOf(payment.payment_id)).toHaveLength(1);

    // Control: a server on another, empty folder refunds the key a second time.
    const other = await callThenKill(['--state-dir', temp('refund-other')], 'refund_payment', args);
    expect(other.result.isError, JSON.stringify(other.result)).toBeFalsy();
    expect(refundsOf(payment.payment_id)).toHaveLength(2);
  }, 60_000);
});

describe('the default folder', () => {
  /** The file names under `<dir>/v1/keys`: one per key the server recorded. */
  const keysIn = (dir: string) => readdirSync(join(dir, 'v1', 'keys'));

  it('is $XDG_STATE_HOME/partner-payments, created with mode 0700, and survives a restart', async () => {
    const xdg = temp('xdg');
    const env = { XDG_STATE_HOME: xdg };
    const args = {
      idempotency_key: 'state-default-1',
      order: { location_id: location(), total_cents: 2_500 },
    };
    const first = await connectStdio(served, WRITES, env);
    const r1 = await first.call('charge', args);
    await first.kill();
    expect(r1.isError, JSON.stringify(r1)).toBeFalsy();
    const dir = join(xdg, 'partner-payments');
    expect(keysIn(dir)).toHaveLength(1);
    if (POSIX) expect(statSync(dir).mode & 0o777).toBe(0o700);

    const second = await connectStdio(served, WRITES, env);
    const r2 = await second.call('charge', args);
    await second.close();
    expect(r2.isError, JSON.stringify(r2)).toBeFalsy();
    expect((body(r2) as Charged).payment.payment_id).toBe((body(r1) as Charged).payment.payment_id);
    expect(paymentsOf((body(r1) as Charged).payment.order_id)).toHaveLength(1);
  }, 60_000);

  it.skipIf(!POSIX)(
    'without XDG_STATE_HOME, is under HOME (~/.local/state, or Application Support on macOS)',
    async () => {
      const home = temp('home');
      const server = await connectStdio(served, WRITES, { XDG_STATE_HOME: '', HOME: home });
      const r = await server.call('charge', {
        idempotency_key: 'state-home-1',
        order: { location_id: location(), total_cents: 2_600 },
      });
      await server.close();
      expect(r.isError, JSON.stringify(r)).toBeFalsy();
      const dir =
        process.platform === 'darwin'
          ? join(home, 'Library', 'Application Support', 'partner-payments')
          : join(home, '.local', 'state', 'partner-payments');
      expect(keysIn(dir)).toHaveLength(1);
    },
    60_000,
  );

  it('is chosen per platform', () => {
    const env = { XDG_STATE_HOME: '/x/state', LOCALAPPDATA: 'C:\\Users\\a\\AppData\\Local' };
    expect(defaultStateDir(env, 'linux', '/home/a')).toBe('/x/state/partner-payments');
    expect(defaultStateDir(env, 'darwin', '/Users/a')).toBe('/x/state/partner-payments');
    expect(defaultStateDir(env, 'win32', 'C:\\Users\\a')).toBe(
      'C:\\Users\\a\\AppData\\Local\\partner-payments',
    );
    // A relative XDG_STATE_HOME is to be ignored (the XDG spec): the home's default instead.
    const relative = { XDG_STATE_HOME: 'state' };
    expect(defaultStateDir(relative, 'linux', '/home/a/')).toBe('/home/a/.local/state/partner-payments');
    expect(defaultStateDir(relative, 'darwin', '/Users/a')).toBe(
      '/Users/a/Library/Application Support/partner-payments',
    );
    expect(defaultStateDir({}, 'win32', 'C:\\Users\\a')).toBe(
      'C:\\Users\\a\\AppData\\Local\\partner-payments',
    );
    expect(defaultStateDir({}, 'linux', undefined)).toBeUndefined();
  });
});

describe('the command line', () => {
  const mcp = (args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', BIN, 'mcp', ...args], {
      env: { ...process.env, ...served.env },
      encoding: 'utf8',
      input: '', // stdio: the server would wait for its client
      timeout: 30_000,
    });

  it('--help shows --state-dir with its default', () => {
    const help = mcp(['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--state-dir DIR');
    expect(help.stdout).toContain('$XDG_STATE_HOME/partner-payments');
    expect(help.stdout).toContain('~/.local/state/partner-payments');
    expect(help.stdout).toContain('%LOCALAPPDATA%\\partner-payments');
  }, 30_000);

  it('--state-dir with --intent-store is a usage error naming both (exit 2)', () => {
    const dir = temp('both');
    const both = mcp(['--state-dir', join(dir, 's'), '--intent-store', 'redis://127.0.0.1:1']);
    expect(both.status).toBe(2);
    const first = both.stderr.split('\n')[0];
    expect(first).toContain('--state-dir');
    expect(first).toContain('--intent-store');
    expect(existsSync(join(dir, 's'))).toBe(false); // refused before anything was created
    // Control: each one alone gets past the arguments (--state-dir starts, and stops at stdin's end).
    expect(mcp(['--state-dir', join(dir, 's')]).status).toBe(0);
    expect(existsSync(join(dir, 's', 'v1'))).toBe(true);
  }, 60_000);

  it('a folder that cannot be used is an error at start (exit 3), naming it', () => {
    // Under a regular file: no directory can be made there, whoever runs the test (root included).
    const file = join(temp('file'), 'not-a-folder');
    writeFileSync(file, '');
    const bad = mcp(['--allow-writes', '--state-dir', join(file, 'state')]);
    expect(bad.status).toBe(3);
    expect(bad.stderr).toContain(`cannot use the state directory ${join(file, 'state')}`);
    expect(bad.stderr).toContain('--intent-store');
    expect(bad.stderr).not.toContain(served.env.PAYMENTS_CLIENT_SECRET!);
  }, 30_000);
});
