import { describe, expect, it } from 'vitest';
import { type Answer, useMock } from './helpers.js';

// Spec 1.8: every location, order and payment is visible only inside the calling partner's subtree.
// The seed has partner C (parent) with one child partner D; A and B stay flat.

const h = useMock();

function subtree() {
  const { parentPartner: parent, childPartner: child } = h.mock.fixtures;
  return { parent, child };
}

async function as(client: { clientId: string; clientSecret: string }) {
  const token = await h.token(client);
  return (method: string, path: string, body?: unknown): Promise<Answer> =>
    h.call(method, path, { token, ...(body === undefined ? {} : { body }) });
}

describe('the partner subtree (spec 1.8)', () => {
  it('the seed: C is the parent of D; A and B have no parent', () => {
    const { parent, child } = subtree();
    expect(child.parentPartnerId).toBe(parent.partnerId);
    expect(parent.parentPartnerId).toBeNull();
    expect(h.mock.fixtures.partners.slice(0, 2).map((p) => p.parentPartnerId)).toEqual([null, null]);
  });

  it("a parent reads, lists and orders at its child's locations, and reads, pays and voids the child's orders", async () => {
    const { parent, child } = subtree();
    const asParent = await as(parent.clients[0]!);
    const asChild = await as(child.clients[0]!);
    const listed = await asParent('GET', '/pos/v1/locations?limit=200');
    expect(listed.body.items.map((l: { location_id: string }) => l.location_id).sort()).toEqual(
      [...parent.locations.all, ...child.locations.all].sort(),
    );
    expect((await asParent('GET', `/pos/v1/locations/${child.locations.payments}`)).status).toBe(200);

    // An order at the child's location belongs to the child: both see it.
    const order = await asParent('POST', '/pos/v1/orders', {
      location_id: child.locations.payments,
      total_cents: 700,
    });
    expect(order.status).toBe(201);
    const payment = await asChild('POST', `/pos/v1/orders/${order.body.order_id}/payments`, {
      method: 'card',
      amount_cents: 700,
    });
    expect(payment.status).toBe(201);
    const seen = await asParent('GET', `/pos/v1/orders/${order.body.order_id}`);
    expect(seen.body.payments.map((p: { payment_id: string }) => p.payment_id)).toEqual([
      payment.body.payment_id,
    ]);
    const voided = await asParent(
      'POST',
      `/pos/v1/orders/${order.body.order_id}/payments/${payment.body.payment_id}/void`,
    );
    expect(voided.body.status).toBe('voided');
    const launch = await asParent('POST', '/pos/v1/launch-tokens', { location_id: child.locations.payments });
    expect(launch.status).toBe(201);
  });

  it("a child sees nothing of its parent's: location_out_of_scope, location_not_found, order_not_found", async () => {
    const { parent, child } = subtree();
    const asParent = await as(parent.clients[0]!);
    const asChild = await as(child.clients[0]!);
    const parentOrder = await asParent('POST', '/pos/v1/orders', {
      location_id: parent.locations.payments,
      total_cents: 300,
    });
    const attempts: [string, Answer, number, string][] = [
      [
        'create order',
        await asChild('POST', '/pos/v1/orders', { location_id: parent.locations.payments, total_cents: 1 }),
        403,
        'location_out_of_scope',
      ],
      [
        'launch token',
        await asChild('POST', '/pos/v1/launch-tokens', { location_id: parent.locations.payments }),
        403,
        'location_out_of_scope',
      ],
      [
        'get location',
        await asChild('GET', `/pos/v1/locations/${parent.locations.payments}`),
        404,
        'location_not_found',
      ],
      [
        'get order',
        await asChild('GET', `/pos/v1/orders/${parentOrder.body.order_id}`),
        404,
        'order_not_found',
      ],
      [
        'webhook endpoint for the parent',
        await asChild('POST', `/admin/v1/partners/${parent.partnerId}/webhook-endpoints`, {
          url: 'https://127.0.0.1:9/hooks',
        }),
        403,
        'permission_denied',
      ],
    ];
    for (const [what, answer, status, code] of attempts) {
      expect([what, answer.status, answer.body.error]).toEqual([what, status, code]);
    }
    const listed = await asChild('GET', '/pos/v1/locations?limit=200');
    expect(listed.body.total).toBe(child.locations.all.length);
  });

  it("a partner outside the tree sees neither; the parent's webhook endpoint receives its child's events", async () => {
    const { parent, child } = subtree();
    const a = h.mock.fixtures.partners[0]!;
    const asA = await as(a.clients[0]!);
    const outside = await asA('POST', '/pos/v1/orders', {
      location_id: child.locations.payments,
      total_cents: 1,
    });
    expect([outside.status, outside.body.error]).toEqual([403, 'location_out_of_scope']);

    const asParent = await as(parent.clients[0]!);
    const forChild = await asParent('POST', `/admin/v1/partners/${child.partnerId}/webhook-endpoints`, {
      url: 'https://127.0.0.1:9/child',
    });
    expect(forChild.status).toBe(201);
    expect(forChild.body.partner_id).toBe(child.partnerId);
    const own = await asParent('POST', `/admin/v1/partners/${parent.partnerId}/webhook-endpoints`, {
      url: 'https://127.0.0.1:9/parent',
    });
    const order = await asParent('POST', '/pos/v1/orders', {
      location_id: child.locations.payments,
      total_cents: 900,
    });
    const payment = await asParent('POST', `/pos/v1/orders/${order.body.order_id}/payments`, {
      method: 'card',
      amount_cents: 900,
    });
    h.mock.processor.approve(payment.body.payment_id);
    const deliveries = h.mock.webhooks.deliveries().filter((d) => d.event_kind === 'payment.approved');
    expect(deliveries.map((d) => d.webhook_endpoint_id).sort()).toEqual(
      [forChild.body.webhook_endpoint_id, own.body.webhook_endpoint_id].sort(),
    );
    expect(JSON.parse(deliveries[0]!.body).partner_id).toBe(child.partnerId);
  });
});
