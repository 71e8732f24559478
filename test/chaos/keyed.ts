/**
 * The service side's account of payments and refunds made under idempotency keys (issue 23). Each
 * chaos call is one key (`key-<call id>`), and every request of the call, resends included, carries
 * the call's `x-chaos-call` header, so the mock's records say which key created which resource.
 *
 * Keyed payments share orders, four keys an order, each key its own amount, beside a payment no key
 * made (the decoy): a reconciliation that adopts by order alone, or by amount alone, adopts another's.
 * The checks: at most one payment of a key's amount on its order and one refund per refunded payment
 * (the mock's state), and every payment or refund a client returned, answered or adopted, is the one
 * its own call created (the mock's record of the request that created it).
 */
import type { MockService } from '../../src/testing/index.js';
import type { Fixture, KeyedFigures, ToServer } from './types.js';

/** Keys sharing an order. */
const KEYS_PER_ORDER = 4;
/** The order's total leaves room for a second charge of every key: a double charge lands, and shows. */
const ORDER_TOTAL_CENTS = 20_000;
const DECOY_CENTS = 700;

/** What the fixtures need from the server: an order, and a payment on it made outside the proxy. */
export interface Setup {
  order(totalCents: number): Promise<string>;
  payment(orderId: string, amountCents: number): Promise<string>;
}

type Created = Extract<ToServer, { t: 'created' }>;

export class KeyedLedger {
  /** `payment:<id>` or `refund:<id>` -> the call (key) whose request created it. */
  readonly #creator = new Map<string, string>();
  /** The key's order and amount (payments) or payment (refunds), by call. */
  readonly #keys = new Map<string, { kind: 'payment' | 'refund'; fixture: Fixture }>();
  readonly #results: Created[] = [];
  #group: { order: Promise<{ orderId: string; decoyId: string }>; used: number } | undefined;
  #checked = 0;
  #adopted = 0;
  #wrong = 0;

  constructor(private readonly setup: Setup) {}

  /** The fixture of a keyed payment: a slot on the open group order (a new one when it is full). */
  async paymentFixture(callId: string): Promise<Fixture> {
    if (!this.#group || this.#group.used === KEYS_PER_ORDER) {
      const order = (async () => {
        const orderId = await this.setup.order(ORDER_TOTAL_CENTS);
        return { orderId, decoyId: await this.setup.payment(orderId, DECOY_CENTS) };
      })();
      this.#group = { order, used: 0 };
    }
    const slot = this.#group.used++;
    const { orderId, decoyId } = await this.#group.order;
    const fixture: Fixture = { orderId, paymentId: '', amountCents: 1_000 + 100 * slot, decoyId };
    this.#keys.set(callId, { kind: 'payment', fixture });
    return fixture;
  }

  /** A keyed refund's fixture (its own settled payment, made by the server). */
  refundFixture(callId: string, fixture: Fixture): void {
    this.#keys.set(callId, { kind: 'refund', fixture });
  }

  /** The mock created `id` for a request of `callId`. */
  noteCreated(callId: string, kind: 'payment' | 'refund', id: string): void {
    this.#creator.set(`${kind}:${id}`, callId);
  }

  /** A client returned `id` for the keyed call `callId`. Judged in {@link judge}. */
  noteResult(message: Created): void {
    this.#results.push(message);
  }

  /** Judges the results returned so far, and the mock's state; adds every breach to `broken`. */
  judge(state: ReturnType<MockService['snapshot']>, broken: Set<string>): KeyedFigures {
    for (const r of this.#results.splice(0)) {
      const kind = r.kind === 'payments.create' ? 'payment' : 'refund';
      const creator = this.#creator.get(`${kind}:${r.id}`);
      this.#checked++;
      if (r.adopted) this.#adopted++;
      if (creator === r.callId) continue;
      this.#wrong++;
      const decoy = this.#keys.get(r.callId)?.fixture.decoyId === r.id ? ' (the order’s decoy)' : '';
      broken.add(
        `${r.callId} ${r.kind}: returned ${kind} ${r.id}${r.adopted ? ', adopted,' : ''} which ${creator ? `call ${creator}` : `no call${decoy}`} created`,
      );
    }
    // The creation times of the payments of each (order, amount): a key's payments, one at most.
    const payments = new Map<string, string[]>();
    for (const p of state.payments) {
      const at = `${p.order_id}/${p.amount_cents}`;
      payments.set(at, [...(payments.get(at) ?? []), p.created_at]);
    }
    const refunds = new Map<string, number>();
    for (const r of state.refunds) refunds.set(r.payment_id, (refunds.get(r.payment_id) ?? 0) + 1);
    let maxPaymentsPerKey = 0;
    let maxRefundsPerKey = 0;
    for (const [callId, { kind, fixture }] of this.#keys) {
      if (kind === 'payment') {
        const times = payments.get(`${fixture.orderId}/${fixture.amountCents}`) ?? [];
        maxPaymentsPerKey = Math.max(maxPaymentsPerKey, times.length);
        if (times.length > 1)
          broken.add(
            `key key-${callId}: ${times.length} payments of ${fixture.amountCents} cents on order ${fixture.orderId} (created ${times.join(', ')})`,
          );
      } else {
        const n = refunds.get(fixture.paymentId) ?? 0;
        maxRefundsPerKey = Math.max(maxRefundsPerKey, n);
        if (n > 1) broken.add(`key key-${callId}: ${n} refunds of payment ${fixture.paymentId}`);
      }
    }
    return {
      results: this.#checked,
      adopted: this.#adopted,
      wrong: this.#wrong,
      maxPaymentsPerKey,
      maxRefundsPerKey,
    };
  }
}
