// `partner-payments mcp` over stdio, driven by the MCP SDK's own client against the mock: the tool
// list and its schemas, read-only refusals, a charge retried with its key (one payment, also after
// a lost answer), the amount cap, errors as tool results, and no secret in any output. Every
// "exactly one" and "nothing sent" check has a positive control beside it.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { TOOLS } from '../../src/cli/mcp/tools/list.js';
import { OrderCreateParams } from '../../src/schemas/zod/orders.js';
import { body, connectStdio, leaks, type Recorded, type Session, serveRecording } from './helpers.js';

let served: Recorded;
let readOnly: Session;
let writer: Session;
const location = () => served.mock.fixtures.partners[0]!.locations.payments;
const paymentsOf = (orderId: string) => served.mock.snapshot().payments.filter((p) => p.order_id === orderId);

beforeAll(async () => {
  served = await serveRecording();
  [readOnly, writer] = await Promise.all([
    connectStdio(served),
    connectStdio(served, [
      '--allow-writes',
      '--max-amount-cents',
      '5000',
      // Short, for the outage test that waits it out; room for a charge on a loaded machine.
      '--deadline',
      '4',
      '--scopes',
      'payments:create,payments:read,locations:read,payments:refund',
      // These tests are about the key: a second key on one order is their control. The duplicate
      // guard, which puts that to the person, has its own tests (agent-rules.test.ts).
      '--duplicate-window',
      '0',
    ]),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([readOnly?.close(), writer?.close()]);
  await served?.close();
});

// The names come from the server's one list, in its order: the test holds the server, and the
// docs, to it.
const TOOL_NAMES = TOOLS.map((t) => t.name);
const WRITES: string[] = TOOLS.filter((t) => t.write).map((t) => t.name);

async function newOrder(s: Session, key: string, total = 3_000, extra: Record<string, unknown> = {}) {
  const r = await s.call('create_order', {
    idempotency_key: key,
    order: { location_id: location(), total_cents: total, ...extra },
  });
  expect(r.isError, JSON.stringify(r)).toBeFalsy();
  return body(r).order_id as string;
}

describe('the tool list', () => {
  it('lists every tool of api.md 21 with JSON Schema input and output and truthful annotations', async () => {
    const { tools } = await readOnly.client.listTools();
    readOnly.outputs.push(JSON.stringify(tools));
    expect(tools.map((t) => t.name)).toEqual(TOOL_NAMES);
    for (const t of tools) {
      expect(t.inputSchema.type, t.name).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      const write = WRITES.includes(t.name);
      expect(t.annotations?.readOnlyHint, t.name).toBe(!write);
      expect(t.description, t.name).toContain(write ? '--allow-writes' : '');
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.charge!.annotations).toMatchObject({ idempotentHint: true, destructiveHint: false });
    expect(byName.void_payment!.annotations).toMatchObject({ idempotentHint: true, destructiveHint: true });
    expect(byName.refund_payment!.annotations).toMatchObject({ idempotentHint: true, destructiveHint: true });
    expect(byName.charge!.inputSchema.required).toEqual(['idempotency_key']);
    expect(byName.refund_payment!.inputSchema.required).toContain('idempotency_key');
    // The same zod schema the SDK validates an order with, converted by zod 4.
    const orderSchema = z.toJSONSchema(OrderCreateParams, {
      io: 'input',
      target: 'draft-7',
      unrepresentable: 'any',
    });
    const { $schema: _, ...orderProps } = orderSchema as Record<string, unknown>;
    expect(byName.create_order!.inputSchema.properties!.order).toEqual(orderProps);
    expect(byName.find_orders!.description).toContain('NO search');
  });
});

describe('docs/agents.md', () => {
  const doc = readFileSync(new URL('../../docs/agents.md', import.meta.url), 'utf8');

  it('has a row for every tool, in the order of tools/list, saying whether it writes', () => {
    const rows = [...doc.matchAll(/^\| `([a-z_]+)` \| (yes|no) \|/gm)].map(([, name, w]) => ({
      name,
      write: w === 'yes',
    }));
    expect(rows).toEqual(TOOLS.map((t) => ({ name: t.name, write: t.write })));
  });

  it('names the write tools, in that order, where it tells what --allow-writes enables', () => {
    const row = /^\| `--allow-writes` \|.*$/m.exec(doc)?.[0] ?? '';
    expect([...row.matchAll(/`([a-z_]+)`/g)].map(([, name]) => name)).toEqual(WRITES);
  });
});

describe('read-only by default', () => {
  it('refuses every write tool, naming --allow-writes, and sends nothing; reads work', async () => {
    const before = served.log.length;
    for (const name of WRITES) {
      const r = await readOnly.call(name, {
        idempotency_key: 'ro',
        order: { location_id: location(), total_cents: 100 },
      });
      expect(r.isError, name).toBe(true);
      expect(body(r)).toMatchObject({ error: 'read_only' });
      expect(body(r).fix).toContain('--allow-writes');
    }
    expect(served.log.length).toBe(before);
    // Positive control: the same server's read reaches the mock.
    const read = await readOnly.call('list_locations', { limit: 1 });
    expect(read.isError).toBeFalsy();
    expect(served.log.length).toBeGreaterThan(before);
  });
});

describe('charge, once per key', () => {
  it('a charge retried with its key makes one payment; a new key makes another (control)', async () => {
    const order = { location_id: location(), total_cents: 2_000, external_reference: 'inv-77' };
    const args = { idempotency_key: 'inv-77-charge', order, amount_cents: 1_500 };
    const first = await writer.call('charge', args);
    expect(first.isError, JSON.stringify(first)).toBeFalsy();
    const { payment } = body(first) as { payment: { payment_id: string; order_id: string } };
    const posts = served.posts('/payments');
    const orderPosts = served.posts('/orders');
    for (let i = 0; i < 3; i++) {
      const again = await writer.call('charge', args);
      expect((body(again) as typeof first.structuredContent)?.payment).toEqual(
        first.structuredContent?.payment,
      );
    }
    expect(served.posts('/payments')).toBe(posts);
    expect(served.posts('/orders')).toBe(orderPosts); // the intent store knows the key's order
    expect(paymentsOf(payment.order_id)).toHaveLength(1);
    // find_orders sees the order this server made.
    const found = body(await writer.call('find_orders', { external_reference: 'inv-77' }));
    expect((found.orders as { order_id: string }[]).map((o) => o.order_id)).toEqual([payment.order_id]);
    // Control: on an existing order, another key is another payment, and the count shows it.
    const other = await writer.call('charge', {
      idempotency_key: 'inv-77-second',
      order_id: payment.order_id,
      amount_cents: 500,
    });
    expect(other.isError, JSON.stringify(other)).toBeFalsy();
    expect(served.posts('/payments')).toBe(posts + 1);
    expect(paymentsOf(payment.order_id)).toHaveLength(2);
  });

  it('a lost answer is adopted, and the retry returns that payment: one payment', async () => {
    const orderId = await newOrder(writer, 'lost-order');
    served.mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', network: true });
    const args = { idempotency_key: 'lost-charge', order_id: orderId, amount_cents: 1_000 };
    const first = await writer.call('charge', args);
    expect(first.isError, JSON.stringify(first)).toBeFalsy();
    const retry = await writer.call('charge', args);
    expect(retry.structuredContent).toEqual(first.structuredContent);
    expect(paymentsOf(orderId).map((p) => p.payment_id)).toEqual([
      (first.structuredContent as { payment: { payment_id: string } }).payment.payment_id,
    ]);
  });

  it('an outcome that cannot be told says outcome_unknown and the key; the retry then adopts it', async () => {
    const orderId = await newOrder(writer, 'unknown-order');
    served.mock.failNext({ method: 'POST', path: /\/payments$/, phase: 'after', network: true });
    served.outage = true;
    const args = { idempotency_key: 'unknown-charge', order_id: orderId, amount_cents: 1_200 };
    let first: Awaited<ReturnType<Session['call']>>;
    try {
      first = await writer.call('charge', args);
    } finally {
      served.outage = false;
    }
    expect(first.isError).toBe(true);
    expect(body(first)).toMatchObject({
      error: 'outcome_unknown',
      outcome_unknown: true,
      idempotency_key: 'unknown-charge',
    });
    expect(body(first).fix).toContain('unknown-charge');
    expect(paymentsOf(orderId)).toHaveLength(1); // it was charged
    const retry = await writer.call('charge', args);
    expect(retry.isError, JSON.stringify(retry)).toBeFalsy();
    expect(paymentsOf(orderId).map((p) => p.payment_id)).toEqual([
      (retry.structuredContent as { payment: { payment_id: string } }).payment.payment_id,
    ]);
  }, 20_000);
});

describe('the amount cap', () => {
  it('refuses an order, charge or refund over --max-amount-cents before anything is sent', async () => {
    const before = served.log.length;
    const over = [
      ['create_order', { idempotency_key: 'big', order: { location_id: location(), total_cents: 5_001 } }],
      ['charge', { idempotency_key: 'big', order: { location_id: location(), total_cents: 9_000 } }],
      ['charge', { idempotency_key: 'big', order_id: location(), amount_cents: 5_001 }],
      [
        'refund_payment',
        { idempotency_key: 'big', order_id: location(), payment_id: location(), amount_cents: 6_000 },
      ],
    ] as const;
    for (const [name, args] of over) {
      const r = await writer.call(name, args);
      expect(body(r), name).toMatchObject({ error: 'amount_over_limit' });
      expect(body(r).message).toContain('--max-amount-cents 5000');
    }
    expect(served.log.slice(before)).toEqual([]);
    // Control: at the limit, the charge is sent, and the log shows it.
    const ok = await writer.call('charge', {
      idempotency_key: 'at-limit',
      order: { location_id: location(), total_cents: 5_000 },
    });
    expect(ok.isError, JSON.stringify(ok)).toBeFalsy();
    expect(served.log.slice(before).filter((l) => l.startsWith('POST /pos/v1'))).toHaveLength(2);
  });
});

describe('failures are tool results', () => {
  it('validation errors and service errors come back with isError, the code and the fix', async () => {
    const bad = await writer.call('charge', { idempotency_key: 'v', order_id: location() });
    expect(bad.isError).toBe(true);
    expect(body(bad)).toMatchObject({ error: 'validation_error', issues: [{ path: 'amount_cents' }] });
    const noKey = await writer.call('refund_payment', {
      order_id: location(),
      payment_id: location(),
      amount_cents: 1,
    });
    expect(body(noKey)).toMatchObject({
      error: 'validation_error',
      issues: [{ path: 'idempotency_key', message: 'required' }],
    });
    const missing = await writer.call('get_order', { order_id: '00000000-0000-4000-8000-00000000dead' });
    expect(missing.isError).toBe(true);
    expect(body(missing)).toMatchObject({ status: 404 });
    expect(body(missing).fix).toMatch(/check the id/i);
    const unknown = await writer.call('no_such_tool', {});
    expect(body(unknown)).toMatchObject({ error: 'unknown_tool' });
  });
});

describe('no secret in any output', () => {
  it('neither the client secret, an access token, a hosted checkout URL nor a launch token', async () => {
    // A hosted checkout order (its URL is a secret) and an order whose description holds the secret.
    const hosted = await writer.call('create_order', {
      idempotency_key: 'hosted',
      order: {
        location_id: location(),
        total_cents: 1_000,
        return_url: 'https://shop.example/ok',
        cancel_url: 'https://shop.example/cancel',
      },
    });
    expect(body(hosted)).toMatchObject({ hosted_checkout: true });
    const planted = await newOrder(writer, 'planted', 1_000, {
      description: `oops ${served.env.PAYMENTS_CLIENT_SECRET}`,
    });
    const read = await writer.call('get_order', { order_id: planted });
    expect(String(body(read).description)).toContain('[REDACTED]');
    expect(served.handedOut.some((s) => s.includes('hosted-checkout'))).toBe(true);
    const secrets: Record<string, string> = { client_secret: served.env.PAYMENTS_CLIENT_SECRET! };
    served.handedOut.forEach((value, i) => {
      secrets[`handed_out_${i}`] = value;
    });
    const everything = [...readOnly.outputs, ...writer.outputs, readOnly.stderr(), writer.stderr()].join(
      '\n',
    );
    expect(writer.outputs.length).toBeGreaterThan(15);
    expect(leaks(everything, secrets)).toEqual([]);
    // Positive control: the scan catches a planted secret, and the mock's own record holds one.
    expect(leaks(`${everything} ${served.handedOut[0]}`, secrets)).toHaveLength(1);
    const raw = served.mock.snapshot().orders.find((o) => o.order_id === planted);
    expect(leaks(JSON.stringify(raw), secrets)).toEqual(['client_secret']);
  });
});
