import { expect, it } from 'vitest';
import { ConflictError, NotFoundError } from '../../src/index.js';
import { describeWithMock, UNKNOWN_ID } from './mock-harness.js';

describeWithMock('refunds and locations', (h) => {
  it('refunds.create and get: pending, then approved once the processor confirms', async () => {
    const client = h.client();
    const { orderId, paymentId } = await h.payment('settled', 5_000);
    const refund = await client.refunds.create(orderId, paymentId, {
      amount_cents: 1_200,
      reason: 'duplicate',
    });
    expect(refund).toMatchObject({
      payment_id: paymentId,
      order_id: orderId,
      status: 'pending',
      amount_cents: 1_200,
      reason: 'duplicate',
    });
    h.mock().processor.confirmRefund(refund.refund_id);
    expect(await client.refunds.get(orderId, paymentId, refund.refund_id)).toMatchObject({
      status: 'approved',
    });
    await expect(client.refunds.get(orderId, paymentId, UNKNOWN_ID)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('refunds.create: a rejected refund is failed with processor_message', async () => {
    const client = h.client();
    const { orderId, paymentId } = await h.payment('settled', 5_000);
    const refund = await client.refunds.create(orderId, paymentId, { amount_cents: 100 });
    h.mock().processor.rejectRefund(refund.refund_id, 'Card account closed');
    expect(await client.refunds.get(orderId, paymentId, refund.refund_id)).toMatchObject({
      status: 'failed',
      processor_message: 'Card account closed',
    });
  });

  it('refunds.create: refund_window_expired once the processor window has passed; payment_not_found', async () => {
    const client = h.client();
    const { orderId, paymentId } = await h.payment('settled', 5_000);
    h.mock().clock.advance(181 * 24 * 3_600_000);
    await expect(client.refunds.create(orderId, paymentId, { amount_cents: 100 })).rejects.toMatchObject({
      constructor: ConflictError,
      code: 'refund_window_expired',
    });
    await expect(client.refunds.create(orderId, UNKNOWN_ID, { amount_cents: 100 })).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'payment_not_found',
    });
  });

  it('locations.list: 450 locations at limit 200 iterate once each, in order, in 3 page requests', async () => {
    const partner = h.mock().fixtures.partners[0]!;
    h.mock().seedLocations(partner.partnerId, 450 - partner.locations.all.length);
    const first = await h.client().locations.list({ limit: 200 });
    expect(first.total).toBe(450);
    const before = h.t.requests('GET', '/pos/v1/locations').length;
    const seen: string[] = [];
    for await (const location of h.client().locations.list({ limit: 200 })) seen.push(location.location_id);
    expect(seen).toHaveLength(450);
    expect(new Set(seen).size).toBe(450);
    const pages = h.t.requests('GET', '/pos/v1/locations').slice(before);
    expect(pages.map((r) => [r.query.get('limit'), r.query.get('offset')])).toEqual([
      ['200', '0'],
      ['200', '200'],
      ['200', '400'],
    ]);
    const inOrder = [...first.items.map((l) => l.location_id)];
    expect(seen.slice(0, 200)).toEqual(inOrder);
  });

  it('locations.list: a break after the first item fetches no further page; search passes through', async () => {
    const partner = h.mock().fixtures.partners[0]!;
    h.mock().seedLocations(partner.partnerId, 300);
    for await (const location of h.client().locations.list({ limit: 200 })) {
      expect(location.location_id).toEqual(expect.any(String));
      break;
    }
    expect(h.t.requests('GET', '/pos/v1/locations')).toHaveLength(1);
    const found = await h.client().locations.list({ search: 'Flagship' });
    expect(h.t.requests('GET', '/pos/v1/locations').at(-1)?.query.get('search')).toBe('Flagship');
    expect(found.items.map((l) => l.name)).toContain('Partner A Flagship');
  });

  it('locations.get: the get-one fields; location_not_found for another partner', async () => {
    const location = await h.client().locations.get(h.locationId());
    expect(location.features).toContain('payments');
    expect(location).toMatchObject({ location_id: h.locationId(), organization_id: expect.any(String) });
    const other = h.mock().fixtures.partners[1]!.locations.payments;
    await expect(h.client().locations.get(other)).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'location_not_found',
    });
  });
});
