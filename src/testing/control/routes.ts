// The route table of the mock's control API (`/_mock/v1`): processor outcomes, the clock, faults,
// webhook deliveries and reset, each with its schemas, errors and handler.
import type { z } from 'zod';
import type { MockProcessor } from '../domain/processor.js';
import { MockApiError, type Reply } from '../engine/respond.js';
import { paymentView, refundView } from '../engine/views.js';
import type { FaultSpec } from '../faults/fault-queue.js';
import type { MockService } from '../mock-service.js';
import type { MockState } from '../state.js';
import type { EventEnvelope } from '../webhooks/deliveries.js';
import * as S from './schemas.js';
import { deliveryView, eventView } from './views.js';

/** What the control API works on: the public mock, plus read access to its state for lookups. */
export interface ControlDeps {
  mock: MockService;
  state(): MockState;
  /** Webhook endpoints that survive a reset (the bin's `--forward-to` endpoint). */
  pinnedEndpoints?(): readonly string[];
  /** Whether maintenance mode is on (the dashboard shows it). */
  maintenance?(): boolean;
  /**
   * Draws the dashboard page (`GET /_mock`) from these same deps: `renderDashboard` of
   * dashboard/page.ts. The page shows the control API's actions and views, so it stands above the
   * control API, which routes to it without importing it.
   */
  dashboard(deps: ControlDeps, url: URL, requestId: string): Reply;
}

export interface ControlContext {
  params: Record<string, string>;
  /** The body, parsed with the route's `body` schema (undefined without one). */
  body: unknown;
  url: URL;
  requestId: string;
}

/**
 * One control operation. The router, the OpenAPI document and the dashboard's buttons all read
 * this table, so a route cannot be served without being described (or the other way round).
 */
export interface ControlRoute {
  method: 'GET' | 'POST';
  /** An OpenAPI path template: `/_mock/v1/payments/{payment_id}/approve`. */
  path: string;
  operationId: string;
  summary: string;
  tag: 'access' | 'processor' | 'clock' | 'faults' | 'webhooks' | 'state' | 'meta';
  /** The query parameters it reads (the OpenAPI document lists them). */
  query?: readonly { name: string; description: string; type: 'string' | 'integer' }[];
  /** The JSON body it takes; without one, any body is ignored. */
  body?: z.ZodType;
  /** Whether the body may be left out (every field optional). */
  bodyOptional?: boolean;
  status: number;
  /** The answer's JSON schema, or `html`/`json-document` for the dashboard and the OpenAPI document. */
  response: z.ZodType | 'html' | 'json-document';
  /** Error statuses it can answer besides 400/404/405 for malformed requests. */
  errors: number[];
  handle(ctx: ControlContext, deps: ControlDeps): unknown;
}

/** Processor outcomes a control can apply to a payment, with the state they need (for the dashboard). */
export const PAYMENT_ACTIONS = {
  approve: { from: ['pending'], summary: 'Approve a pending payment (event payment.approved)' },
  decline: { from: ['pending'], summary: 'Decline a pending payment (no event)' },
  fail: { from: ['pending'], summary: 'Fail a pending payment with a processing error (no event)' },
  settle: { from: ['approved'], summary: 'Settle an approved payment (no event)' },
  cancel: { from: ['pending'], summary: 'Cancel a pending payment (event payment.cancelled)' },
  expire: { from: ['pending'], summary: 'Expire a pending payment now (event payment.expired)' },
} as const satisfies Record<string, { from: readonly string[]; summary: string }>;

export const REFUND_ACTIONS = {
  confirm: {
    from: ['pending'],
    summary: 'Confirm a pending refund (payment.refunded, payment.reversal_settled)',
  },
  reject: { from: ['pending'], summary: 'Reject a pending refund (event payment.reversal_failed)' },
} as const satisfies Record<string, { from: readonly string[]; summary: string }>;

export type PaymentAction = keyof typeof PAYMENT_ACTIONS;
export type RefundAction = keyof typeof REFUND_ACTIONS;

const PAYMENT_CALLS: Record<PaymentAction, (p: MockProcessor, id: string) => void> = {
  approve: (p, id) => p.approve(id),
  decline: (p, id) => p.decline(id),
  fail: (p, id) => p.fail(id),
  settle: (p, id) => p.settle(id),
  cancel: (p, id) => p.cancel(id),
  expire: (p, id) => p.expire(id),
};

/** Runs a transition; a transition the state does not allow is a 409 that changed nothing. */
function transition(deps: ControlDeps, run: () => void): { event_id: string; event_kind: string }[] {
  const last = deps.mock.webhooks.events().at(-1)?.event_id;
  // A MockControlError that refuses the transition is answered with its status (serve.ts).
  run();
  const events = deps.mock.webhooks.events();
  // The log keeps the latest events only: what follows the last one seen before is new.
  const from = last === undefined ? 0 : events.findIndex((e) => e.event_id === last) + 1;
  return events.slice(from).map((e: EventEnvelope) => ({ event_id: e.event_id, event_kind: e.event_kind }));
}

function paymentOf(deps: ControlDeps, id: string) {
  const payment = deps.state().payments.get(id);
  if (!payment) throw new MockApiError(404, 'payment_not_found', `The mock holds no payment ${id}`);
  return payment;
}

const paymentRoute = (action: PaymentAction): ControlRoute => ({
  method: 'POST',
  path: `/_mock/v1/payments/{payment_id}/${action}`,
  operationId: `${action}Payment`,
  summary: PAYMENT_ACTIONS[action].summary,
  tag: 'processor',
  status: 200,
  response: S.PaymentOutcome,
  errors: [404, 409],
  handle({ params }, deps) {
    const id = params.payment_id!;
    paymentOf(deps, id);
    const events = transition(deps, () => PAYMENT_CALLS[action](deps.mock.processor, id));
    return { payment: paymentView(paymentOf(deps, id)), events };
  },
});

