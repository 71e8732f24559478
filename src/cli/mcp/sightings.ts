// What a tool's output shows the agent ledger: payments and refunds with their status, and the
// verdicts of recover on keys (guard.ts observes every output through it).
import type { Sighting } from './ledger/ledger.js';

/**
 * What a tool's output shows the ledger: every `{ payment_id, status }` (a payment, a void, a charge,
 * an order's payments), every `{ refund_id, status }` (a refund), and, in the output of recover
 * (`verdicts`), every `{ idempotency_key, kind, outcome }`: `landed` with its ids, or `not_landed`
 * (`unknown` says nothing).
 */
export function sightingsIn(out: unknown, verdicts: boolean): Sighting[] {
  const found: Sighting[] = [];
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const visit = (v: unknown, depth: number) => {
    if (depth > 3 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item, depth + 1);
      return;
    }
    const o = v as Record<string, unknown>;
    const status = text(o.status);
    const outcome = text(o.outcome);
    const key = text(o.idempotency_key);
    if (
      verdicts &&
      key &&
      (outcome === 'landed' || outcome === 'not_landed') &&
      (o.kind === 'payment' || o.kind === 'refund')
    ) {
      const kind = o.kind === 'payment' ? 'charge' : 'refund';
      const ids = { order: text(o.order_id), payment: text(o.payment_id), refund: text(o.refund_id) };
      found.push({
        kind,
        by: 'key',
        id: key,
        status: outcome,
        ...(outcome === 'landed'
          ? Object.fromEntries(Object.entries(ids).filter(([, id]) => id !== undefined))
          : {}),
      });
    } else if (status && typeof o.refund_id === 'string') {
      found.push({ kind: 'refund', by: 'refund', id: o.refund_id, status });
    } else if (status && typeof o.payment_id === 'string') {
      found.push({ kind: 'charge', by: 'payment', id: o.payment_id, status });
    }
    for (const child of Object.values(o)) if (typeof child === 'object') visit(child, depth + 1);
  };
  visit(out, 0);
  return found;
}
