// The mock's webhook deliveries (spec 6): WebhookDeliverer signs and posts events to the loopback
// endpoints of the partner and its ancestors on the retry schedule of the mock clock, with dead
// letters, replay, the log of the latest events, and forgetting an evicted order's deliveries.
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import { isLoopbackHost } from '../../internal/loopback.js';
import { webhookSignatureHeader } from '../../webhooks/sign.js';
import type { InternalClock } from '../clock.js';
import type { PaymentEvent } from '../engine/mock-core.js';
import { MockControlError } from '../engine/respond.js';
import type { MockState, WebhookEndpointRecord } from '../state.js';
import {
  type Delivery,
  type DeliveryAttempt,
  EVENT_LOG_SIZE,
  type EventEnvelope,
  RETRY_SCHEDULE_MS,
} from './deliveries.js';

/** A delivery as the deliverer keeps it: the next attempt in mock-clock milliseconds. */
interface DeliveryRecord extends Omit<Delivery, 'next_attempt_at'> {
  nextAtMs: number | null;
}

function view(d: DeliveryRecord): Delivery {
  const { nextAtMs, ...rest } = d;
  return {
    ...rest,
    attempts: d.attempts.map((a) => ({ ...a })),
    next_attempt_at: nextAtMs === null ? null : new Date(nextAtMs).toISOString(),
  };
}

/** Delivers events to registered endpoints with the retry schedule on the mock clock. */
export class WebhookDeliverer {
  /** Oldest first (a Map keeps insertion order), so listing and forgetting are both cheap. */
  private readonly deliveries = new Map<string, DeliveryRecord>();
  /** The latest events, a ring of {@link EVENT_LOG_SIZE}: `events[start]` is the oldest once full. */
  private events: EventEnvelope[] = [];
  private start = 0;
  /** Deliveries with an attempt to come: the only ones `runDue()` looks at. */
  private readonly pending = new Set<DeliveryRecord>();
  /** The delivery ids of each order, to forget them with the order. */
  private readonly byOrder = new Map<string, string[]>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly busy = new Set<string>();

  constructor(
    private readonly clock: InternalClock,
    private readonly state: MockState,
    private readonly timeoutMs: number,
  ) {}

  private track(orderId: unknown, id: string): void {
    if (typeof orderId !== 'string') return;
    const ids = this.byOrder.get(orderId);
    if (ids) ids.push(id);
    else this.byOrder.set(orderId, [id]);
  }

  private add(d: DeliveryRecord, orderId: unknown): void {
    this.deliveries.set(d.delivery_id, d);
    if (d.status === 'pending') this.pending.add(d);
    this.track(orderId, d.delivery_id);
  }

  /** Forgets the deliveries of an order the mock no longer holds (`--max-orders`). */
  forgetOrder(orderId: string): void {
    const ids = this.byOrder.get(orderId);
    if (!ids) return;
    this.byOrder.delete(orderId);
    for (const id of ids) {
      const d = this.deliveries.get(id);
      if (!d) continue;
      this.deliveries.delete(id);
      this.pending.delete(d);
    }
  }

  emit(event: PaymentEvent): EventEnvelope {
    const envelope: EventEnvelope = {
      v: 1,
      event_id: `evt_${randomUUID()}`,
      event_kind: event.kind,
      occurred_at: this.clock.iso(),
      partner_id: event.partnerId,
      resource: event.resource,
    };
    const orderId = event.resource.order_id;
    if (this.events.length < EVENT_LOG_SIZE) this.events.push(envelope);
    else {
      this.events[this.start] = envelope;
      this.start = (this.start + 1) % EVENT_LOG_SIZE;
    }
    if (this.state.webhookEndpoints.size === 0) return envelope;
    const body = JSON.stringify(envelope);
    for (const endpoint of this.state.webhookEndpoints.values()) {
      // The partner's own endpoints and those of the partners above it (a parent sees its subtree).
      if (!this.state.inSubtree(endpoint.partner_id, event.partnerId)) continue;
      if (endpoint.event_kinds && !endpoint.event_kinds.includes(event.kind)) continue;
      this.add(this.newDelivery(endpoint, envelope, body), orderId);
    }
    this.runDue();
    return envelope;
  }

  /** The latest {@link EVENT_LOG_SIZE} events emitted since the last reset, delivered or not, oldest first. */
  emitted(): EventEnvelope[] {
    return [...this.events.slice(this.start), ...this.events.slice(0, this.start)];
  }

  list(): Delivery[] {
    return [...this.deliveries.values()].map(view);
  }