const refundRoute = (action: RefundAction): ControlRoute => ({
  method: 'POST',
  path: `/_mock/v1/refunds/{refund_id}/${action}`,
  operationId: `${action}Refund`,
  summary: REFUND_ACTIONS[action].summary,
  tag: 'processor',
  ...(action === 'reject' ? { body: S.OptionalMessage, bodyOptional: true } : {}),
  status: 200,
  response: S.RefundOutcome,
  errors: [404, 409, 422],
  handle({ params, body }, deps) {
    const id = params.refund_id!;
    const find = () => {
      const refund = deps.state().refunds.get(id);
      if (!refund) throw new MockApiError(404, 'refund_not_found', `The mock holds no refund ${id}`);
      return refund;
    };
    const { processor } = deps.mock;
    const message = (body as z.output<typeof S.OptionalMessage> | undefined)?.message;
    find();
    const events = transition(deps, () =>
      action === 'confirm' ? processor.confirmRefund(id) : processor.rejectRefund(id, message),
    );
    const refund = find();
    return { refund: refundView(refund), payment: paymentView(paymentOf(deps, refund.payment_id)), events };
  },
});

const clockState = (deps: ControlDeps) => ({
  now: deps.mock.clock.iso(),
  now_ms: deps.mock.clock.now(),
});

/** Every control operation of the mock, in the order the OpenAPI document lists them. */
export const CONTROL_ROUTES: readonly ControlRoute[] = [
  ...(Object.keys(PAYMENT_ACTIONS) as PaymentAction[]).map(paymentRoute),
  ...(Object.keys(REFUND_ACTIONS) as RefundAction[]).map(refundRoute),
  {
    method: 'GET',
    path: '/_mock/v1/clock',
    operationId: 'getClock',
    summary: 'The current time on the mock clock',
    tag: 'clock',
    status: 200,
    response: S.ClockState,
    errors: [],
    handle: (_ctx, deps) => clockState(deps),
  },
  {
    method: 'POST',
    path: '/_mock/v1/clock/advance',
    operationId: 'advanceClock',
    summary: 'Move the mock clock forward and run what falls due (expiries, webhook retries)',
    tag: 'clock',
    body: S.ClockAdvance,
    status: 200,
    response: S.ClockState,
    errors: [422],
    handle({ body }, deps) {
      deps.mock.clock.advance((body as z.output<typeof S.ClockAdvance>).ms);
      return clockState(deps);
    },
  },
  {
    method: 'POST',
    path: '/_mock/v1/faults',
    operationId: 'injectFault',
    summary: 'Make the next matching API request(s) fail (the failNext spec as JSON)',
    tag: 'faults',
    body: S.FaultBody,
    status: 201,
    response: S.FaultAccepted,
    errors: [400, 422],
    handle({ body }, deps) {
      const fault = body as z.output<typeof S.FaultBody>;
      if (fault.path?.startsWith('/_mock/')) {
        throw new MockApiError(422, 'validation_error', 'Faults apply to the API, not to /_mock/');
      }
      // A spec the schema let through but failNext refuses is a FaultSpecError: 400 (serve.ts).
      deps.mock.failNext(fault as FaultSpec);
      return { fault, pending: true };
    },
  },
  {
    method: 'GET',
    path: '/_mock/v1/deliveries',
    operationId: 'listDeliveries',
    summary: 'Every webhook delivery with its attempts and next attempt, oldest first',
    tag: 'webhooks',
    status: 200,
    response: S.DeliveryList,
    errors: [],
    handle: (_ctx, deps) => ({ data: deps.mock.webhooks.deliveries().map(deliveryView) }),
  },
  {
    method: 'POST',
    path: '/_mock/v1/deliveries/{delivery_id}/replay',
    operationId: 'replayDelivery',
    summary: 'Deliver a finished delivery again, same body and event_id, as a new delivery',
    tag: 'webhooks',
    status: 201,
    response: S.DeliveryView,
    errors: [404, 409],
    handle({ params }, deps) {
      const id = params.delivery_id!;
      const original = deps.mock.webhooks.deliveries().find((d) => d.delivery_id === id);
      if (!original) throw new MockApiError(404, 'delivery_not_found', `The mock holds no delivery ${id}`);
      if (original.status === 'pending') {
        throw new MockApiError(
          409,
          'invalid_state',
          `delivery ${id} is still pending; replay it once it ends`,
        );
      }
      return deliveryView(deps.mock.webhooks.replay(id));
    },
  },
  {
    method: 'GET',
    path: '/_mock/v1/events',
    operationId: 'listEvents',
    summary:
      'The events the mock emitted (the latest 10,000), with or without a registered endpoint, oldest first',
    tag: 'webhooks',
    status: 200,
    response: S.EventList,
    errors: [],
    handle: (_ctx, deps) => ({ data: deps.mock.webhooks.events().map(eventView) }),
  },
  {
    method: 'POST',
    path: '/_mock/v1/reset',
    operationId: 'reset',
    summary: 'Forget orders, payments, refunds, tokens, faults and deliveries; keep the seeded fixtures',
    tag: 'state',
    status: 200,
    response: S.ResetDone,
    errors: [],
    handle(_ctx, deps) {
      const endpoints = deps.state().webhookEndpoints;
      const keep = (deps.pinnedEndpoints?.() ?? []).map((id) => endpoints.get(id));
      deps.mock.reset();
      for (const record of keep)
        if (record) deps.state().webhookEndpoints.set(record.webhook_endpoint_id, record);
      return { reset: true, now: deps.mock.clock.iso() };
    },
  },
];
