import type { Browser, Page } from 'puppeteer-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TEST_CARDS } from '../../src/testing/index.js';
import { newPayment, paymentPath, useMock } from '../testing/helpers.js';
import { startReceiver } from '../testing/receiver.js';
import { launchBrowser } from './browser.js';
import { buildScene } from './scene.js';

const h = useMock();
let browser: Browser;
let page: Page;

beforeAll(async () => {
  browser = await launchBrowser();
}, 120_000);
afterAll(() => browser?.close());
beforeEach(async () => {
  page = await browser.newPage();
  page.on('dialog', (dialog) => void dialog.accept());
});
afterEach(() => page.close());

const dashboard = () => page.goto(`${h.server.baseUrl}/_mock/`, { waitUntil: 'load' });

/** Creates an order with a hosted checkout page that returns to the dashboard. */
const checkoutOrder = (body: Record<string, unknown>) =>
  h.call('POST', '/pos/v1/orders', {
    body: {
      location_id: h.a().location,
      return_url: `${h.server.baseUrl}/_mock/`,
      cancel_url: `${h.server.baseUrl}/_mock/`,
      ...body,
    },
  });

/** Clicks a row's button on the dashboard and waits until the row shows the new status. */
async function press(row: string, label: string, status: string) {
  await page.click(`${row} button[data-label="${label}"]`);
  await page.waitForSelector(`${row.replace(/\]$/, '')}][data-status="${status}"]`, { timeout: 10_000 });
}

describe('the hosted checkout page in a real browser', () => {
  it('pays with the approve card and lands on return_url; the API reports the order paid', async () => {
    const created = await checkoutOrder({ total_cents: 4_200, description: 'Browser test <b>order</b>' });
    await page.goto(created.body.hosted_checkout_url, { waitUntil: 'load' });
    expect(await page.$eval('h1', (el) => el.textContent)).toBe('Pay USD 42.00');
    expect(await page.$$eval('b', (els) => els.length)).toBe(0);
    await page.type('#card_number', TEST_CARDS.approve);
    await page.type('#expiry', '12/30');
    await page.type('#cvc', '123');
    await Promise.all([page.waitForNavigation(), page.click('button[value="pay"]')]);
    const landed = new URL(page.url());
    expect(landed.pathname).toBe('/_mock/');
    expect(landed.searchParams.get('status')).toBe('paid');
    const order = await h.call('GET', `/pos/v1/orders/${created.body.order_id}`);
    expect(order.body.status).toBe('paid');
    expect(order.body.payments).toEqual([
      expect.objectContaining({ status: 'approved', amount_cents: 4_200 }),
    ]);
  });

  it('stays on the page with a message for the decline card; the API reports the payment declined', async () => {
    const created = await checkoutOrder({ total_cents: 1_500 });
    await page.goto(created.body.hosted_checkout_url, { waitUntil: 'load' });
    await page.type('#card_number', TEST_CARDS.decline);
    await Promise.all([page.waitForNavigation(), page.click('button[value="pay"]')]);
    expect(await page.$eval('[role="alert"]', (el) => el.textContent)).toMatch(/declined/i);
    const order = await h.call('GET', `/pos/v1/orders/${created.body.order_id}`);
    expect(order.body.payments).toEqual([expect.objectContaining({ status: 'declined' })]);
  });
});

describe('the dashboard in a real browser', () => {
  it('drives a payment to settled and refunded with its buttons; the API reports each step', async () => {
    const ids = await newPayment(h);
    await dashboard();
    const row = `tr[data-payment-id="${ids.paymentId}"]`;
    expect(await page.$eval(`${row} button[data-label="settle"]`, (b) => b.hasAttribute('disabled'))).toBe(
      true,
    );
    await press(row, 'approve', 'approved');
    expect((await h.call('GET', paymentPath(ids))).body.status).toBe('approved');
    await press(row, 'settle', 'settled');
    expect((await h.call('GET', paymentPath(ids))).body.status).toBe('settled');
    expect(await page.$eval('#toast', (el) => el.textContent)).toBe('settle: done');

    const refund = await h.call('POST', `${paymentPath(ids)}/refunds`, { body: { amount_cents: 10_000 } });
    const refundRow = `tr[data-refund-id="${refund.body.refund_id}"]`;
    await page.waitForSelector(refundRow, { timeout: 10_000 }); // the page refreshes itself
    await press(refundRow, 'confirm', 'approved');
    expect((await h.call('GET', `${paymentPath(ids)}/refunds/${refund.body.refund_id}`)).body.status).toBe(
      'approved',
    );
    await page.waitForSelector(`${row}[data-status="refunded"]`);
    expect((await h.call('GET', paymentPath(ids))).body.status).toBe('refunded');
  });

  it('declines with a button, and advances the clock with one', async () => {
    const ids = await newPayment(h);
    await dashboard();
    await press(`tr[data-payment-id="${ids.paymentId}"]`, 'decline', 'declined');
    expect((await h.call('GET', paymentPath(ids))).body.status).toBe('declined');
    const before = h.mock.clock.now();
    await page.click('button[data-label="+1 h"]');
    await page.waitForSelector(`#clock-now[data-now-ms="${before + 3_600_000}"]`, { timeout: 10_000 });
    expect(h.mock.clock.now()).toBe(before + 3_600_000);
  });

  it('shows dead letters and replays one; shows no secret, token or checkout link; escapes content', async () => {
    const receiver = await startReceiver();
    try {
      await buildScene(h.mock, h.server, receiver.url, 'http://127.0.0.1:9/never');
      const evil = await checkoutOrder({ total_cents: 100, description: '<img src=x id=pwned>' });
      await dashboard();
      const dead = h.mock.webhooks.deadLetters()[0]!;
      const row = `tr[data-delivery-id="${dead.delivery_id}"]`;
      expect(await page.$eval(`${row} td:nth-child(4)`, (el) => el.textContent)).toContain('6/6');
      await press(row, 'replay', 'replayed');
      await h.mock.webhooks.flush();
      expect(h.mock.webhooks.deliveries().filter((d) => d.replay_of === dead.delivery_id)).toHaveLength(1);

      const html = await page.content();
      expect(await page.$('#pwned')).toBeNull();
      expect(html).toContain('&lt;img src=x id=pwned&gt;');
      for (const secret of [
        h.mock.credentials.clientSecret,
        'whsec_',
        'eyJ',
        new URL(evil.body.hosted_checkout_url).searchParams.get('token')!,
      ]) {
        expect(html).not.toContain(secret);
      }
      // Positive control: the same check finds a value that is on the page.
      expect(html).toContain(evil.body.order_id);
    } finally {
      await receiver.close();
    }
  });
});
