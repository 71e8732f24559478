import { inspect } from 'node:util';
import { HttpResponse, http } from 'msw';
import { expect, it } from 'vitest';
import type { PaymentsClient } from '../../src/index.js';
import { apiError } from '../helpers/handlers.js';
import { describeWithMock } from './mock-harness.js';

// Hosted checkout URLs, launch tokens and session tokens are credentials too: they must not leak
// through the client's logs, events or errors, even when the service echoes them back.

/** Every log line, event payload and rendering of the errors a client produces. */
function observe(client: PaymentsClient, out: string[]) {
  for (const name of ['request', 'response', 'retry', 'token'] as const) {
    client.on(name, (payload: unknown) => out.push(JSON.stringify(payload)));
  }
}
const render = (error: unknown) => [
  String(error),
  (error as Error).message,
  JSON.stringify(error),
  inspect(error, { depth: 5 }),
];

describeWithMock('credentials in responses', (h) => {
  it('a launch token, a checkout token and a session token echoed by the service never reach output', async () => {
    const out: string[] = [];
    const write = (...args: unknown[]) => out.push(args.map(String).join(' '));
    const client = h.client({
      logger: { debug: write, info: write, warn: write, error: write },
      logLevel: 'debug',
    });
    observe(client, out);

    // Real credentials from the mock.
    const order = await client.orders.create({
      location_id: h.locationId(),
      total_cents: 900,
      return_url: 'https://shop.example.com/return',
      cancel_url: 'https://shop.example.com/cancel',
    });
    const checkoutUrl = order.hosted_checkout_url ?? '';
    const checkoutToken = new URL(checkoutUrl).searchParams.get('token') ?? '';
    const link = await client.launchTokens.create({ location_id: h.locationId() });
    const session = await client.launchTokens.exchange(link.launch_token);

    // From here on the service echoes them, bare, in error bodies and unreadable success bodies.
    const echoed: string[] = [];
    const echo = (body: string, status: number) => {
      echoed.push(body);
      return status >= 400
        ? apiError(status, status === 401 ? 'invalid_token' : 'internal_error', body)
        : HttpResponse.json({ unexpected: body }, { status });
    };
    h.t.use(
      http.post('*/pos/v1/public/launch-exchange', async ({ request }) => {
        const { launch_token } = (await request.json()) as { launch_token: string };
        return echo(`Launch token ${launch_token} is unknown or was already used`, 401);
      }),
      http.get('*/pos/v1/orders/:id', () =>
        echo(`order has checkout ${checkoutUrl} (token ${checkoutToken})`, 500),
      ),
      http.get('*/pos/v1/locations/:id', () =>
        echo(`session ${session.session_token} is not a location`, 200),
      ),
    );
    const errors = [
      await client.launchTokens.exchange(link.launch_token).catch((e: unknown) => e),
      await client.orders.get(order.order_id).catch((e: unknown) => e),
      await client.locations.get(h.locationId()).catch((e: unknown) => e),
    ];
    for (const error of errors) out.push(...render(error));
    out.push(inspect(client, { depth: 5 }), JSON.stringify(client));

    // Positive control: the service really put each credential, bare, in what the SDK read.
    const secrets = [checkoutToken, link.launch_token, session.session_token];
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(10);
      expect(echoed.some((body) => body.includes(secret))).toBe(true);
    }
    // ... and the errors carry the rest of those bodies, so a leak would have shown.
    expect(String(errors[0])).toContain('is unknown or was already used');
    expect(String(errors[1])).toContain('order has checkout');
    expect(errors.map((e) => (e as Error).name)).toEqual([
      'AuthenticationError',
      'InternalServerError',
      'InvalidResponseError',
    ]);

    const all = out.join('\n');
    for (const secret of secrets) expect(all).not.toContain(secret);
  });
});
