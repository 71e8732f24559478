// The one scenario every runtime runs, from the packed package: a client against the mock on
// loopback (token, order, payment, awaited result, refund), a webhook verified, an error mapped to
// its class, then the promises that depend on the runtime (promises.mjs). It imports only the
// package's public entries; the runtime's host passes the input.
import { NotFoundError, PaymentsClient, PaymentsError } from 'partner-payments';
import * as webhooks from 'partner-payments/webhooks';
import { runtimePromises } from './promises.mjs';

/**
 * @param {{ baseUrl: string, authUrl: string, clientId: string, clientSecret: string,
 *   locationId: string, webhook: { body: string, header: string, secret: string } }} input
 * @returns {Promise<{ ok: boolean, steps: string[], error?: string, webhookReason?: string }>}
 */
export async function runScenario(input) {
  const steps = [];
  const facts = {};
  const check = (condition, what) => {
    if (!condition) throw new Error(`check failed: ${what}`);
    steps.push(what);
  };
  try {
    const client = new PaymentsClient({
      clientId: input.clientId,
      clientSecret: input.clientSecret,
      baseUrl: input.baseUrl,
      authUrl: input.authUrl,
      scopes: ['payments:create', 'payments:read', 'payments:refund'],
    });
    const tokens = [];
    client.on('token', (event) => tokens.push(event.action));
    const order = await client.orders.create({ location_id: input.locationId, total_cents: 1_250 });
    check(tokens.length === 1, `token minted (${tokens[0]})`);
    check(typeof order.order_id === 'string', 'order created');
    // A key that is not a UUID goes as its UUID v5 (node:crypto's, computed once for this check):
    // on Node.js the SDK's own SHA-1 derives it, elsewhere Web Crypto's (order-key.fast.web.ts).
    const sentKeys = [];
    const keyed = client.withOptions({
      middleware: [
        (call, next) => {
          sentKeys.push(call.headers['idempotency-key']);
          return next();
        },
      ],
    });
    const cart = { location_id: input.locationId, total_cents: 1_250 };
    const first = await keyed.orders.create(cart, { idempotencyKey: 'ecosystem-order-key' });
    const again = await keyed.orders.create(cart, { idempotencyKey: 'ecosystem-order-key' });
    check(
      again.order_id === first.order_id &&
        sentKeys.every((k) => k === 'd7ebaf9d-ed59-5687-a0e4-5b0ed3539f91') &&
        sentKeys.length === 2,
      'order key sent as its UUID v5 (one order for two calls)',
    );
    const payment = await client.payments.create(order.order_id, { method: 'card', amount_cents: 1_250 });
    check(payment.status === 'pending', 'payment created (pending)');
    const result = await client.awaitPaymentResult(order.order_id, payment.payment_id, {
      intervalMs: 20,
      timeoutMs: 10_000,
    });
    check(result.status === 'approved' || result.status === 'settled', `payment result ${result.status}`);
    // A refund needs a settled payment: the mock settles it shortly after approval.
    for (
      let i = 0;
      i < 500 && (await client.payments.get(order.order_id, payment.payment_id)).status !== 'settled';
      i++
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const refund = await client.refunds.create(order.order_id, payment.payment_id, { amount_cents: 500 });
    const refunded = await client.awaitRefundResult(order.order_id, payment.payment_id, refund.refund_id, {
      intervalMs: 20,
      timeoutMs: 10_000,
    });
    check(refunded.status === 'approved', 'refund approved');
    const missing = await client.orders.get('00000000-0000-4000-8000-000000000000').catch((e) => e);
    check(
      missing instanceof NotFoundError && missing instanceof PaymentsError && missing.status === 404,
      `404 mapped to ${missing?.name}`,
    );
    steps.push(`transport ${client.toJSON().transport}`);
    facts.webhookReason = await verifyWebhooks(input.webhook, check);
    await runtimePromises(client, input, check);
    return { ok: true, steps, ...facts };
  } catch (error) {
    return { ok: false, steps, ...facts, error: String(error?.stack ?? error) };
  }
}

// verifyWebhookAsync (Web Crypto) everywhere; verifyWebhook where node:crypto exists, and elsewhere
// a PaymentsError that names the asynchronous one. Returns the reason a tampered body was refused
// with (the host checks that every runtime gave the same).
async function verifyWebhooks({ body, header, secret }, check) {
  const { verifyWebhook, verifyWebhookAsync, WebhookVerificationError } = webhooks;
  const event = await verifyWebhookAsync(body, header, secret);
  check(event.event_kind === 'payment.approved', `verifyWebhookAsync: ${event.event_kind} verified`);
  const tampered = await verifyWebhookAsync(body.replace('}', ' }'), header, secret).catch((e) => e);
  check(
    tampered instanceof WebhookVerificationError && tampered.reason === 'signature_mismatch',
    `verifyWebhookAsync: tampered body refused (${tampered?.reason})`,
  );
  let sync;
  try {
    sync = verifyWebhook(body, header, secret);
  } catch (error) {
    sync = error;
  }
  if (sync instanceof Error) {
    check(
      !(sync instanceof WebhookVerificationError) && sync.message.includes('verifyWebhookAsync'),
      'verifyWebhook: no node:crypto here, the error names verifyWebhookAsync',
    );
  } else {
    check(sync.event_id === event.event_id, 'verifyWebhook: verified');
  }
  return tampered.reason;
}
