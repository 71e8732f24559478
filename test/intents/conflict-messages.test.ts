/**
 * Issue 53, item 7: an IdempotencyConflictError says what happened. From a fresh client the order
 * POST was sent and the service refused it (not "nothing was sent"); a charge rerun with another
 * total conflicts with the charge, not with "another payment".
 */
import { describe, expect, it } from 'vitest';
import { IdempotencyConflictError, PaymentsClient } from '../../src/index.js';
import { createMockService } from '../../src/testing/index.js';

function setUp() {
  const mock = createMockService();
  const order = (total_cents: number) => ({
    location_id: mock.fixtures.partners[0]!.locations.payments,
    total_cents,
  });
  const client = () => new PaymentsClient({ ...mock.clientOptions(), fetch: mock.fetch });
  return { mock, order, client };
}

describe('IdempotencyConflictError messages', () => {
  it('a fresh client: the order request was sent and refused by the service', async () => {
    const { order, client } = setUp();
    await client().charge({ idempotencyKey: 'k-1', order: order(100) });
    const error = await client()
      .charge({ idempotencyKey: 'k-1', order: order(200) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    const { message } = error as Error;
    expect(message).toContain('The service refused');
    expect(message).toContain('order request was sent and refused');
    expect(message).not.toContain('nothing was sent');
    expect(message).toMatch(/get that charge back/);
  });

  it('the same client: the store refused the charge before sending, and names a charge', async () => {
    const { order, client, mock } = setUp();
    const one = client();
    await one.charge({ idempotencyKey: 'k-2', order: order(100) });
    const sent = mock.snapshot().orders.length;
    const error = await one.charge({ idempotencyKey: 'k-2', order: order(200) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    const { message } = error as Error;
    expect(message).toMatch(/was used for a charge with other params \(order [0-9a-f-]{36}, 100 cents\)/);
    expect(message).not.toContain('another payment');
    expect(message).toContain('nothing was sent');
    expect(mock.snapshot().orders).toHaveLength(sent);
  });

  it('payments.create under a used key names a payment with other params', async () => {
    const { order, client } = setUp();
    const one = client();
    const first = await one.orders.create(order(100));
    await one.payments.create(
      first.order_id,
      { method: 'card', amount_cents: 100 },
      { idempotencyKey: 'p-1' },
    );
    const second = await one.orders.create(order(300));
    const error = await one.payments
      .create(second.order_id, { method: 'card', amount_cents: 300 }, { idempotencyKey: 'p-1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect((error as Error).message).toMatch(
      /was used for a payment with other params \(order .*, 100 cents\); nothing was sent/,
    );
  });
});
