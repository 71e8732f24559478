// The write tools of `partner-payments mcp` (refused unless --allow-writes): create_order, charge,
// void_payment, refund_payment and recover. Every tool that creates something takes a required
// idempotency_key, so that an agent's retry, after a lost answer or an error, never acts twice:
// orders by the service's Idempotency-Key, payments and refunds by the client's intent store.
import * as z from 'zod';
import { positiveCents, uuid } from '../../../schemas/zod/fields.js';
import { OrderCreateParams } from '../../../schemas/zod/orders.js';
import { Payment, VoidResult } from '../../../schemas/zod/payments.js';
import { Refund, RefundReason } from '../../../schemas/zod/refunds.js';
import { idempotencyKey, type Tool, tool } from './define.js';

const orderId = uuid.describe('The order id (a UUID).');
const paymentId = uuid.describe('The payment id (a UUID).');

/** What create_order and charge show of a new order: never its hosted checkout URL (a secret). */
const CreatedOrder = z.object({
  order_id: z.string(),
  status: z.string(),
  total_cents: z.number(),
  created_at: z.string(),
  hosted_checkout: z
    .boolean()
    .describe('Whether a hosted checkout page was made; its URL is a secret and never shown here.'),
});

function created(order: { order_id: string; status: string; total_cents: number; created_at: string }) {
  const hosted = (order as { hosted_checkout_url?: unknown }).hosted_checkout_url;
  return {
    order_id: order.order_id,
    status: order.status,
    total_cents: order.total_cents,
    created_at: order.created_at,
    hosted_checkout: typeof hosted === 'string' && hosted !== '',
  };
}

