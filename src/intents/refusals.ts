// The service's refusals that a rerun of a key paid (or refunded) before this process started meets
// on an intent store that forgets, and what such an error then says (api.md 22): what the
// service's records show, and which stores would have matched the rerun.
import { restate } from '../core/call/final-error.js';
import type { CallError } from '../core/errors/call-error.js';
import type { IntentRecord, IntentStore } from '../core/stores/intent-store.js';
import { formatCents } from '../internal/format.js';
import type { IntentIO } from './reconcile.js';

/** The service's refusals that a rerun of an already paid (or refunded) key meets. */
const RERUN_REFUSALS: Record<IntentRecord['kind'], readonly string[]> = {
  payment: ['order_already_paid', 'amount_exceeds_order_total'],
  // Above the refundable remainder (spec 4.6), or a payment already fully refunded.
  refund: ['validation_error', 'amount_exceeds_order_total', 'invalid_request'],
};

/** Whether `error` is a refusal a rerun after a restart meets, on a store that does not survive one. */
export function refusedAsRerun(store: IntentStore, kind: IntentRecord['kind'], error: CallError): boolean {
  if (store.durable === true) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && RERUN_REFUSALS[kind].includes(code);
}

/**
 * A refusal that a rerun of a key paid before this process started would meet, on a store that
 * forgets: says what the service's records show and why the key could not match them, never to
 * change the request (a lower amount or a new key would be a second charge).
 */
export async function explainRefusal(
  io: Pick<IntentIO, 'readOrder'>,
  record: IntentRecord,
  error: CallError,
  until: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  let shown: string;
  try {
    const { payments } = await io.readOrder(record.orderId, signal, until);
    const listed = payments
      .filter((p) => record.kind === 'payment' || p.payment_id === record.paymentId)
      .map((p) => `${p.payment_id} (${p.status}, ${formatCents(p.amount_cents)}, ${p.method})`);
    shown =
      record.kind === 'payment'
        ? `The service's records show order ${record.orderId} with ${listed.length === 0 ? 'no payments' : `the payments ${listed.join(', ')}`}.`
        : `The service's records show payment ${listed.join(', ') || record.paymentId} (the service lists no refunds of a payment).`;
  } catch {
    shown = `Order ${record.orderId} could not be read to show what the service holds.`;
  }
  restate(
    error,
    `${shown} If this call reruns idempotency key '${record.key}' after a restart, its ${record.kind} may be among them: this client's intent store forgets on restart, so a rerun cannot be matched. Check before sending anything else, and do not lower the amount or use a new key for it. To match reruns across restarts, use a store that survives them: fileStores(directory) on one machine, redisStores or postgresStores for several (docs/idempotency.md).`,
    true,
  );
}
