import { inspect } from 'node:util';
import { http } from 'msw';
import { expect, it } from 'vitest';
import { SecretRegistry } from '../../src/internal/redact.js';
import { caught } from '../helpers/caught.js';
import { ORDER_ID } from '../helpers/fixtures.js';
import { apiError } from '../helpers/handlers.js';
import { describeTransports } from '../helpers/transports.js';

const SECRET_A = 'user_token_of_A_7f3k9q';
const SECRET_B = 'user_token_of_B_2m8x4w';

const render = (error: unknown) =>
  [(error as Error).message, JSON.stringify(error), inspect(error), (error as Error).stack].join('\n');

describeTransports('per-client secret registry', (t) => {
  it("a client's secret is redacted in its own errors and never in another client's", async () => {
    // The service quotes a string given in a header: each client sends one that is A's secret.
    t.use(
      http.get('*/pos/v1/orders/:id', ({ request }) =>
        apiError(404, 'order_not_found', `no order for ${request.headers.get('x-quote')}`),
      ),
    );
    const a = t.client({ accessToken: SECRET_A, defaultHeaders: { 'x-quote': SECRET_A } });
    const b = t.client({ accessToken: SECRET_B, defaultHeaders: { 'x-quote': SECRET_A } });
    const fromA = render(await caught(a.orders.get(ORDER_ID)));
    const fromB = render(await caught(b.orders.get(ORDER_ID)));
    // Positive control: the server really quoted the value to both, and A's registry redacted it.
    expect(fromA).toContain('no order for [REDACTED]');
    expect(fromA).not.toContain(SECRET_A);
    // To B it is just a word: B's message is untouched.
    expect(((await caught(b.orders.get(ORDER_ID))) as Error).message).toContain(`no order for ${SECRET_A}`);
    expect(fromB).not.toContain(SECRET_B);
  });

  it('a derived client shares the registry of its parent', async () => {
    t.use(
      http.get('*/pos/v1/orders/:id', ({ request }) =>
        apiError(404, 'order_not_found', `no order for ${request.headers.get('authorization')?.slice(7)}`),
      ),
    );
    const parent = t.client({ accessToken: SECRET_A });
    const error = await caught(parent.withOptions({ maxRetries: 0 }).orders.get(ORDER_ID));
    expect((error as Error).message).toContain('no order for [REDACTED]');
  });
});

it('a registry redacts only its own values, plus the generic credential patterns', () => {
  const registry = new SecretRegistry();
  registry.add(SECRET_A);
  registry.add('abc'); // too short to register: it would redact ordinary words
  expect(registry.size).toBe(1);
  expect(registry.redact(`${SECRET_A} ${SECRET_B} abc Bearer xyz.123`)).toBe(
    `[REDACTED] ${SECRET_B} abc Bearer [REDACTED]`,
  );
  registry.delete(SECRET_A);
  expect(registry.redact(SECRET_A)).toBe(SECRET_A);
});
