/**
 * createWebhookHandler through both of its doors (fetch and node): verify, de-duplicate, dispatch by
 * kind, and answer 200 / 400 / 405 / 413 / 500 as api.md section 13 says.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  type DedupeStore,
  MemoryDedupeStore,
  signWebhookPayload,
  type WebhookEvent,
  type WebhookHandlerOptions,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { chunked, DOORS } from './handler-harness.js';
import { sampleEvent } from './sample-event.js';

const SECRET = 'whsec_handler_test';
let counter = 0;
const envelope = (kind = 'payment.approved') =>
  sampleEvent(
    { event_id: `evt_handler_${++counter}`, event_kind: kind, occurred_at: '2026-05-12T10:15:30.000Z' },
    // Each envelope a transition of its own (one payment each): the handler runs a transition once.
    { amount_cents: 4200, payment_id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}` },
  );

/** A handler with spies for every callback; `on['payment.approved']` is `approved`. */
function setup(extra: Partial<WebhookHandlerOptions> = {}) {
  const approved = vi.fn(async (_event: WebhookEvent) => undefined);
  const refunded = vi.fn();
  const onUnknown = vi.fn();
  const onError = vi.fn();
  const handler = createWebhookHandler({
    secret: SECRET,
    on: { 'payment.approved': approved, 'payment.refunded': refunded },
    onUnknown,
    onError,
    ...extra,
  });
  return { handler, approved, refunded, onUnknown, onError };
}

