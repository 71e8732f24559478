/**
 * Issue 10, items 4 and 5: whatever the input, verification returns an event or throws (rejects with)
 * a WebhookVerificationError, never a bare TypeError or RangeError; and the envelope is held to spec
 * 6.3 (version 1, UUIDs, an ISO 8601 timestamp, a non-empty event_id). Both functions, same answers.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  verifyWebhook,
  verifyWebhookAsync,
  verifyWebhookRequest,
  type WebhookEvent,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '../../src/webhooks/index.js';
import { sampleEvent } from './sample-event.js';

const SECRET = 'whsec_odd_input';
const sign = (body: Uint8Array | string) =>
  `hmac-sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
const event = sampleEvent({ event_id: 'evt_odd_1' });
// Padded to a multiple of 8 bytes (JSON allows trailing spaces) so that every typed array can hold it.
const text = JSON.stringify(event).padEnd(Math.ceil(JSON.stringify(event).length / 8) * 8 + 8, ' ');
const bytes = Buffer.from(text);
const header = sign(bytes);

type Outcome = { event: WebhookEvent } | { reason: WebhookVerificationReason };
type Verify = (body: unknown, header: unknown, secret?: unknown) => Promise<Outcome>;

/** Runs one verification and says how it ended; anything but an event or a WebhookVerificationError fails the test. */
async function settle(run: () => unknown): Promise<Outcome> {
  try {
    return { event: (await run()) as WebhookEvent };
  } catch (err) {
    if (!(err instanceof WebhookVerificationError))
      throw new Error(`escaped as ${String(err)}`, { cause: err });
    return { reason: err.reason };
  }
}

const BOTH: [string, Verify][] = [
  ['verifyWebhook', (b, h, s = SECRET) => settle(() => verifyWebhook(b as never, h as never, s as never))],
  [
    'verifyWebhookAsync',
    (b, h, s = SECRET) => settle(() => verifyWebhookAsync(b as never, h as never, s as never)),
  ],
];

function detached(): ArrayBuffer {
  const buffer = new Uint8Array(bytes).buffer;
  structuredClone(buffer, { transfer: [buffer] });
  return buffer;
}
/** A view made before its buffer was transferred away: it now reads as empty. */
function detachedView(): Uint8Array {
  const view = new Uint8Array(bytes);
  structuredClone(view.buffer, { transfer: [view.buffer] });
  return view;
}
function shared(): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(bytes.length);
  new Uint8Array(buffer).set(bytes);
  return buffer;
}
const copy = () => new Uint8Array(bytes).buffer;
const revoked = () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
};
const throwing = new Proxy([header], {
  get() {
    throw new Error('getter threw');
  },
});
class Sneaky extends Uint8Array {
  override get buffer(): ArrayBuffer {
    throw new Error('buffer getter threw');
  }
}

const BODIES: [string, () => unknown, WebhookVerificationReason | 'event'][] = [
  ['a detached ArrayBuffer', detached, 'body_not_raw'],
  ['a Uint8Array over a detached buffer', detachedView, 'body_not_raw'],
  ['a SharedArrayBuffer', shared, 'event'],
  ['a Uint8Array over shared memory', () => new Uint8Array(shared()), 'event'],
  ['a Uint16Array', () => new Uint16Array(copy()), 'event'],
  ['a Float64Array', () => new Float64Array(copy()), 'event'],
  ['a DataView', () => new DataView(copy()), 'event'],
  ['a Uint8Array subclass whose buffer getter throws', () => new Sneaky(bytes), 'body_not_raw'],
  ['a proxy of a Uint8Array', () => new Proxy(new Uint8Array(bytes), {}), 'body_not_raw'],
  ['a revoked proxy', revoked, 'body_not_raw'],
  ['an object whose toString gives the body', () => ({ toString: () => text }), 'body_not_raw'],
  ['an array of the bytes', () => [...bytes], 'body_not_raw'],
  ['a String object', () => new String(text), 'body_not_raw'],
  ['a bigint', () => 10n, 'body_not_raw'],
  ['a symbol', () => Symbol('body'), 'body_not_raw'],
  ['a function', () => () => text, 'body_not_raw'],
  ['a 10 MB string', () => 'x'.repeat(10_000_000), 'signature_mismatch'],
];

const HEADERS: [string, () => unknown, WebhookVerificationReason | 'event'][] = [
  ['a 10 MB string', () => 'a'.repeat(10_000_000), 'malformed_signature'],
  ['the prefix and 10 MB of hex', () => `hmac-sha256=${'a'.repeat(10_000_000)}`, 'malformed_signature'],
  ['a number', () => 42, 'malformed_signature'],
  ['a bigint', () => 42n, 'malformed_signature'],
  ['a symbol', () => Symbol('sig'), 'malformed_signature'],
  ['an object whose toString gives the signature', () => ({ toString: () => header }), 'malformed_signature'],
  ['a String object', () => new String(header), 'malformed_signature'],
  ['an empty array', () => [], 'missing_signature'],
  ['an array of the signature', () => [header], 'event'],
  ['an array of the signature twice', () => [header, header], 'malformed_signature'],
  ['an array of a number', () => [42], 'malformed_signature'],
  ['an array whose reads throw', () => throwing, 'malformed_signature'],
  ['a revoked proxy', revoked, 'malformed_signature'],
];