  /** One delivery by id, as listed. */
  get(deliveryId: string): Delivery | undefined {
    const d = this.deliveries.get(deliveryId);
    return d && view(d);
  }

  /** Delivers a delivery's event again (same body, same event_id) as a new delivery. */
  replay(deliveryId: string): Delivery {
    const original = this.deliveries.get(deliveryId);
    if (!original) throw new MockControlError(`no webhook delivery ${deliveryId}`, 'not_found');
    if (original.status === 'pending') {
      throw new MockControlError(`delivery ${deliveryId} is still pending; replay a delivered or dead one`);
    }
    if (!this.state.webhookEndpoints.has(original.webhook_endpoint_id))
      throw new MockControlError(`the endpoint of delivery ${deliveryId} is no longer registered`);
    if (original.status === 'dead_letter') original.status = 'replayed';
    const copy: DeliveryRecord = {
      ...original,
      delivery_id: `dlv_${randomUUID()}`,
      status: 'pending',
      attempts: [],
      nextAtMs: this.clock.now(),
      replay_of: original.delivery_id,
    };
    const orderId = (JSON.parse(copy.body) as EventEnvelope).resource.order_id;
    this.add(copy, orderId);
    this.runDue();
    return view(copy);
  }

  /** Starts every attempt that is due on the mock clock. */
  runDue(): void {
    if (this.pending.size === 0) return;
    const now = this.clock.now();
    for (const d of this.pending) {
      if (d.status !== 'pending' || d.nextAtMs === null || d.nextAtMs > now) continue;
      if (this.busy.has(d.delivery_id)) continue;
      const endpoint = this.state.webhookEndpoints.get(d.webhook_endpoint_id);
      if (!endpoint) continue;
      this.busy.add(d.delivery_id);
      const run = this.attempt(d, endpoint.signing_secret).finally(() => {
        this.busy.delete(d.delivery_id);
        this.inFlight.delete(run);
      });
      this.inFlight.add(run);
    }
  }

  /** Resolves once no attempt is in flight. */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  reset(): void {
    this.deliveries.clear();
    this.events = [];
    this.start = 0;
    this.pending.clear();
    this.byOrder.clear();
  }

  private newDelivery(
    endpoint: WebhookEndpointRecord,
    envelope: EventEnvelope,
    body: string,
  ): DeliveryRecord {
    return {
      delivery_id: `dlv_${randomUUID()}`,
      webhook_endpoint_id: endpoint.webhook_endpoint_id,
      url: endpoint.url,
      event_id: envelope.event_id,
      event_kind: envelope.event_kind,
      body,
      status: 'pending',
      attempts: [],
      nextAtMs: this.clock.now(),
      replay_of: null,
    };
  }

  private async attempt(d: DeliveryRecord, secret: string): Promise<void> {
    const startMs = this.clock.now();
    const result = await this.send(d, secret, new Date(startMs).toISOString());
    d.attempts.push(result);
    if (result.ok) {
      d.status = 'delivered';
      d.nextAtMs = null;
      this.pending.delete(d);
    } else if (d.attempts.length >= RETRY_SCHEDULE_MS.length) {
      d.status = 'dead_letter';
      d.nextAtMs = null;
      this.pending.delete(d);
    } else {
      d.nextAtMs = startMs + RETRY_SCHEDULE_MS[d.attempts.length]!;
      // The retry falls due on the mock clock (an advance, or real time in real-time mode).
      this.clock.schedule(d.nextAtMs - this.clock.now(), () => this.runDue());
    }
  }

  private async send(d: DeliveryRecord, secret: string, at: string): Promise<DeliveryAttempt> {
    // The mock only calls this machine: an endpoint registered with a partner's real https URL must
    // not receive test events. The attempt fails and the retry schedule runs as for a dead receiver.
    if (!isLoopbackUrl(d.url)) return { at, status: null, ok: false, error: 'NotLoopback' };
    try {
      const response = await request(d.url, {
        method: 'POST',
        body: d.body,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'partner-payments-mock',
          'x-service-signature': webhookSignatureHeader(d.body, secret),
          'x-service-event-id': d.event_id,
        },
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.body.dump();
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { at, status: response.statusCode, ok };
    } catch (error) {
      return { at, status: null, ok: false, error: failureName(error) };
    }
  }
}

/** Why an attempt got no answer: the system's code (ECONNREFUSED), else the error's name (TimeoutError). */
function failureName(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return error instanceof Error ? error.name : 'Error';
}

/** Whether a delivery URL points at this machine (127.0.0.0/8, ::1, localhost). */
function isLoopbackUrl(url: string): boolean {
  return URL.canParse(url) && isLoopbackHost(new URL(url).hostname);
}
