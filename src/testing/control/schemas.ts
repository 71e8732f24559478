// The zod schemas of the control API's requests and answers.
import { z } from 'zod';
import { SCOPES } from '../../schemas/common.js';
import { FaultJson } from '../faults/fault-spec.js';

// Request and response shapes of the control API (`/_mock/v1`). The route table names them and the
// OpenAPI document of the control API is generated from them, so what is served and what is
// described cannot drift apart.

const iso = z.string().describe('ISO 8601 UTC time on the mock clock');

/** `POST /_mock/v1/clock/advance` */
export const ClockAdvance = z.strictObject({
  ms: z
    .number()
    .int()
    .min(0)
    .max(366 * 24 * 3_600_000)
    .describe('Milliseconds to move the clock forward'),
});

/** `POST /_mock/v1/payments/{payment_id}/fail` and `.../refunds/{refund_id}/reject` may carry a message. */
export const OptionalMessage = z.strictObject({
  message: z.string().min(1).max(500).optional().describe('The processor message (refund reject only)'),
});

/** `POST /_mock/v1/faults`: the `failNext` spec as JSON (`path` is an exact path). */
export const FaultBody = FaultJson;

/** A short reference to an event the control emitted. */
export const EmittedEvent = z.object({ event_id: z.string(), event_kind: z.string() });

export const ControlPayment = z.object({
  payment_id: z.string(),
  order_id: z.string(),
  status: z.string(),
  amount_cents: z.number().int(),
  method: z.string(),
  processor_reference: z.string(),
  created_at: iso,
  updated_at: iso,
});

export const ControlRefund = z.object({
  refund_id: z.string(),
  payment_id: z.string(),
  order_id: z.string(),
  status: z.string(),
  amount_cents: z.number().int(),
  reason: z.string().nullable(),
  created_at: iso,
  processor_message: z.string().nullable(),
});

/** An order with its payments and refunds (`GET /_mock/v1/orders`). */
export const ControlOrder = z.object({
  order_id: z.string(),
  partner_id: z.string(),
  location_id: z.string(),
  status: z.string(),
  total_cents: z.number().int(),
  description: z.string().nullable(),
  external_reference: z.string().nullable(),
  created_at: iso,
  updated_at: iso,
  payments: z.array(ControlPayment),
  refunds: z.array(ControlRefund),
});

/** The page envelope of spec 2.6 around orders. */
export const ControlOrderPage = z.object({
  items: z.array(ControlOrder),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});

/** What a processor outcome answers: the payment after it, and the events it emitted. */
export const PaymentOutcome = z.object({ payment: ControlPayment, events: z.array(EmittedEvent) });

/** What a refund outcome answers. */
export const RefundOutcome = z.object({
  refund: ControlRefund,
  payment: ControlPayment,
  events: z.array(EmittedEvent),
});

export const ClockState = z.object({ now: iso, now_ms: z.number().int() });

export const FaultAccepted = z.object({ fault: FaultBody, pending: z.literal(true) });

export const DeliveryAttemptView = z.object({
  at: iso,
  status: z.number().int().nullable().describe("The receiver's status, null when it did not answer"),
  ok: z.boolean(),
  error: z.string().nullable(),
});

export const DeliveryView = z.object({
  delivery_id: z.string(),
  event_id: z.string(),
  event_kind: z.string(),
  webhook_endpoint_id: z.string(),
  url: z.string(),
  status: z.enum(['pending', 'delivered', 'dead_letter', 'replayed']),
  attempts: z.array(DeliveryAttemptView),
  next_attempt_at: iso.nullable().describe('When the next attempt starts; null once delivered or dead'),
  replay_of: z.string().nullable(),
});

export const DeliveryList = z.object({ data: z.array(DeliveryView) });

export const EventView = z.object({
  event_id: z.string(),
  event_kind: z.string(),
  occurred_at: iso,
  partner_id: z.string(),
  resource: z.record(z.string(), z.unknown()),
});

export const EventList = z.object({ data: z.array(EventView) });

export const ResetDone = z.object({ reset: z.literal(true), now: iso });

export const ControlError = z.object({
  error: z.string().describe('A stable error code'),
  message: z.string(),
  request_id: z.string(),
});

const tier = z.enum(['low', 'standard', 'high', 'enterprise']).describe('A rate tier of spec section 8');
const scopes = z.array(z.enum(SCOPES)).describe('Scopes with the svc/ prefix');

/** One machine client in the fixtures (mock credentials: fixed, public, for tests only). */
export const FixtureClientView = z.object({
  client_id: z.string(),
  client_secret: z.string().describe('A mock credential, printed on purpose; never a real secret'),
  scopes: z.array(z.string()),
  tier,
  revoked: z.boolean(),
});

export const FixtureLocationView = z.object({
  location_id: z.string(),
  name: z.string(),
  active: z.boolean(),
  features: z.array(z.string()).describe('A location takes payments with `payments` among them'),
});

export const FixturePartnerView = z.object({
  partner_id: z.string(),
  parent_partner_id: z.string().nullable().describe('The partner whose subtree holds this one, or null'),
  organization_id: z.string().nullable(),
  clients: z.array(FixtureClientView),
  locations: z.array(FixtureLocationView),
});

/** `GET /_mock/v1/fixtures` */
export const FixturesView = z.object({
  note: z.string(),
  partners: z.array(FixturePartnerView),
  named: z
    .object({
      default_client_id: z.string().describe('The client the bin prints (partner A, every scope)'),
      low_tier_client_id: z.string(),
      charge_only_client_id: z.string(),
      revoked_client_id: z.string(),
      isolated_partner_id: z.string().describe('Partner B: shares nothing with partner A'),
      parent_partner_id: z.string().describe('Partner C: its subtree holds partner D'),
      child_partner_id: z.string().describe('Partner D, a child of partner C'),
    })
    .nullable()
    .describe('The seeded fixtures by role; null for a mock without a seed'),
});

/** `POST /_mock/v1/clients` */
export const ClientCreate = z.strictObject({
  partner_id: z.string().min(1).describe('A partner of the fixtures'),
  scopes: scopes.optional().describe('Default: every scope'),
  tier: tier.optional().describe('Default: standard'),
});

export const ClientCreated = z.object({
  client_id: z.string(),
  client_secret: z.string(),
  partner_id: z.string(),
  scopes: z.array(z.string()),
  tier,
});

export const ClientRevoked = z.object({ client_id: z.string(), revoked: z.literal(true) });

/** `POST /_mock/v1/user-tokens` */
export const UserTokenCreate = z.strictObject({
  partner_id: z.string().min(1).describe('A partner of the fixtures'),
  user_id: z.string().min(1).max(200).optional().describe('The POS user (default: a new id)'),
});

export const UserToken = z.object({
  access_token: z.string().describe('A POS user-pool token: accepted by order creation only'),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  partner_id: z.string(),
  user_id: z.string(),
});

/** `POST /_mock/v1/maintenance` */
export const MaintenanceSet = z.strictObject({
  on: z.boolean().describe('true: every API request answers 503 service_unavailable'),
});

export const MaintenanceState = z.object({ maintenance: z.boolean() });
