/**
 * Issue 53, item 8: `refund_payment` on a server started without `payments:refund` tells the agent
 * to restart the server with the scope in `--scopes`, never to change the client's code (the SDK's
 * advice for a program). The control: the same server's charge works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, connectStdio, type Recorded, type Session, serveRecording } from './helpers.js';

let served: Recorded;
let session: Session;
beforeAll(async () => {
  served = await serveRecording();
  session = await connectStdio(served, ['--allow-writes']);
}, 60_000);
afterAll(async () => {
  await session?.close();
  await served?.close();
});

describe('refund_payment without the payments:refund scope', () => {
  it('says to restart the server with --scopes, and nothing of code', async () => {
    const location_id = served.mock.fixtures.partners[0]!.locations.payments;
    const charged = await session.call('charge', {
      idempotency_key: 'scope-1',
      order: { location_id, total_cents: 500 },
    });
    expect(charged.isError, JSON.stringify(charged)).toBeFalsy();
    const { order, payment } = body(charged) as {
      order: { order_id: string };
      payment: { payment_id: string };
    };
    served.mock.processor.approve(payment.payment_id);
    served.mock.processor.settle(payment.payment_id);
    const refused = await session.call('refund_payment', {
      idempotency_key: 'scope-r1',
      order_id: order.order_id,
      payment_id: payment.payment_id,
      amount_cents: 100,
    });
    expect(refused.isError).toBe(true);
    const result = body(refused) as { error: string; message: string; fix: string };
    expect(result.error).toBe('insufficient_scope');
    expect(result.message).toContain('svc/payments:refund');
    expect(result.fix).toMatch(/^Restart the server with payments:refund added to --scopes/);
    const said = `${result.message} ${result.fix}`;
    expect(said).not.toMatch(/new PaymentsClient|`scopes` option|DEFAULT_SCOPES/);
  }, 60_000);
});
