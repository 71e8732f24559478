import { describe, expectTypeOf, it } from 'vitest';
import type {
  LocationSummary,
  Order,
  OrderCreated,
  OrderWithCheckout,
  Page,
  Payment,
  PaymentStatus,
  PaymentsClient,
  Refund,
} from '../../src/index.js';

declare const client: PaymentsClient;
const LOC = '6f1c1d3e-8c1a-4f7e-9d55-2b1f0d9a7c11';

describe('resource types', () => {
  it('accepts a float literal in amount_cents at the type level (rejected at run time)', () => {
    expectTypeOf(client.payments.create).toBeCallableWith(LOC, { method: 'card', amount_cents: 10.5 });
  });

  it('makes a missing required field a type error', () => {
    // @ts-expect-error total_cents is required
    void client.orders.create({ location_id: LOC });
    // @ts-expect-error method is required
    void client.payments.create(LOC, { amount_cents: 100 });
    // @ts-expect-error amount_cents is required
    void client.refunds.create(LOC, LOC, { reason: 'other' });
  });

  it('keeps statuses open: unknown strings type-check, known ones autocomplete', () => {
    expectTypeOf<'approved'>().toExtend<PaymentStatus>();
    expectTypeOf<'a_status_added_next_year'>().toExtend<Payment['status']>();
    expectTypeOf<'pending'>().toExtend<Refund['status']>();
  });

  it('types the hosted checkout fields as present when return and cancel URLs are given', () => {
    expectTypeOf(
      client.orders.create({
        location_id: LOC,
        total_cents: 100,
        return_url: 'https://a',
        cancel_url: 'https://b',
      }),
    ).resolves.toEqualTypeOf<OrderWithCheckout>();
    expectTypeOf<OrderWithCheckout['expires_at']>().toEqualTypeOf<string>();
    expectTypeOf(
      client.orders.create({ location_id: LOC, total_cents: 100 }),
    ).resolves.toEqualTypeOf<OrderCreated>();
  });

  it('returns typed reads', () => {
    expectTypeOf(client.orders.get(LOC)).resolves.toEqualTypeOf<Order>();
    expectTypeOf(client.payments.get(LOC, LOC)).resolves.toEqualTypeOf<Payment>();
    expectTypeOf(client.awaitPaymentResult(LOC, LOC)).resolves.toEqualTypeOf<Payment>();
  });

  it('makes a location list both a page promise and an async iterable of locations', async () => {
    const list = client.locations.list({ limit: 200 });
    expectTypeOf(list).toExtend<PromiseLike<Page<LocationSummary>>>();
    for await (const location of list) expectTypeOf(location).toEqualTypeOf<LocationSummary>();
  });
});
