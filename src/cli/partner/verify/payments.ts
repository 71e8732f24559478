// Verify's items of spec 4.3 to 4.7 and 3.x: a payment refused above the order's total, one small
// payment created, read and voided, the not-found answers, paying a voided order; with
// --settle-wait, a second payment waited for until settled, then refunded; and the clean-up that
// voids whatever verify charged and did not reverse.
import { ResultTimeoutError } from '../../../index.js';
import { PAYMENT, PAYMENT_CREATED, REFUND, REFUND_CREATED, VOID } from './contract.js';
import { AMOUNT, testOrder } from './orders.js';
import { type Answer, type Ctx, type Json, NIL } from './suite.js';

function trackPayment(ctx: Ctx, orderId: string, answer: Answer): string | undefined {
  const id = (answer.json as Json)?.payment_id;
  if (!answer.exchange || answer.exchange.status >= 300 || typeof id !== 'string') return undefined;
  if (!ctx.payments.some((p) => p.paymentId === id)) ctx.payments.push({ orderId, paymentId: id });
  return id;
}

const card = { method: 'card' as const, amount_cents: AMOUNT };

/** 4.3 to 4.7 on the order of {@link orderItems}; returns the payment voided, when it was. */
export async function paymentItems(ctx: Ctx, orderId: string): Promise<string | undefined> {
  const { suite, main } = ctx;
  trackPayment(
    ctx,
    orderId,
    await suite.probe(
      '4.3',
      "a payment above the order's total → 400 amount_exceeds_order_total",
      () => main.payments.create(orderId, { method: 'card', amount_cents: AMOUNT + 1 }),
      { status: 400, code: 'amount_exceeds_order_total' },
    ),
  );
  const created = await suite.probe(
    '4.3',
    'POST /pos/v1/orders/{id}/payments → 201 with payment_id, order_id, status pending, amount_cents, method card, created_at',
    () => main.payments.create(orderId, card),
    {
      status: 201,
      shape: PAYMENT_CREATED,
      check: (json) => (json.order_id === orderId ? [] : ['order_id differs']),
    },
  );
  const paymentId = trackPayment(ctx, orderId, created);
  if (!paymentId) {
    suite.skip('4.4', 'reading, voiding the payment', 'no payment was created');
    return undefined;
  }
  const read = await suite.probe(
    '4.4',
    'GET /pos/v1/orders/{id}/payments/{payment_id} → 200 with processor_reference, updated_at and the fields of 4.3',
    () => main.payments.get(orderId, paymentId),
    {
      status: 200,
      shape: PAYMENT,
      check: (json) => (json.payment_id === paymentId ? [] : ['payment_id differs']),
    },
  );
  await suite.probe(
    '4.2',
    'the order lists its payment (payment_id, status, amount_cents, method, created_at)',
    () => main.orders.get(orderId),
    {
      status: 200,
      check: (json) =>
        Array.isArray(json.payments) && json.payments.some((p: Json) => p.payment_id === paymentId)
          ? []
          : ['payments does not list the payment'],
    },
  );
  await suite.probe(
    '4.4',
    'an unknown payment of the order → 404 payment_not_found',
    () => main.payments.get(orderId, NIL),
    {
      status: 404,
      code: 'payment_not_found',
    },
  );

  const status = (read.json as Json)?.status;
  let voided: string | undefined;
  const voidTitle = 'POST .../payments/{payment_id}/void → 201 (1.6) with status voided, voided_at';
  if (status === 'pending' || status === 'approved' || read.problems.length > 0) {
    const answer = await suite.probe('4.5', voidTitle, () => main.payments.void(orderId, paymentId), {
      status: 201,
      shape: VOID,
      check: (json) => (json.payment_id === paymentId ? [] : ['payment_id differs']),
    });
    if (answer.exchange && answer.exchange.status < 300) voided = paymentId;
  } else suite.skip('4.5', voidTitle, `the processor already moved the payment to ${status}`);
  await suite.probe(
    '4.5',
    'voiding an unknown payment → 404 payment_not_found',
    () => main.payments.void(orderId, NIL),
    {
      status: 404,
      code: 'payment_not_found',
    },
  );

  const order = await main.orders.get(orderId).catch(() => undefined);
  const notOpen = 'a payment on a voided order → 409 order_not_open';
  if (order?.status === 'voided') {
    trackPayment(
      ctx,
      orderId,
      await suite.probe('3.2', notOpen, () => main.payments.create(orderId, card), {
        status: 409,
        code: 'order_not_open',
      }),
    );
  } else
    suite.skip(
      '3.2',
      notOpen,
      `the order is ${order?.status ?? 'unreadable'} after the void (the transition is not shown)`,
    );

  await suite.probe(
    '4.7',
    'an unknown refund → 404 with the error envelope (its code is not shown)',
    () => main.refunds.get(orderId, paymentId, NIL),
    { status: 404 },
  );
  return voided;
}