describe.each(DOORS)('createWebhookHandler through %s', (_door, send) => {
  it('runs the handler of the kind once with the typed event and answers 200; a redelivery is 200 without running it', async () => {
    const { handler, approved, refunded, onError } = setup();
    const event = envelope();
    const { body, headers } = signWebhookPayload(event, SECRET);
    expect(await send(handler, { headers, body })).toMatchObject({ status: 200, body: { received: true } });
    expect(approved).toHaveBeenCalledTimes(1);
    expect(approved).toHaveBeenCalledWith(event);
    const again = await send(handler, { headers, body });
    expect(again).toMatchObject({ status: 200, body: { received: true, duplicate: true } });
    expect(approved).toHaveBeenCalledTimes(1);
    expect(refunded).not.toHaveBeenCalled();
    expect(onError).not.toHaveBeenCalled();
  });

  it('answers 400 with the reason code alone to a tampered, unsigned or foreign delivery, and runs nothing', async () => {
    const { handler, approved, onError } = setup();
    const { body, headers } = signWebhookPayload(envelope(), SECRET);
    const tampered = await send(handler, { headers, body: body.replace('4200', '1') });
    expect(tampered).toEqual({
      status: 400,
      body: { received: false, error: 'signature_mismatch' },
      allow: null,
    });
    const unsigned = await send(handler, { headers: { 'content-type': 'application/json' }, body });
    expect(unsigned.body).toEqual({ received: false, error: 'missing_signature' });
    const foreign = signWebhookPayload(envelope(), 'whsec_someone_else');
    expect((await send(handler, foreign)).body.error).toBe('signature_mismatch');
    expect(approved).not.toHaveBeenCalled();
    expect(onError).toHaveBeenCalledTimes(3);
    expect(
      onError.mock.calls.every(([err, ctx]) => err instanceof WebhookVerificationError && ctx.status === 400),
    ).toBe(true);
  });

  it('answers 500 when a handler throws, releases the event, and runs it again on the redelivery', async () => {
    const { handler, approved, onError } = setup();
    approved.mockRejectedValueOnce(new Error('queue unavailable'));
    const event = envelope();
    const signed = signWebhookPayload(event, SECRET);
    expect(await send(handler, signed)).toMatchObject({ status: 500, body: { received: false } });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'queue unavailable' }), {
      status: 500,
      event,
    });
    expect(await send(handler, signed)).toMatchObject({ status: 200, body: { received: true } });
    expect(approved).toHaveBeenCalledTimes(2);
  });

  it('hands a kind with no handler to onUnknown (once), and acknowledges it without onUnknown', async () => {
    const { handler, onUnknown, approved } = setup();
    const later = signWebhookPayload(envelope('payment.disputed'), SECRET);
    expect((await send(handler, later)).status).toBe(200);
    expect((await send(handler, later)).body.duplicate).toBe(true);
    const unlisted = signWebhookPayload(envelope('payment.voided'), SECRET);
    expect((await send(handler, unlisted)).status).toBe(200);
    expect(onUnknown.mock.calls.map(([e]) => e.event_kind)).toEqual(['payment.disputed', 'payment.voided']);
    expect(approved).not.toHaveBeenCalled();

    const bare = createWebhookHandler({ secret: SECRET, on: {} });
    expect(await send(bare, signWebhookPayload(envelope('payment.disputed'), SECRET))).toMatchObject({
      status: 200,
      body: { received: true },
    });
  });

  it('runs a handler once for concurrent copies of one delivery', async () => {
    const { handler, approved } = setup();
    let finish = () => {};
    approved.mockImplementationOnce(
      () => new Promise<undefined>((resolve) => (finish = () => resolve(undefined))),
    );
    const signed = signWebhookPayload(envelope(), SECRET);
    const first = send(handler, signed);
    await vi.waitFor(() => expect(approved).toHaveBeenCalledTimes(1));
    const copies = await Promise.all([1, 2, 3].map(() => send(handler, signed)));
    expect(copies.map((c) => c.body)).toEqual(Array(3).fill({ received: true, duplicate: true }));
    finish();
    expect((await first).status).toBe(200);
    expect(approved).toHaveBeenCalledTimes(1);
  });

  it('answers 405 with Allow: POST to other methods, and 413 to a body over maxBodyBytes, read in chunks or not', async () => {
    const { handler, approved, onError } = setup({ maxBodyBytes: 2_000 });
    expect(await send(handler, { method: 'GET' })).toEqual({
      status: 405,
      body: { received: false, error: 'method_not_allowed' },
      allow: 'POST',
    });
    const big = signWebhookPayload({ ...envelope(), padding: 'x'.repeat(3_000) }, SECRET);
    expect((await send(handler, big)).status).toBe(413);
    const streamed = await send(handler, {
      headers: big.headers,
      body: chunked(big.body.slice(0, 1500), big.body.slice(1500)),
    });
    expect(streamed).toMatchObject({ status: 413, body: { error: 'body_too_large' } });
    expect(approved).not.toHaveBeenCalled();
    expect(onError.mock.calls.map(([, ctx]) => ctx.status)).toEqual([405, 413, 413]);
  });

  it('does not need a JSON content type, and reads a body that arrives in chunks', async () => {
    const { handler, approved } = setup();
    const signed = signWebhookPayload(envelope(), SECRET);
    const headers = { 'content-type': 'text/plain', 'x-service-signature': signed.signature };
    expect(
      (await send(handler, { headers, body: chunked(signed.body.slice(0, 10), signed.body.slice(10)) }))
        .status,
    ).toBe(200);
    expect(approved).toHaveBeenCalledTimes(1);
  });

  it('builds its deduplicator on the given store: add to claim, delete to release', async () => {
    const memory = new MemoryDedupeStore();
    const store: DedupeStore = {
      add: vi.fn((id, ttl) => memory.add(id, ttl)),
      delete: vi.fn((id) => memory.delete(id)),
    };
    const { handler, approved } = setup({ dedupe: store, dedupeTtlMs: 60_000 });
    approved.mockRejectedValueOnce(new Error('boom'));
    const event = envelope();
    await send(handler, signWebhookPayload(event, SECRET));
    expect(store.add).toHaveBeenCalledWith(event.event_id, 60_000);
    expect(store.delete).toHaveBeenCalledWith(event.event_id);
  });

  it('answers 500 when the dedupe store fails or no secret is set, and never runs the handler then', async () => {
    const failing: DedupeStore = {
      add: () => Promise.reject(new Error('redis down')),
      delete: () => undefined,
    };
    const down = setup({ dedupe: failing });
    expect((await send(down.handler, signWebhookPayload(envelope(), SECRET))).status).toBe(500);
    expect(down.onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'redis down' }),
      expect.anything(),
    );
    const unset = setup({ secret: [process.env.UNSET_WEBHOOK_SECRET] });
    expect((await send(unset.handler, signWebhookPayload(envelope(), SECRET))).status).toBe(500);
    expect(unset.onError.mock.calls[0]![0]).toMatchObject({ reason: 'missing_secret' });
    expect(down.approved).not.toHaveBeenCalled();
    expect(unset.approved).not.toHaveBeenCalled();
  });

  it('takes the secret from a function on each delivery (rotation without a restart), and passes maxAgeMs on', async () => {
    let secret: string | string[] = 'whsec_old';
    const { handler, approved } = setup({ secret: () => secret, maxAgeMs: 60_000 });
    secret = [SECRET, 'whsec_old'];
    const fresh = { ...envelope(), occurred_at: new Date().toISOString() };
    expect((await send(handler, signWebhookPayload(fresh, SECRET))).status).toBe(200);
    expect((await send(handler, signWebhookPayload(envelope(), SECRET))).body.error).toBe('event_too_old');
    expect(approved).toHaveBeenCalledTimes(1);
  });

  it('logs 500s to console.error without onError, never 400s, and survives an onError that throws', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const approved = vi.fn().mockRejectedValue(new Error('handler broke'));
    const quiet = createWebhookHandler({ secret: SECRET, on: { 'payment.approved': approved } });
    await send(quiet, { headers: { 'x-service-signature': 'nope' }, body: '{}' });
    expect(logged).not.toHaveBeenCalled();
    expect((await send(quiet, signWebhookPayload(envelope(), SECRET))).status).toBe(500);
    expect(logged).toHaveBeenCalledTimes(1);
    const loud = setup({
      onError: () => {
        throw new Error('logger down');
      },
    });
    expect((await send(loud.handler, signWebhookPayload(envelope(), SECRET))).status).toBe(200);
    loud.approved.mockRejectedValueOnce(new Error('x'));
    expect((await send(loud.handler, signWebhookPayload(envelope(), SECRET))).status).toBe(500);
  });

  it('keeps the secret and every message out of the answers', async () => {
    const { handler } = setup();
    const signed = signWebhookPayload(envelope(), SECRET);
    for (const headers of [
      { 'x-service-signature': signed.signature.toUpperCase() },
      { 'x-service-signature': 'hmac-sha256=00' },
    ]) {
      const answer = await send(handler, { headers, body: signed.body });
      expect(Object.keys(answer.body).sort()).toEqual(['error', 'received']);
      expect(JSON.stringify(answer)).not.toContain(SECRET);
    }
  });
});
