// The time limit of a webhook handler's dedupe claim: a store that does not answer (a Redis client
// queueing commands through an outage) gets the delivery answered 500 without running the handler,
// and a claim that lands afterwards is given back so that the service's retry is processed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createWebhookHandler, type DedupeStore, signWebhookPayload } from '../../src/webhooks/index.js';
import { sampleEvent } from './sample-event.js';

const SECRET = 'whsec_timeout_test';

/** A store whose `add` answers (true) only after `delayMs`. */
function slowStore(delayMs: number) {
  const deleted: string[] = [];
  const store: DedupeStore = {
    add: () => new Promise((resolve) => setTimeout(() => resolve(true), delayMs)),
    delete: async (id) => {
      deleted.push(id);
    },
  };
  return { store, deleted };
}

function deliver(handler: ReturnType<typeof createWebhookHandler>, eventId: string) {
  const { body, headers } = signWebhookPayload(sampleEvent({ event_id: eventId }), SECRET);
  return handler.fetch(new Request('http://127.0.0.1/webhooks', { method: 'POST', headers, body }));
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the dedupe claim of createWebhookHandler has a time limit', () => {
  it('answers 500 without running the handler when the store does not answer in time, then gives a late claim back', async () => {
    const { store, deleted } = slowStore(60_000);
    const ran: string[] = [];
    const errors: unknown[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      dedupe: store,
      dedupeTimeoutMs: 1_000,
      on: { 'payment.approved': (event) => void ran.push(event.event_id) },
      onError: (error) => void errors.push(error),
    });
    const answer = deliver(handler, 'evt_slow');
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await answer).status).toBe(500);
    expect(ran).toEqual([]);
    expect(String(errors[0])).toContain('did not answer within 1000 ms');
    expect(deleted).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000); // the claim lands after all
    expect(deleted).toEqual(['evt_slow']);
  });

  it('control: a store that answers within the limit gets the handler run and nothing given back', async () => {
    const { store, deleted } = slowStore(500);
    const ran: string[] = [];
    const handler = createWebhookHandler({
      secret: SECRET,
      dedupe: store,
      dedupeTimeoutMs: 1_000,
      on: { 'payment.approved': (event) => void ran.push(event.event_id) },
    });
    const answer = deliver(handler, 'evt_quick');
    // Three writes of 500 ms each: the event id's claim, its transition's and the payment's final
    // mark (api.md 23).
    await vi.advanceTimersByTimeAsync(1_500);
    expect((await answer).status).toBe(200);
    expect(ran).toEqual(['evt_quick']);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(deleted).toEqual([]);
  });

  it('refuses a dedupeTimeoutMs that is not a positive number', () => {
    expect(() => createWebhookHandler({ secret: SECRET, on: {}, dedupeTimeoutMs: 0 })).toThrow(
      /dedupeTimeoutMs/,
    );
  });
});
