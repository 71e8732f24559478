// A partner's flow through a client generated from the mock's OpenAPI document, as another team would
// write it: the types come only from `./schema.js`, which test/openapi/typed-client.test.ts generates
// with openapi-typescript into .tmp/openapi-client/ beside a copy of this file, then compiles both
// with `tsc --strict` (skipLibCheck off) and runs this. Excluded from the repository's tsconfig: the
// schema it imports exists only once generated.
import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

/** Where the flow runs, and the fetch it goes through (the test records every exchange there). */
export interface FlowOptions {
  origin: string;
  clientId: string;
  clientSecret: string;
  fetch: (request: Request) => Promise<Response>;
}

/** What the flow saw, for the test to assert on. */
export interface FlowResult {
  locationId: string;
  orderId: string;
  paymentId: string;
  replayedOrderId: string;
  orderStatus: string;
  paymentIds: string[];
}

// openapi-fetch returns { data } or { error }; a flow step that got an error stops the flow.
function ok<T>(step: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) {
    throw new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

export async function runFlow(options: FlowOptions): Promise<FlowResult> {
  const auth = createClient<paths>({ baseUrl: options.origin, fetch: options.fetch });
  const token = ok(
    'token',
    await auth.POST('/oauth2/token', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: {
        grant_type: 'client_credentials',
        client_id: options.clientId,
        client_secret: options.clientSecret,
      },
    }),
  );
  const api = createClient<paths>({
    baseUrl: options.origin,
    fetch: options.fetch,
    headers: { Authorization: `Bearer ${token.access_token}` },
  });

  const page = ok('list locations', await api.GET('/pos/v1/locations', { params: { query: { limit: 10 } } }));
  let locationId: string | undefined;
  for (const item of page.items) {
    const location = ok(
      'get location',
      await api.GET('/pos/v1/locations/{location_id}', {
        params: { path: { location_id: item.location_id } },
      }),
    );
    if (location.active && location.features.includes('payments')) {
      locationId = location.location_id;
      break;
    }
  }
  if (!locationId) throw new Error('no active location with payments on the first page');

  const key = crypto.randomUUID();
  const createOrder = () =>
    api.POST('/pos/v1/orders', {
      params: { header: { 'Idempotency-Key': key } },
      body: {
        location_id: locationId,
        total_cents: 1250, // PLANT: a type error replaces this line in the test's positive control
        description: 'Typed client flow',
      },
    });
  const order = ok('create order', await createOrder());
  const replayed = ok('create order again (same key)', await createOrder());

  const payment = ok(
    'create payment',
    await api.POST('/pos/v1/orders/{order_id}/payments', {
      params: { path: { order_id: order.order_id } },
      body: { method: 'card', amount_cents: order.total_cents },
    }),
  );
  ok(
    'get payment',
    await api.GET('/pos/v1/orders/{order_id}/payments/{payment_id}', {
      params: { path: { order_id: order.order_id, payment_id: payment.payment_id } },
    }),
  );
  const read = ok(
    'get order',
    await api.GET('/pos/v1/orders/{order_id}', { params: { path: { order_id: order.order_id } } }),
  );
  return {
    locationId,
    orderId: order.order_id,
    paymentId: payment.payment_id,
    replayedOrderId: replayed.order_id,
    orderStatus: read.status,
    paymentIds: read.payments.map((p) => p.payment_id),
  };
}
