// 100 signed events, delivered to every receiver of a fleet shuffled and with duplicates.
import { randomUUID } from 'node:crypto';
import { signWebhookPayload } from '../../src/webhooks/index.js';

export const SECRET = 'whsec_fleet_test_0123456789';

export function makeDeliveries(receivers: number, events = 100) {
  const signed = Array.from({ length: events }, (_, i) => {
    const event = {
      v: 1,
      event_id: `evt_${randomUUID()}`,
      event_kind: 'payment.approved',
      occurred_at: new Date().toISOString(),
      partner_id: '3f6c2a1e-9b7d-4c58-a2e4-7d1f0c9b8e21',
      resource: {
        payment_id: randomUUID(),
        order_id: randomUUID(),
        status: 'approved',
        amount_cents: 100 + i,
        method: 'card',
      },
    };
    const { body, signature } = signWebhookPayload(event, SECRET);
    return { id: event.event_id, body, signature };
  });
  const perReceiver = Array.from({ length: receivers }, () => {
    const list = [...signed, ...signed.filter(() => Math.random() < 0.5)];
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list.map(({ body, signature }) => ({ body, signature }));
  });
  return { ids: signed.map((s) => s.id), perReceiver };
}

/** How many times each event's handler ran, over every receiver. */
export function runsPerEvent(ids: string[], handled: string[][]): Map<string, number> {
  const runs = new Map(ids.map((id) => [id, 0]));
  for (const list of handled) for (const id of list) runs.set(id, (runs.get(id) ?? 0) + 1);
  return runs;
}
