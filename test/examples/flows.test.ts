import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { catchUpExample } from '../../examples/catch-up.js';
import { chargeAndAwait } from '../../examples/charge-and-await.js';
import { checkout } from '../../examples/checkout.js';
import { hostedCheckout } from '../../examples/hosted-checkout.js';
import { launchLink } from '../../examples/launch-link.js';
import { listLocations } from '../../examples/list-locations.js';
import { refundAndVoid } from '../../examples/refund-and-void.js';
import { type ExampleContext, startExample } from '../../examples/support.js';
import { AuthenticationError, GoneError } from '../../src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let ctx: (ExampleContext & { close(): Promise<void> }) | undefined;
const lines: string[] = [];

async function context() {
  delete process.env.PAYMENTS_BASE_URL;
  lines.length = 0;
  ctx = await startExample((line) => lines.push(line));
  return ctx;
}

afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

describe('examples run against the embedded mock', () => {
  it('charge-and-await: the order is paid once the payment is approved', async () => {
    const { order, payment } = await chargeAndAwait(await context());
    // The demo mock settles 200 ms after approving: a slow poll may first see the payment settled.
    expect(['approved', 'settled']).toContain(payment.status);
    expect(order.status).toBe('paid');
    expect(lines.some((l) => /poll \d+: pending/.test(l))).toBe(true);
  });

  it('checkout: a handler run three times for one cart answers one order and one payment', async () => {
    const { answers, order } = await checkout(await context());
    expect(new Set(answers.map((a) => a.orderId)).size).toBe(1);
    expect(new Set(answers.map((a) => a.paymentId)).size).toBe(1);
    expect(order.payments.map((p) => p.payment_id)).toEqual([answers[0]!.paymentId]);
  });

  it('catch-up: the lost webhooks of three approved charges are caught up once', async () => {
    const { first, second, fulfilled } = await catchUpExample(await context());
    expect(first).toMatchObject({ checked: 3, delivered: 3, pending: 0, failed: 0 });
    expect(second.delivered).toBe(0);
    expect(new Set(fulfilled).size).toBe(3);
    expect(lines.filter((l) => l.endsWith('(caught up)'))).toHaveLength(3);
  });

  it('list-locations: iterates every seeded location across pages', async () => {
    const c = await context();
    const { total, iterated, detail } = await listLocations(c);
    expect(iterated).toBe(total);
    expect(total).toBe(c.mock!.fixtures.partners[0]!.locations.all.length);
    expect(detail.features).toContain('payments');
  });

  it('refund-and-void: voids before settlement, refunds after in two parts', async () => {
    const { voided, refunds, payment } = await refundAndVoid(await context());
    expect(voided.status).toBe('voided');
    expect(refunds.map((r) => r.status)).toEqual(['approved', 'approved']);
    expect(payment.status).toBe('refunded');
    expect(lines).toContain('payment after a partial refund: settled');
    expect(lines.some((l) => l.includes('payment_already_settled'))).toBe(true);
  });

  it('launch-link: a token works once', async () => {
    const { link, session, again } = await launchLink(await context());
    expect(session.location_id).toBe(link.location_id);
    expect(session.provisioned).toBe(true);
    expect(again).toSatisfy((e) => e instanceof AuthenticationError || e instanceof GoneError);
    // The credential itself is never printed.
    expect(lines.join('\n')).not.toContain(link.launch_token);
  });

  it('hosted-checkout: pays through the HTML page, confirms through the API, 410 on a second visit', async () => {
    const { paid, cancelled, secondVisitStatus } = await hostedCheckout(await context());
    expect(paid.landedOn).toMatch(/\/checkout\/return\?order_id=[\w-]+&status=paid$/);
    expect(paid.shopSays).toMatch(/^paid: order /);
    expect(cancelled.shopSays).toBe('cancelled');
    expect(secondVisitStatus).toBe(410);
    expect(lines.join('\n')).not.toContain('token=');
  });
});

describe('npm run demo', () => {
  it('runs the whole lifecycle and exits 0', async () => {
    const env = { ...process.env };
    delete env.PAYMENTS_BASE_URL;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
      cwd: root,
      env,
      timeout: 60_000,
    });
    for (const heading of [
      '1. Create an order',
      '2. Pay by card and await the result',
      '3. Receive and verify the payment.approved webhook',
      '4. Refund part of the payment',
      '5. Await the refund',
      '6. Void a second payment',
      '7. Hosted checkout round trip',
      '8. Summary',
    ]) {
      expect(stdout).toContain(heading);
    }
    expect(stdout).toMatch(/webhook received and verified: payment\.approved/);
    expect(stdout).toMatch(/refund: approved/);
    expect(stdout).toMatch(/second visit to the used checkout URL: 410/);
    expect(stdout.trim().endsWith('done')).toBe(true);
  }, 90_000);
});
