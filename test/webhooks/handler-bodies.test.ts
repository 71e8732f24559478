/**
 * createWebhookHandler where a framework got to the body first: a Buffer or string in req.body is used,
 * a parsed object is refused (500, with the classic-mistake explanation to onError, nothing run), and a
 * fetch Request whose body was read is refused the same way. And the Web Crypto path where node:crypto
 * is missing.
 */
import type { IncomingMessage } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import {
  createWebhookHandler,
  signWebhookPayload,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { nodeServer } from './handler-harness.js';
import { sampleEvent } from './sample-event.js';

const SECRET = 'whsec_bodies';
const event = sampleEvent(
  { event_id: 'evt_bodies_1', occurred_at: '2026-05-12T10:15:30.000Z' },
  { amount_cents: 4200 },
);
const signed = signWebhookPayload(event, SECRET);

function setup() {
  const approved = vi.fn();
  const onError = vi.fn();
  const handler = createWebhookHandler({ secret: SECRET, on: { 'payment.approved': approved }, onError });
  return { handler, approved, onError };
}

/** Reads the stream the way a body parser does, then leaves `req.body` as `make` says. */
const framework = (make: (raw: Buffer) => unknown) => async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = make(Buffer.concat(chunks));
  if (body !== undefined) Object.assign(req, { body });
};

describe('handler.node after a framework read the body', () => {
  it.each([
    ['a Buffer (express.raw, a Fastify buffer parser)', (raw: Buffer) => raw],
    ['a string (express.text)', (raw: Buffer) => raw.toString('utf8')],
    ['a Uint8Array', (raw: Buffer) => new Uint8Array(raw)],
  ])('uses req.body when it is %s', async (_n, make) => {
    const { handler, approved } = setup();
    const url = await nodeServer(() => handler, framework(make));
    const response = await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(200);
    expect(approved).toHaveBeenCalledWith(event);
  });

  it('refuses a parsed object (express.json() ran first) with 500, explains the fix to onError, and runs nothing', async () => {
    const { handler, approved, onError } = setup();
    const url = await nodeServer(
      () => handler,
      framework((raw) => JSON.parse(raw.toString('utf8'))),
    );
    const response = await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ received: false, error: 'internal_error' });
    expect(approved).not.toHaveBeenCalled();
    const [err, context] = onError.mock.calls[0]!;
    expect(err).toBeInstanceOf(WebhookVerificationError);
    expect(err.reason).toBe('body_not_raw');
    expect(err.message).toContain('a parsed object');
    expect(err.message).toContain("express.raw({ type: 'application/json' })");
    expect(context).toEqual({ status: 500 });
  });

  it('refuses a stream that was read and not kept (a body parser left nothing) with 500', async () => {
    const { handler, approved, onError } = setup();
    const url = await nodeServer(
      () => handler,
      framework(() => undefined),
    );
    const response = await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(500);
    expect(onError.mock.calls[0]![0]).toMatchObject({ reason: 'body_not_raw' });
    expect(approved).not.toHaveBeenCalled();
  });

  it("reads the stream when a body parser that skipped the content type left {} (Express 4's body-parser)", async () => {
    const { handler, approved } = setup();
    const url = await nodeServer(
      () => handler,
      (req) => void Object.assign(req, { body: {} }),
    );
    const response = await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(response.status).toBe(200);
    expect(approved).toHaveBeenCalledTimes(1);
  });
});

describe('handler.fetch after something read the body', () => {
  it('refuses a Request whose body was read with 500 and runs nothing', async () => {
    const { handler, approved, onError } = setup();
    const request = new Request('http://127.0.0.1/webhooks', {
      method: 'POST',
      headers: signed.headers,
      body: signed.body,
    });
    await request.json();
    const response = await handler.fetch(request);
    expect(response.status).toBe(500);
    expect(onError.mock.calls[0]![0]).toMatchObject({ reason: 'body_not_raw' });
    expect(onError.mock.calls[0]![0].message).toContain('already read');
    expect(approved).not.toHaveBeenCalled();
  });
});

describe('createWebhookHandler where node:crypto is missing (simulated)', () => {
  it('verifies on Web Crypto: valid 200, tampered 400, redelivery a duplicate', async () => {
    vi.resetModules();
    vi.stubGlobal('process', { ...process, getBuiltinModule: undefined });
    const subtleVerify = vi.spyOn(crypto.subtle, 'verify');
    try {
      const fresh = await import('../../src/webhooks/index.js');
      const approved = vi.fn();
      const handler = fresh.createWebhookHandler({ secret: SECRET, on: { 'payment.approved': approved } });
      const post = (body: string) =>
        handler.fetch(new Request('http://127.0.0.1/', { method: 'POST', headers: signed.headers, body }));
      expect((await post(signed.body)).status).toBe(200);
      expect((await post(signed.body)).status).toBe(200);
      expect((await post(signed.body.replace('4200', '4201'))).status).toBe(400);
      expect(approved).toHaveBeenCalledTimes(1);
      expect(subtleVerify).toHaveBeenCalledTimes(3);
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});
