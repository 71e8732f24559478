// The mock's hosted payment page (spec 4.11): GET renders the card form, POST pays with a test card
// or cancels, then redirects to the order's return or cancel URL.
import { checkoutPage, luhnValid, noticePage, TEST_CARDS } from '../domain/hosted-page.js';
import { useCheckout } from '../domain/orders.js';
import { createPayment, movePayment } from '../domain/payments.js';
import type { MockCore } from '../engine/mock-core.js';
import { deriveOrderStatus, remainingCents } from '../engine/order-status.js';
import { html, MockApiError, type Reply, redirect } from '../engine/respond.js';
import type { RouteContext } from '../engine/router.js';
import type { OrderRecord } from '../state.js';
import type { Handlers } from './handlers.js';

const PAGE_PATH = '/pos/v1/public/hosted-checkout';

type Checkout = { ok: true; order: OrderRecord; token: string } | { ok: false; response: Reply };

/** Checks the page token: 400 when it is not ours, 410 once used or expired. */
async function openCheckout(core: MockCore, ctx: RouteContext, token: string): Promise<Checkout> {
  const gone = (text: string) => ({
    ok: false as const,
    response: html(410, noticePage('Link no longer valid', text), ctx.requestId),
  });
  const invalid = {
    ok: false as const,
    response: html(400, noticePage('Invalid link', 'This payment link is not valid.'), ctx.requestId),
  };
  let claims: Record<string, unknown>;
  try {
    claims = core.authority.verify(token, core.clock.now());
  } catch (error) {
    if (error instanceof MockApiError && error.code === 'token_expired') {
      return gone('This payment link has expired. Ask the merchant for a new one.');
    }
    return invalid;
  }
  const order = typeof claims.order_id === 'string' ? core.state.orders.get(claims.order_id) : undefined;
  if (claims.typ !== 'hosted_checkout' || !order) return invalid;
  if (order.checkoutUsed || deriveOrderStatus(order.total_cents, core.state.paymentsOf(order)) === 'paid') {
    return gone('This payment link was already used.');
  }
  return { ok: true, order, token };
}

function page(
  core: MockCore,
  ctx: RouteContext,
  checkout: { order: OrderRecord; token: string },
  status: number,
  message?: string,
) {
  const location = core.state.locations.get(checkout.order.location_id);
  return html(
    status,
    checkoutPage({
      actionPath: PAGE_PATH,
      token: checkout.token,
      totalCents: remainingCents(checkout.order.total_cents, core.state.paymentsOf(checkout.order)),
      currency: location?.currency ?? 'USD',
      description: checkout.order.description,
      ...(message ? { message } : {}),
    }),
    ctx.requestId,
  );
}

/** 4.11 the hosted payment page: GET renders the card form, POST pays or cancels. */
export function hostedCheckoutRoutes(
  core: MockCore,
): Pick<Handlers, 'hostedCheckoutPage' | 'payHostedCheckout'> {
  return {
    async hostedCheckoutPage(ctx) {
      const checkout = await openCheckout(core, ctx, ctx.url.searchParams.get('token') ?? '');
      return checkout.ok ? page(core, ctx, checkout, 200) : checkout.response;
    },
    async payHostedCheckout(ctx) {
      const form = new URLSearchParams(ctx.rawBody);
      const checkout = await openCheckout(core, ctx, form.get('token') ?? '');
      if (!checkout.ok) return checkout.response;
      const { order } = checkout;
      if (form.get('action') === 'cancel') return redirect(order.cancel_url ?? '/', ctx.requestId);
      const card = (form.get('card_number') ?? '').replace(/[\s-]/g, '');
      if (!luhnValid(card)) return page(core, ctx, checkout, 422, 'Check the card number and try again.');
      let paymentId: string;
      try {
        const amount = remainingCents(order.total_cents, core.state.paymentsOf(order));
        // A payment made through the API may already cover the rest: never take a 0-cent card payment.
        if (amount <= 0)
          throw new MockApiError(409, 'order_not_open', 'A payment for this order is in progress');
        paymentId = createPayment(core, order, amount, order.level3).payment_id;
      } catch (error) {
        if (!(error instanceof MockApiError)) throw error;
        return html(409, noticePage('Payment not possible', error.message), ctx.requestId);
      }
      if (card === TEST_CARDS.decline) {
        movePayment(core, paymentId, 'declined');
        return page(core, ctx, checkout, 402, 'Your card was declined. Try another card.');
      }
      if (card === TEST_CARDS.processingError) {
        movePayment(core, paymentId, 'failed');
        return page(core, ctx, checkout, 502, 'The payment could not be processed. Try again.');
      }
      movePayment(core, paymentId, 'approved');
      useCheckout(order);
      const target = new URL(order.return_url ?? ctx.origin);
      target.searchParams.set('order_id', order.order_id);
      target.searchParams.set('status', 'paid');
      return redirect(target.toString(), ctx.requestId);
    },
  };
}
