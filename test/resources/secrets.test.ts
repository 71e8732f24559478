import { inspect } from 'node:util';
import { expect, it } from 'vitest';
import { describeWithMock } from './mock-harness.js';

// Hosted checkout URLs and launch tokens are credentials too: they must not leak through the
// client's logs, events or errors, even when the SDK handles them.
describeWithMock('credentials in responses', (h) => {
  it('never logs or emits a hosted checkout token, a launch token or a session token', async () => {
    const out: string[] = [];
    const write = (...args: unknown[]) => out.push(args.map(String).join(' '));
    const client = h.client({
      logger: { debug: write, info: write, warn: write, error: write },
      logLevel: 'debug',
    });
    for (const name of ['request', 'response', 'retry', 'token'] as const) {
      client.on(name, (payload: unknown) => out.push(JSON.stringify(payload)));
    }

    const order = await client.orders.create({
      location_id: h.locationId(),
      total_cents: 900,
      return_url: 'https://shop.example.com/return',
      cancel_url: 'https://shop.example.com/cancel',
    });
    const checkoutToken = new URL(order.hosted_checkout_url!).searchParams.get('token')!;
    const link = await client.launchTokens.create({ location_id: h.locationId() });
    const session = await client.launchTokens.exchange(link.launch_token);
    const reused = await client.launchTokens.exchange(link.launch_token).catch((e: unknown) => e);
    out.push(
      String(reused),
      JSON.stringify(reused),
      inspect(reused, { depth: 5 }),
      inspect(client, { depth: 5 }),
    );

    expect(out.length).toBeGreaterThan(6);
    const all = out.join('\n');
    for (const secret of [checkoutToken, link.launch_token, session.session_token]) {
      expect(secret.length).toBeGreaterThan(10);
      expect(all).not.toContain(secret);
    }
  });
});
