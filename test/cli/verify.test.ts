/**
 * `partner-payments verify` against the shipped mock on loopback: every item of the suite (webhook
 * deliveries and the settled-payment items included) passes with 0 deviations; it creates only
 * small `verify-` orders and leaves nothing charged; --read-only sends only reads and token
 * requests; --json is one document; no secret is printed; set-up mistakes exit 2 or 3.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentsClient } from '../../src/index.js';
import { freePort, run, type Served, serveMock } from './helpers.js';

/** The bin's entry, run with tsx as the built bin runs. */
const BIN = fileURLToPath(new URL('../../src/cli/partner/bin.ts', import.meta.url));

// Whole verify runs (about 50 calls and a burst each) on a machine that may be busy.
vi.setConfig({ testTimeout: 60_000 });

const servers: Served[] = [];
async function mock(options?: Parameters<typeof serveMock>[0]): Promise<Served> {
  const served = await serveMock(options);
  servers.push(served);
  return served;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** The mock with a webhook endpoint registered for a loopback URL verify listens on. */
async function withWebhooks(served: Served) {
  const url = `http://127.0.0.1:${await freePort()}/webhooks`;
  const partnerId = served.mock.fixtures.partners[0]!.partnerId;
  const { signing_secret } = served.mock.webhooks.register({ partnerId, url });
  return { url, env: { ...served.env, PAYMENTS_WEBHOOK_SECRET: signing_secret }, secret: signing_secret };
}

describe('partner-payments verify against the shipped mock', () => {
  it('finds 0 deviations, with every section of the suite run (webhooks and settled payments too)', async () => {
    const served = await mock({ processor: true });
    const hooks = await withWebhooks(served);
    const { code, stdout } = await run(
      ['verify', '--webhooks', hooks.url, '--settle-wait', '10', '--webhook-wait', '10', '--json'],
      hooks.env,
    );
    const doc = JSON.parse(stdout);
    expect(doc.items.filter((i: { verdict: string }) => i.verdict !== 'ok')).toEqual([]);
    expect(code).toBe(0);
    expect(doc.ok).toBe(true);
    const sections = new Set(doc.items.map((i: { section: string }) => i.section));
    for (const section of [
      '5.2',
      '5.3',
      '5.9',
      '4.1',
      '4.2',
      '4.3',
      '4.4',
      '4.5',
      '4.6',
      '4.7',
      '4.8',
      '4.9',
      '4.10',
      '4.11',
      '4.12',
      '4.13',
      '3.2',
      '3.3',
      '6.2',
      '6.3',
      '6.4',
      '7, 8',
    ]) {
      expect(sections, section).toContain(section);
    }
    expect(doc.summary).toMatchObject({ deviations: 0, skipped: 0 });
    expect(doc.items.length).toBeGreaterThanOrEqual(44);
  });

  it('prints one line per item with its section, then the summary', async () => {
    const served = await mock();
    const { code, stdout } = await run(['verify'], served.env);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^ok {9}4\.1 {4}POST \/pos\/v1\/orders with an Idempotency-Key → 201/m);
    expect(stdout).toMatch(
      /^skipped {4}4\.6 {4}POST \.\.\.\/refunds .*: needs a settled payment: pass --settle-wait SECONDS$/m,
    );
    expect(stdout).toMatch(/^\d+ items: \d+ ok, 0 deviations, 3 skipped \(\d+\.\d s\)$/m);
  });

  it('creates only small orders with a verify- reference and leaves no payment charged', async () => {
    const served = await mock({ processor: true });
    // Without the burst, the mock's bucket (on its stopped clock) has room for the reads below.
    const { code, stdout } = await run(
      ['verify', '--settle-wait', '10', '--no-rate-limit', '--json'],
      served.env,
    );
    expect(code).toBe(0);
    const doc = JSON.parse(stdout);
    const snap = served.mock.snapshot();
    expect(snap.orders.map((o) => o.order_id).sort()).toEqual([...doc.created.orders].sort());
    const reader = new PaymentsClient({ ...served.mock.clientOptions(served.url) });
    for (const { order_id } of snap.orders) {
      const order = await reader.orders.get(order_id);
      expect(order.external_reference).toMatch(new RegExp(`^${doc.run}-\\d+$`));
      expect(order.total_cents).toBeLessThanOrEqual(101);
    }
    expect(snap.payments.length).toBe(2);
    expect(snap.payments.map((p) => p.status).sort()).toEqual(['refunded', 'voided']);
  });

  it('--read-only sends only reads and token requests, and creates nothing', async () => {
    const served = await mock();
    const { code, stdout } = await run(['verify', '--read-only'], served.env);
    expect(code).toBe(0);
    const writes = served.log.filter((l) => !l.startsWith('GET ') && l !== 'POST /oauth2/token');
    expect(writes).toEqual([]);
    expect(served.mock.snapshot().orders).toEqual([]);
    expect(stdout).toMatch(/^skipped {4}4\.1 {4}order creation.*: --read-only$/m);
    expect(stdout).toMatch(
      /^skipped {4}7, 8 {3}a burst of reads .*: --read-only spends none of the client's rate budget$/m,
    );
  });

  it('never prints a secret: client secret, webhook secret, access tokens, checkout tokens', async () => {
    const served = await mock({ processor: true });
    const hooks = await withWebhooks(served);
    const text = await run(['verify', '--webhooks', hooks.url, '--settle-wait', '10'], hooks.env);
    const json = await run(['verify', '--read-only', '--json'], hooks.env);
    for (const out of [text, json]) {
      const all = out.stdout + out.stderr;
      expect(all).not.toContain(served.mock.credentials.clientSecret);
      expect(all).not.toContain(hooks.secret);
      expect(all).not.toMatch(/eyJ[\w-]+\.[\w-]+\./); // a token of the mock (JWT), bearer or checkout
      expect(all).not.toMatch(/token=/);
      expect(all).toContain(served.mock.credentials.clientId);
    }
  });

  it('skips the writes, saying why, for a --location without the payments feature', async () => {
    const served = await mock();
    const noPayments = served.mock.fixtures.partners[0]!.locations.noPayments;
    const { code, stdout } = await run(['verify', '--location', noPayments, '--no-rate-limit'], served.env);
    expect(code).toBe(0);
    expect(stdout).toContain(
      `skipped    4.1    orders, payments, refunds, hosted checkout: --location ${noPayments} is not active with the payments feature`,
    );
    expect(served.mock.snapshot().orders).toEqual([]);
  });

  it('on SIGINT, voids what it charged before it stops (exit 130)', async () => {
    const served = await mock();
    // Waiting for a settlement that never comes (nothing settles at this mock): then the signal.
    const child = spawn(process.execPath, ['--import', 'tsx', BIN, 'verify', '--settle-wait', '120'], {
      env: { ...process.env, ...served.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => {
      stderr += c;
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await vi.waitFor(
      () => {
        // The second payment is the one verify waits on to settle; the first one is voided by then.
        const { payments } = served.mock.snapshot();
        if (payments.length < 2 || payments[1]!.status !== 'pending') throw new Error('not waiting yet');
      },
      { timeout: 30_000, interval: 50 },
    );
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('SIGINT: voiding what this run charged');
    expect(served.mock.snapshot().payments.map((p) => p.status)).toEqual(['voided', 'voided']);
  });

  it('refuses a --webhooks URL off this machine or without a secret (exit 2)', async () => {
    const served = await mock();
    const off = await run(['verify', '--webhooks', 'https://hooks.example.com/x'], {
      ...served.env,
      PAYMENTS_WEBHOOK_SECRET: 'whsec_x',
    });
    expect(off.code).toBe(2);
    expect(off.stderr).toContain('--webhooks must be an http:// URL on this machine with a port');
    const secretless = await run(['verify', '--webhooks', 'http://127.0.0.1:9/x'], served.env);
    expect(secretless.code).toBe(2);
    expect(secretless.stderr).toContain('set PAYMENTS_WEBHOOK_SECRET');
  });

  it('cannot start without a token: one line, exit 3', async () => {
    const served = await mock();
    const { code, stderr, stdout } = await run(['verify'], {
      ...served.env,
      PAYMENTS_CLIENT_SECRET: 'wrong',
    });
    expect(code).toBe(3);
    expect(stderr.trim()).toBe(
      'partner-payments verify: could not start: no token for any scope: the token endpoint answered 401 invalid_client; run partner-payments doctor',
    );
    expect(stdout).not.toContain('items:');
  });
});
