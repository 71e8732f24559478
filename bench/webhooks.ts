/**
 * Webhook verification: `verifyWebhook` against the minimum a handler must do by hand (HMAC of
 * the raw body, a constant-time compare, JSON.parse), and `verifyWebhookAsync` against the same on
 * `crypto.subtle` (key imported once, `subtle.verify`, UTF-8 decode, JSON.parse), on 1 KB and 16 KB
 * deliveries.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Comparison } from './report.js';
import { webhooks } from './sdk.js';
import { alternate, type Sample, startSample, summarize } from './stats.js';

const SECRET = 'whsec_bench_0123456789abcdef';

/** A `payment.approved` delivery padded (in `resource.description`) to about `size` bytes. */
export function delivery(size: number): { body: Buffer; header: string } {
  const event = {
    v: 1,
    event_id: 'evt_0b7e3c1a5d2f4e8a',
    event_kind: 'payment.approved',
    occurred_at: '2026-11-22T03:00:00.000Z',
    partner_id: '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a',
    resource: {
      payment_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      order_id: '0b7e3c1a-5d2f-4e8a-9c61-7f3a2b1d4e05',
      status: 'approved',
      amount_cents: 12_500,
      method: 'card',
      external_reference: 'INV-1001',
      description: '',
    },
  };
  const bare = Buffer.byteLength(JSON.stringify(event));
  event.resource.description = 'x'.repeat(Math.max(0, size - bare));
  const body = Buffer.from(JSON.stringify(event));
  return { body, header: `hmac-sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` };
}

function rawVerify(body: Buffer, header: string): unknown {
  const expected = createHmac('sha256', SECRET).update(body).digest();
  const given = Buffer.from(header.slice('hmac-sha256='.length), 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Error('bad signature');
  return JSON.parse(body.toString('utf8'));
}

/** The Web Crypto baseline: what a handler on an edge runtime does by hand. */
async function rawSubtle(): Promise<(body: Uint8Array, header: string) => Promise<unknown>> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(SECRET),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  const decoder = new TextDecoder('utf-8', { fatal: true });
  return async (body, header) => {
    const signature = Buffer.from(header.slice('hmac-sha256='.length), 'hex');
    if (!(await crypto.subtle.verify('HMAC', key, signature, body))) throw new Error('bad signature');
    return JSON.parse(decoder.decode(body));
  };
}

function loop(iterations: number, verify: () => unknown): Sample {
  const done = startSample(iterations);
  for (let i = 0; i < iterations; i++) verify();
  return done();
}

async function loopAsync(iterations: number, verify: () => Promise<unknown>): Promise<Sample> {
  const done = startSample(iterations);
  for (let i = 0; i < iterations; i++) await verify();
  return done();
}

export async function benchWebhooks(options: { perRound: number; rounds: number }): Promise<Comparison[]> {
  const results: Comparison[] = [];
  for (const size of [1024, 16 * 1024]) {
    const { body, header } = delivery(size);
    const rates = await alternate(
      {
        sdk: () => loop(options.perRound, () => webhooks.verifyWebhook(body, header, SECRET)),
        raw: () => loop(options.perRound, () => rawVerify(body, header)),
      },
      options.rounds,
    );
    results.push({
      figure: `\`verifyWebhook\`, ${size / 1024} KB body`,
      unit: 'ops/s',
      sdk: summarize(rates.sdk),
      baselineName: 'createHmac + timingSafeEqual + JSON.parse',
      baseline: summarize(rates.raw),
      goal: 0.9,
      requests: options.perRound * options.rounds,
    });
  }
  const subtle = await rawSubtle();
  // Web Crypto runs each digest as a job off the main thread: fewer operations per round.
  const perRound = Math.ceil(options.perRound / 4);
  for (const size of [1024, 16 * 1024]) {
    const { body, header } = delivery(size);
    const rates = await alternate(
      {
        sdk: () => loopAsync(perRound, () => webhooks.verifyWebhookAsync(body, header, SECRET)),
        raw: () => loopAsync(perRound, () => subtle(body, header)),
      },
      options.rounds,
    );
    results.push({
      figure: `\`verifyWebhookAsync\`, ${size / 1024} KB body`,
      unit: 'ops/s',
      sdk: summarize(rates.sdk),
      baselineName: 'crypto.subtle.verify + TextDecoder + JSON.parse',
      baseline: summarize(rates.raw),
      goal: 0.9,
      requests: perRound * options.rounds,
    });
  }
  return results;
}
