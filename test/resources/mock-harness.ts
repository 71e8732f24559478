/**
 * Resource tests run against the full mock service through both transports (see
 * test/helpers/transports.ts). `describeWithMock` gives each test a fresh mock and helpers that
 * build the usual state (an order, a payment in a given status).
 */
import { describe } from 'vitest';
import { type PaymentsClient, type PaymentsClientOptions, SCOPES } from '../../src/index.js';
import { createMockService, type MockService } from '../../src/testing/index.js';
import { describeTransports, type TransportHarness } from '../helpers/transports.js';

export interface MockHarness {
  t: TransportHarness;
  /** This test's mock. */
  mock(): MockService;
  /** A client of the first partner with every scope (override with `options`). */
  client(options?: PaymentsClientOptions): PaymentsClient;
  /** The first partner's payments-enabled location. */
  locationId(): string;
  /** Creates an order (and optionally a payment taken to `status`). */
  order(totalCents?: number): Promise<{ orderId: string }>;
  payment(
    status?: 'pending' | 'approved' | 'settled',
    amountCents?: number,
  ): Promise<{ orderId: string; paymentId: string }>;
}

/** A UUID that names nothing. */
export const UNKNOWN_ID = '99999999-9999-4999-8999-999999999999';

export function describeWithMock(name: string, body: (h: MockHarness) => void): void {
  describe(name, () => {
    let mock: MockService;
    describeTransports(
      name,
      (t) => {
        const h: MockHarness = {
          t,
          mock: () => mock,
          client: (options) =>
            t.client({ ...mock.credentials, scopes: [...SCOPES], maxRetries: 0, ...options }),
          locationId: () => mock.fixtures.partners[0]!.locations.payments,
          async order(totalCents = 10_000) {
            const order = await h
              .client()
              .orders.create({ location_id: h.locationId(), total_cents: totalCents });
            return { orderId: order.order_id };
          },
          async payment(status = 'pending', amountCents = 10_000) {
            const { orderId } = await h.order(amountCents);
            const payment = await h
              .client()
              .payments.create(orderId, { method: 'card', amount_cents: amountCents });
            if (status !== 'pending') mock.processor.approve(payment.payment_id);
            if (status === 'settled') mock.processor.settle(payment.payment_id);
            return { orderId, paymentId: payment.payment_id };
          },
        };
        body(h);
      },
      {
        handlers: () => {
          mock = createMockService({ rateLimits: false });
          return mock.handlers;
        },
      },
    );
  });
}
