// What the catch-up tests share: a loopback receiver around a webhook handler that can be down, the
// run count of each transition, and the planted control (a dedupe store that keeps event ids only).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DedupeStore } from '../../src/core/stores/dedupe-store.js';
import type { WebhookEvent, WebhookHandler } from '../../src/webhooks/index.js';

/** A receiver on 127.0.0.1 in front of `handler`: while `down`, every delivery gets 503 unread. */
export async function startCatchUpReceiver(handler: () => WebhookHandler) {
  const answers: Array<{ status: number; body: Record<string, unknown> }> = [];
  const state = { down: false };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (state.down) {
        res.writeHead(503).end();
        return;
      }
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
      const response = await handler().fetch(
        new Request('http://127.0.0.1/hooks', { method: 'POST', headers, body: Buffer.concat(chunks) }),
      );
      const text = await response.text();
      answers.push({ status: response.status, body: JSON.parse(text) });
      res.writeHead(response.status, { 'content-type': 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    state,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The transition an event is about, as a test names it: `kind payment_id [refund_id]`. */
export function transitionName(event: WebhookEvent): string {
  const r = event.resource as { payment_id: string; refund_id?: string };
  return [event.event_kind, r.payment_id, r.refund_id].filter(Boolean).join(' ');
}

/** Counts the runs of each transition; `on` handlers that record into it. */
export function runCounter() {
  const runs = new Map<string, number>();
  const events: WebhookEvent[] = [];
  const record = (event: WebhookEvent) => {
    events.push(event);
    const name = transitionName(event);
    runs.set(name, (runs.get(name) ?? 0) + 1);
  };
  return { runs, events, record, twice: () => [...runs].filter(([, n]) => n > 1).map(([t]) => t) };
}

/**
 * The planted control: a dedupe store that forgets every transition record (it keeps event ids
 * only), i.e. a handler de-duplicating by `event_id` alone. A proof that passes with it proves nothing.
 */
export function eventIdOnly(store: DedupeStore): DedupeStore {
  const transition = (id: string) => id.startsWith('partner-payments:transition:');
  return {
    add: (id, ttlMs) => (transition(id) ? true : store.add(id, ttlMs)),
    delete: (id) => (transition(id) ? undefined : store.delete(id)),
    has: (id) => (transition(id) ? false : (store.has?.(id) ?? false)),
  };
}