const createOrder = tool({
  name: 'create_order',
  description:
    'Creates an order (an amount to be paid at a location) under idempotency_key, which names the order: reuse it on every retry; the same key with the same order returns the same order for 24 hours and never creates a second one. Nothing is charged: use charge to pay it.',
  input: z.strictObject({ idempotency_key: idempotencyKey, order: OrderCreateParams }),
  output: CreatedOrder,
  annotations: {
    title: 'Create an order',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  amount: (args) => args.order.total_cents,
  run: async ({ client, known, signal }, args) => {
    const order = await client.orders.create(args.order, {
      idempotencyKey: args.idempotency_key,
      signal,
    });
    known.add(order.order_id);
    return created(order);
  },
});

const ChargeInput = z
  .strictObject({
    idempotency_key: idempotencyKey,
    order_id: orderId.optional().describe('Pay this existing order (give amount_cents too).'),
    amount_cents: positiveCents
      .optional()
      .describe("Cents to charge; required with order_id; with order it defaults to the order's total."),
    order: OrderCreateParams.optional().describe(
      'Create this order and pay it, both under idempotency_key (instead of order_id).',
    ),
  })
  .check((ctx) => {
    const v = ctx.value;
    if ((v.order_id === undefined) === (v.order === undefined)) {
      ctx.issues.push({
        code: 'custom',
        input: v,
        path: [],
        message: 'give either order_id or order, not both',
      });
    } else if (v.order_id !== undefined && v.amount_cents === undefined) {
      ctx.issues.push({
        code: 'custom',
        input: v,
        path: ['amount_cents'],
        message: 'required with order_id (the cents to charge on that order)',
      });
    }
  });

const charge = tool({
  name: 'charge',
  description:
    'Charges a card payment, exactly once per idempotency_key: either on an existing order (order_id and amount_cents) or on a new order created under the same key (order). The idempotency_key names the purchase: choose it once per purchase and send the SAME key and arguments on every retry of it (after an error, a timeout or a lost answer); that returns the SAME payment and never charges again. A new key is a new purchase: never make one up to retry. On "outcome_unknown" call charge again with the same key. The payment starts "pending": await_payment_result tells approved or declined. The server may refuse before sending anything (budget_exceeded, possible_duplicate, not_confirmed, confirmation_unavailable): tell the person, do not work around it.',
  input: ChargeInput,
  output: z.object({ idempotency_key: z.string(), order: CreatedOrder.optional(), payment: Payment }),
  annotations: {
    title: 'Charge a payment (once per key)',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  amount: (args) => args.amount_cents ?? args.order?.total_cents,
  orderTotal: (args) => args.order?.total_cents,
  run: async ({ client, known, signal }, args) => {
    const key = args.idempotency_key;
    if (args.order) {
      // client.charge (api.md 19): the order and its payment under the one key.
      const result = await client.charge(
        {
          idempotencyKey: key,
          order: args.order,
          ...(args.amount_cents === undefined ? {} : { payment: { amount_cents: args.amount_cents } }),
        },
        { signal },
      );
      known.add(result.order.order_id);
      return { idempotency_key: key, order: created(result.order), payment: result.payment };
    }
    const id = args.order_id as string;
    known.add(id);
    const payment = await client.payments.create(
      id,
      { method: 'card', amount_cents: args.amount_cents as number },
      { idempotencyKey: key, signal },
    );
    return { idempotency_key: key, payment };
  },
});

const voidPayment = tool({
  name: 'void_payment',
  description:
    'Voids (cancels) a payment that is not settled yet, so the card is not charged. Voiding twice is harmless (it stays voided). A settled payment cannot be voided: refund it instead.',
  input: z.strictObject({ order_id: orderId, payment_id: paymentId }),
  output: VoidResult,
  annotations: {
    title: 'Void a payment',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  run: async ({ client, known, signal }, args) => {
    known.add(args.order_id);
    return client.payments.void(args.order_id, args.payment_id, { signal });
  },
});

const refundPayment = tool({
  name: 'refund_payment',
  description:
    'Refunds all or part of a settled payment, exactly once per idempotency_key. The idempotency_key names this refund: send the SAME key and arguments on every retry of it; that returns the SAME refund and never refunds again, while a new key is a new refund. On "outcome_unknown" call it again later with the same key (the refund becomes known once the service reports it). Needs the payments:refund scope (--scopes).',
  input: z.strictObject({
    idempotency_key: idempotencyKey,
    order_id: orderId,
    payment_id: paymentId,
    amount_cents: positiveCents.describe('Cents to refund, at most what is left of the payment.'),
    reason: RefundReason.optional(),
  }),
  output: Refund,
  annotations: {
    title: 'Refund a payment (once per key)',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: true,
  },
  amount: (args) => args.amount_cents,
  run: async ({ client, known, signal }, args) => {
    known.add(args.order_id);
    const params = { amount_cents: args.amount_cents, ...(args.reason ? { reason: args.reason } : {}) };
    return client.refunds.create(args.order_id, args.payment_id, params, {
      idempotencyKey: args.idempotency_key,
      signal,
    });
  },
});

const recover = tool({
  name: 'recover',
  description:
    'Settles every charge or refund whose outcome is not known (a lost answer, a crashed process) by reading the service, and reports each key: landed (with its payment or refund id), not_landed (the key may be used again and acts once), or unknown. Sends no payment or refund.',
  input: z.strictObject({
    older_than_seconds: z
      .number()
      .min(0)
      .optional()
      .describe('Only keys last written at least this long ago (default 30).'),
  }),
  output: z.object({
    intents: z.array(
      z.object({
        idempotency_key: z.string(),
        kind: z.enum(['payment', 'refund']),
        order_id: z.string(),
        payment_id: z.string().optional(),
        refund_id: z.string().optional(),
        outcome: z.enum(['landed', 'not_landed', 'unknown']),
        candidates: z.array(z.string()).optional(),
      }),
    ),
  }),
  annotations: {
    title: 'Recover unknown outcomes',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: true,
  },
  run: async ({ client, signal }, args) => {
    const report = await client.recover({
      ...(args.older_than_seconds === undefined ? {} : { olderThanMs: args.older_than_seconds * 1000 }),
      ...(signal ? { signal } : {}),
    });
    return {
      intents: report.map((r) => ({
        idempotency_key: r.idempotencyKey,
        kind: r.kind,
        order_id: r.orderId,
        ...(r.paymentId ? { payment_id: r.paymentId } : {}),
        ...(r.refundId ? { refund_id: r.refundId } : {}),
        outcome: r.outcome,
        ...(r.candidates ? { candidates: r.candidates } : {}),
      })),
    };
  },
});

/** The write tools this file defines (tools/list shows them in the order of ./list.ts). */
export const WRITE_TOOLS: Tool[] = [createOrder, charge, voidPayment, refundPayment, recover];
