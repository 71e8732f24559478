// `client.charge` (api.md 19): one business key for an order and its payment, so that a partner's
// retried unit of work (a checkout, an invoice) never makes a second order or a second payment.

import { restate } from './core/call/final-error.js';
import { checkKey } from './core/call/idempotency-key.js';
import type { Requester } from './core/call/requester.js';
import { validate } from './core/call/validate.js';
import { ConflictError } from './core/errors/api-errors.js';
import { CallError } from './core/errors/call-error.js';
import { IdempotencyConflictError } from './core/errors/local-errors.js';
import type { IntentStore } from './core/stores/intent-store.js';
import type { RequestOptions } from './core/types.js';
import { storeFailure } from './intents/failures.js';
import { formatCents } from './internal/format.js';
import type { AwaitResultOptions } from './polling.js';
import { paymentCreation } from './resources/endpoints.js';
import type { Orders } from './resources/orders.js';
import { OrderCreateRequest } from './schemas/compiled/orders.js';
import { Payment, PaymentCreateParams } from './schemas/compiled/payments.js';
import type { Order, OrderCreated, OrderCreateParams } from './schemas/orders.js';
import type * as P from './schemas/payments.js';

/**
 * What `client.charge` takes: the partner's own key for the whole unit of work, the order, and
 * (optionally) the payment and whether to wait for its result.
 *
 * @example
 * const params: ChargeParams = {
 *   idempotencyKey: `checkout-${cart.id}`,
 *   order: { location_id: locationId, total_cents: cart.totalCents, external_reference: cart.id },
 * };
 */
export interface ChargeParams {
  /**
   * Names the order and its payment: the same key again returns them and creates neither again.
   * Use the id of the partner's own unit of work (a cart, a checkout, an invoice), stable across
   * its retries; never a value made per attempt (a timestamp, a random id). 1 to 255 characters.
   */
  idempotencyKey: string;
  /** The order, as `orders.create` takes it. */
  order: OrderCreateParams;
  /**
   * The payment. @default { method: 'card' }, with `amount_cents` the order's `total_cents`
   */
  payment?: Partial<P.PaymentCreateParams>;
  /**
   * Wait for the payment to leave `pending` (or reach `until`) before answering, within the call's
   * deadline. @default undefined (the payment is returned `pending`)
   */
  awaitResult?: true | AwaitResultOptions;
}

/**
 * What `client.charge` resolves to. On a rerun whose key the intent store knows, `order` is the
 * order as read from the service (it carries no `hosted_checkout_url`).
 *
 * @example
 * const { order, payment }: ChargeResult = await client.charge(params);
 */
export interface ChargeResult {
  /** The order created under the key (or, on a rerun the store knows, read from the service). */
  order: OrderCreated;
  /** The payment made under the key: `pending`, or its result with `awaitResult`. */
  payment: P.Payment;
}

/** The client a charge runs on (a `PaymentsClient`). */
interface ChargeClient extends Requester {
  orders: Orders;
  awaitPaymentResult(orderId: string, paymentId: string, opts?: AwaitResultOptions): Promise<P.Payment>;
}

/** What the charge needs of its client beyond its resources. */
export interface ChargeContext {
  store: IntentStore;
  /** The client's `deadlineMs`, when the call gives none. */
  deadlineMs: number | undefined;
}

/**
 * Creates the order under `params.idempotencyKey` (as `orders.create` sends it) and pays it under
 * the same key (exactly once, as `payments.create`), within one deadline. When the intent store
 * already knows the key, its order is used and no order is created.
 */