/** With --settle-wait: a payment waited for until settled, then the settled-payment items. */
export async function settleItems(ctx: Ctx): Promise<{ orderId: string; paymentId: string } | undefined> {
  const { suite, main, args } = ctx;
  const titles = [
    ['4.5', 'voiding a settled payment → 409 payment_already_settled'],
    ['4.6', 'POST .../refunds → 201 with refund_id, status pending and the fields of 2.3'],
    ['4.7', 'GET .../refunds/{refund_id} → 200 with the fields of 2.3'],
  ] as const;
  const skipAll = (why: string): undefined => {
    for (const [section, title] of titles) suite.skip(section, title, why);
  };
  if (args.settleWaitMs === 0) return skipAll('needs a settled payment: pass --settle-wait SECONDS');
  if (!ctx.has('svc/payments:refund')) return skipAll('the client lacks svc/payments:refund');
  let orderId: string | undefined;
  let paymentId: string | undefined;
  try {
    const order = await main.orders.create(
      testOrder(ctx, 3, { description: 'partner-payments verify: settled, then refunded' }),
    );
    orderId = order.order_id;
    if (!ctx.orders.includes(orderId)) ctx.orders.push(orderId);
    const payment = await main.payments.create(orderId, card);
    paymentId = payment.payment_id;
    ctx.payments.push({ orderId, paymentId });
    const settled = await main.awaitPaymentResult(orderId, paymentId, {
      until: ['settled'],
      maxWaitMs: args.settleWaitMs,
      intervalMs: ctx.pollIntervalMs,
    });
    if (settled.status !== 'settled')
      return skipAll(`the processor moved the test payment to ${settled.status}`);
  } catch (error) {
    const why =
      error instanceof ResultTimeoutError ? `still ${error.lastStatus} after --settle-wait` : String(error);
    return skipAll(`no settled payment: ${why}`);
  }
  const [o, p] = [orderId, paymentId];
  await suite.probe(titles[0][0], titles[0][1], () => main.payments.void(o, p), {
    status: 409,
    code: 'payment_already_settled',
  });
  const refund = await suite.probe(
    titles[1][0],
    titles[1][1],
    () => main.refunds.create(o, p, { amount_cents: AMOUNT, reason: 'other' }),
    {
      status: 201,
      shape: REFUND_CREATED,
      check: (json) =>
        json.payment_id === p && json.order_id === o && json.amount_cents === AMOUNT
          ? []
          : ['ids or amount differ from the request'],
    },
  );
  const refundId = (refund.json as Json)?.refund_id;
  if (typeof refundId !== 'string') {
    suite.skip(titles[2][0], titles[2][1], 'no refund was created');
    return undefined;
  }
  await suite.probe(titles[2][0], titles[2][1], () => main.refunds.get(o, p, refundId), {
    status: 200,
    shape: REFUND,
  });
  const confirmed = '3.3';
  const title = 'the refund is confirmed (approved) and the payment becomes refunded (3.1)';
  try {
    const done = await main.awaitRefundResult(o, p, refundId, {
      maxWaitMs: args.settleWaitMs,
      intervalMs: ctx.pollIntervalMs,
    });
    if (done.status !== 'approved') {
      suite.skip(confirmed, title, `the processor rejected the test refund (${done.status})`);
      return undefined;
    }
    const payment = await main.payments.get(o, p);
    suite.report(
      confirmed,
      title,
      payment.status === 'refunded' ? [] : [`the payment is ${payment.status}, expected refunded`],
    );
    return { orderId: o, paymentId: p };
  } catch (error) {
    suite.skip(
      confirmed,
      title,
      error instanceof ResultTimeoutError ? 'not confirmed within --settle-wait' : String(error),
    );
    return undefined;
  }
}

/**
 * Voids every payment verify charged that is still pending or approved (its own, and any a
 * deviating service accepted), found through the orders it created. Returns what was left as is.
 */
export async function cleanUp(ctx: Ctx): Promise<{ voided: number; left: string[] }> {
  const { main } = ctx;
  let voided = 0;
  const left: string[] = [];
  for (const orderId of ctx.orders) {
    const order = await main.orders.get(orderId).catch(() => undefined);
    for (const p of order?.payments ?? []) {
      if (p.status === 'pending' || p.status === 'approved') {
        try {
          await main.withOptions({ maxRetries: 2 }).payments.void(orderId, p.payment_id);
          voided++;
        } catch (error) {
          left.push(`payment ${p.payment_id} of order ${orderId} is ${p.status}: void it (${String(error)})`);
        }
      } else if (p.status === 'settled')
        left.push(`payment ${p.payment_id} of order ${orderId} is settled: refund it`);
    }
  }
  return { voided, left };
}