describe.each(BOTH)('%s on odd input', (_name, verify) => {
  it.each(BODIES)('a body that is %s', async (_n, body, expected) => {
    const outcome = await verify(body(), header);
    if (expected === 'event') expect(outcome).toEqual({ event: JSON.parse(text) });
    else expect(outcome).toEqual({ reason: expected });
  });

  it.each(HEADERS)('a signature header that is %s', async (_n, make, expected) => {
    const outcome = await verify(bytes, make());
    if (expected === 'event') expect(outcome).toEqual({ event: JSON.parse(text) });
    else expect(outcome).toEqual({ reason: expected });
  });

  it.each([
    ['a list whose reads throw', throwing],
    ['a list of non-strings', [42, {}, null]],
    ['an object', { secret: SECRET }],
    ['a revoked proxy', revoked()],
  ])('a secret that is %s gives missing_secret', async (_n, secret) => {
    expect(await verify(bytes, header, secret)).toEqual({ reason: 'missing_secret' });
  });

  it('anything at all as body, header and secret ends in an event or a WebhookVerificationError (fast-check)', async () => {
    const anything = fc.anything({
      withBigInt: true,
      withBoxedValues: true,
      withMap: true,
      withSet: true,
      withTypedArray: true,
      withSparseArray: true,
      withNullPrototype: true,
    });
    await fc.assert(
      fc.asyncProperty(
        anything,
        fc.oneof(anything, fc.constant(header)),
        fc.oneof(anything, fc.constant(SECRET)),
        async (b, h, s) => {
          await verify(b, h, s); // settle() fails the run on any other outcome
        },
      ),
      { numRuns: 500 },
    );
  });

  const envelope = (changes: Record<string, unknown>) => JSON.stringify({ ...event, ...changes });
  it.each([
    ['v: 2', envelope({ v: 2 }), 'unsupported_version'],
    ['v: 0', envelope({ v: 0 }), 'unsupported_version'],
    ["v: '1'", envelope({ v: '1' }), 'invalid_payload'],
    ['no v', envelope({ v: undefined }), 'invalid_payload'],
    ["partner_id: 'not-a-uuid'", envelope({ partner_id: 'not-a-uuid' }), 'invalid_payload'],
    ["occurred_at: 'yesterday'", envelope({ occurred_at: 'yesterday' }), 'invalid_payload'],
    ['occurred_at without a zone', envelope({ occurred_at: '2026-05-12T10:15:30' }), 'invalid_payload'],
    ["event_id: ''", envelope({ event_id: '' }), 'invalid_payload'],
    [
      'a resource payment_id that is no UUID',
      envelope({ resource: { ...event.resource, payment_id: 'pay_1' } }),
      'invalid_payload',
    ],
  ])('a correctly signed envelope with %s is refused (spec 6.3)', async (_n, body, reason) => {
    expect(await verify(body, sign(body))).toEqual({ reason });
  });
});

describe('verifyWebhookRequest on an odd request', () => {
  const body = () => new Uint8Array(bytes).buffer;
  const headers = { get: () => header };
  const odd: [string, () => unknown][] = [
    [
      'headers whose getter throws',
      () => ({
        get headers() {
          throw new Error('x');
        },
        arrayBuffer: async () => body(),
      }),
    ],
    [
      'headers.get that throws',
      () => ({
        headers: {
          get() {
            throw new Error('x');
          },
        },
        arrayBuffer: async () => body(),
      }),
    ],
    [
      'a bodyUsed getter that throws',
      () => ({
        headers,
        get bodyUsed() {
          throw new Error('x');
        },
        arrayBuffer: async () => body(),
      }),
    ],
    [
      'arrayBuffer() that rejects',
      () => ({
        headers,
        arrayBuffer: async () => {
          throw new RangeError('x');
        },
      }),
    ],
    ['arrayBuffer() that gives a detached buffer', () => ({ headers, arrayBuffer: async () => detached() })],
    ['arrayBuffer() that gives an object', () => ({ headers, arrayBuffer: async () => ({}) })],
    ['null', () => null],
    ['a string', () => 'request'],
  ];
  it.each(odd)('%s gives body_not_raw', async (_n, request) => {
    expect(await settle(() => verifyWebhookRequest(request() as Request, SECRET))).toEqual({
      reason: 'body_not_raw',
    });
  });
});
