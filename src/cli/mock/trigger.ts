// The bin's `trigger` command: makes a running mock emit one event of a given kind, through its API
// and control API only, and returns the event id.
import type { KnownEventKind } from '../../schemas/events.js';
import { createMockService } from '../../testing/index.js';

/** A trigger step that failed: printed as one line, exit code 1. */
export class TriggerError extends Error {
  override readonly name = 'TriggerError';
}

type Json = Record<string, unknown>;

/** What each event kind needs before the control that emits it. */
const PLANS: Record<KnownEventKind, { settle: boolean; refund: boolean; steps: string[] }> = {
  'payment.approved': { settle: false, refund: false, steps: ['approve'] },
  'payment.cancelled': { settle: false, refund: false, steps: ['cancel'] },
  'payment.expired': { settle: false, refund: false, steps: ['expire'] },
  'payment.voided': { settle: false, refund: false, steps: ['approve', 'void'] },
  'payment.refunded': { settle: true, refund: true, steps: ['confirm'] },
  'payment.reversal_settled': { settle: true, refund: true, steps: ['confirm'] },
  'payment.reversal_failed': { settle: true, refund: true, steps: ['reject'] },
};

/**
 * Makes a running mock emit one event of `kind` for the first seeded partner, through the API and
 * the control API only (so it works against a mock in another process), and returns its event id.
 */
export async function trigger(
  mockUrl: string,
  kind: KnownEventKind,
): Promise<{ eventId: string; paymentId: string }> {
  // The bin seeds the same fixtures every time: read the first partner's from a local instance.
  const partner = createMockService().fixtures.partners[0]!;
  const client = partner.clients[0]!;
  const call = async (method: string, path: string, body?: unknown, token?: string): Promise<Json> => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${mockUrl}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch {
      throw new TriggerError(`no mock answers at ${mockUrl}; start one with: npx partner-payments-mock`);
    }
    const data = (await response.json().catch(() => ({}))) as Json;
    if (!response.ok) {
      throw new TriggerError(`${method} ${path} answered ${response.status} ${data.error}: ${data.message}`);
    }
    return data;
  };

  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
  let minted: Response;
  try {
    minted = await fetch(`${mockUrl}/oauth2/token`, { method: 'POST', body: form });
  } catch {
    throw new TriggerError(`no mock answers at ${mockUrl}; start one with: npx partner-payments-mock`);
  }
  if (!minted.ok)
    throw new TriggerError(`the mock at ${mockUrl} refused the seeded client (${minted.status})`);
  const token = ((await minted.json()) as Json).access_token as string;

  const plan = PLANS[kind];
  const amount = 2500;
  const order = await call(
    'POST',
    '/pos/v1/orders',
    { location_id: partner.locations.payments, total_cents: amount, description: `trigger ${kind}` },
    token,
  );
  const orderPath = `/pos/v1/orders/${order.order_id}`;
  const payment = await call(
    'POST',
    `${orderPath}/payments`,
    { method: 'card', amount_cents: amount },
    token,
  );
  const paymentId = payment.payment_id as string;
  const paymentPath = `${orderPath}/payments/${paymentId}`;
  const drive = (action: string) => call('POST', `/_mock/v1/payments/${paymentId}/${action}`);
  let refundId: string | null = null;
  if (plan.settle) {
    await drive('approve');
    await drive('settle');
  }
  if (plan.refund) {
    const refund = await call('POST', `${paymentPath}/refunds`, { amount_cents: amount }, token);
    refundId = refund.refund_id as string;
  }
  for (const step of plan.steps) {
    if (step === 'void') await call('POST', `${paymentPath}/void`, {}, token);
    else if (refundId) await call('POST', `/_mock/v1/refunds/${refundId}/${step}`);
    else await drive(step);
  }
  const events = (await call('GET', '/_mock/v1/events')).data as Json[];
  const event = events.findLast(
    (e) => e.event_kind === kind && (e.resource as Json | undefined)?.payment_id === paymentId,
  );
  if (!event) throw new TriggerError(`the mock emitted no ${kind} for payment ${paymentId}`);
  return { eventId: event.event_id as string, paymentId };
}