export async function charge(
  client: ChargeClient,
  context: ChargeContext,
  params: ChargeParams,
  opts?: RequestOptions,
): Promise<ChargeResult> {
  const key = checkKey('charge', (params as Partial<ChargeParams> | undefined)?.idempotencyKey);
  const orderBody = validate(OrderCreateRequest, params.order, 'order');
  const paymentBody = validate(
    PaymentCreateParams,
    Object.assign({ method: 'card', amount_cents: orderBody.total_cents }, params.payment),
    'payment',
  );
  const deadlineMs = opts?.deadlineMs ?? context.deadlineMs;
  const until = deadlineMs === undefined ? undefined : Date.now() + deadlineMs;
  // Each step gets what is left of the one deadline, and the key of the whole charge.
  const step = (): RequestOptions => {
    const options: RequestOptions = Object.assign({}, opts);
    options.idempotencyKey = key;
    options.deadlineMs = until === undefined ? undefined : Math.max(1, until - Date.now());
    return options;
  };
  const known = await context.store.get(key).then(undefined, storeFailure);
  // A key the store knows names its order: read, before the payment, so that a failed read ends
  // the call before anything of the payment is sent or returned, never after it was made.
  const order = known
    ? await readOrder(client, known.orderId, step(), key)
    : await createOrder(client, orderBody, step(), key);
  const orderId = order.order_id;
  // A store that forgets (the default, in this process's memory) cannot know a key that an earlier
  // process paid under, so the service's own records are the memory: the order came back under
  // the key (the service keeps it 24 hours), and a payment already on it is this charge's payment,
  // whatever its status. A payment is sent only when the order has none (api.md 22).
  let payment =
    known || durable(context.store) ? undefined : await paidBefore(client, orderId, paymentBody, step(), key);
  if (payment === undefined) {
    const spec = paymentCreation(orderId, paymentBody, step());
    spec.intent.charge = JSON.stringify(orderBody);
    payment = await client.request(spec);
  }
  if (params.awaitResult) {
    const wait: AwaitResultOptions = Object.assign({}, params.awaitResult === true ? {} : params.awaitResult);
    wait.signal ??= opts?.signal;
    if (until !== undefined)
      wait.maxWaitMs = Math.max(1, Math.min(wait.maxWaitMs ?? 60_000, until - Date.now()));
    payment = await client.awaitPaymentResult(orderId, payment.payment_id, wait);
  }
  return { order, payment };
}

/** Whether `store` keeps what it holds across a restart of the process (the store contract). */
function durable(store: IntentStore): boolean {
  return store.durable === true;
}

/**
 * The payment already on the charge's order, read from the service: undefined when it has none (a
 * payment may be sent), the earliest of the charge's amount and method when it has such payments.
 * Payments of other amounts or methods only (the hosted page, another tool): nothing is sent, and
 * the error lists them, for a person to decide.
 */
async function paidBefore(
  client: ChargeClient,
  orderId: string,
  body: P.PaymentCreateParams,
  options: RequestOptions,
  key: string,
): Promise<P.Payment | undefined> {
  const { payments } = await readOrder(client, orderId, options, key);
  if (payments.length === 0) return undefined;
  const same = payments
    .filter((p) => p.amount_cents === body.amount_cents && p.method === body.method)
    .sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  const first = same[0];
  if (first) return Payment.parse(Object.assign({ order_id: orderId }, first)) as P.Payment;
  const listed = payments
    .map((p) => `${p.payment_id} (${p.status}, ${formatCents(p.amount_cents)}, ${p.method})`)
    .join(', ');
  const error = new CallError(
    `Order ${orderId} of charge key '${key}' already has payments of other amounts or methods: ${listed}. A payment is sent only when the order has none, so nothing was sent: look at them (client.orders.get('${orderId}')) before charging again, and do not charge under a new key.`,
  );
  error.idempotencyKey = key;
  throw error;
}

/** The order of a key the intent store knows; a failed read says what this call did not do. */
async function readOrder(
  client: ChargeClient,
  orderId: string,
  options: RequestOptions,
  key: string,
): Promise<Order> {
  options.idempotencyKey = undefined;
  try {
    return await client.orders.get(orderId, options);
  } catch (error) {
    if (error instanceof CallError) {
      error.idempotencyKey = key;
      restate(
        error,
        `Reading order ${orderId} of charge key '${key}' failed, so this call sent no payment; the key may have paid it already: rerun with { idempotencyKey: '${key}' } to get the order and its payment.`,
      );
    }
    throw error;
  }
}

/** The order under the charge's key; the service's `idempotency_conflict` is the charge's conflict. */
async function createOrder(
  client: ChargeClient,
  body: OrderCreateParams,
  options: RequestOptions,
  key: string,
): Promise<OrderCreated> {
  try {
    return await client.orders.create(body, options);
  } catch (error) {
    if (error instanceof ConflictError && error.code === 'idempotency_conflict') {
      throw new IdempotencyConflictError(
        'charge',
        key,
        "an order with other params within the service's 24 hours",
        {
          cause: error,
          refused: 'order',
        },
      );
    }
    throw error;
  }
}
