// MockCore, the shared pieces every route, the processor and the webhook deliverer work on, and the
// PaymentEvent the processor reports.
import type { KnownEventKind } from '../../schemas/events.js';
import type { InternalClock } from '../clock.js';
import type { ResolvedOptions } from '../options.js';
import type { MockState } from '../state.js';
import type { Bucket } from './rate-limit.js';
import type { TokenAuthority } from './token-authority.js';

/** What happened to a payment, as the processor reports it to the deliverer and demo mode. */
export interface PaymentEvent {
  kind: KnownEventKind;
  partnerId: string;
  resource: Record<string, unknown>;
}

/** The shared pieces every route, the processor and the deliverer work on. */
export interface MockCore {
  /** Cleared in place on reset(). */
  readonly state: MockState;
  readonly clock: InternalClock;
  readonly authority: TokenAuthority;
  readonly options: ResolvedOptions;
  readonly buckets: Map<string, Bucket>;
  /** Delivers an event to the partner's matching webhook endpoints. */
  emit(event: PaymentEvent): void;
  /**
   * Called when an order, payment or refund is created: past `maxOrders` the oldest order goes;
   * a payment's expiry and demo mode's outcomes are scheduled.
   */
  onCreated(kind: 'order' | 'payment' | 'refund', id: string): void;
  /** Called when a payment left `pending`: its expiry is no longer needed. */
  onLeftPending(paymentId: string): void;
  maintenance: boolean;
}
