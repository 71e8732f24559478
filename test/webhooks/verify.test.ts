import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  signWebhookPayload,
  verifyWebhook,
  verifyWebhookRequest,
  type WebhookRawBody,
  type WebhookSecret,
  WebhookVerificationError,
  type WebhookVerificationReason,
  webhookSignatureHeader,
} from '../../src/webhooks/index.js';
import { sampleEvent } from './sample-event.js';

const dir = new URL('../fixtures/webhooks/', import.meta.url);
const vectors: { body_file: string; secret: string; signature: string }[] = JSON.parse(
  readFileSync(new URL('vectors.json', dir), 'utf8'),
);
const SECRET = 'whsec_current_9f8e7d6c5b4a';
const OLD_SECRET = 'whsec_previous_0a1b2c3d4e5f';

const event = sampleEvent({ event_id: 'evt_verify_1' });

function failure(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return err as WebhookVerificationError;
  }
  throw new Error('verification passed where it should have failed');
}

async function failureOf(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const err = await promise.then(
    () => new Error('verification passed where it should have failed'),
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WebhookVerificationError);
  return err as WebhookVerificationError;
}

/** Everything a log could show of an error. */
const shown = (err: Error) => `${err.message}\n${JSON.stringify(err)}\n${inspect(err)}`;

describe('signWebhookPayload and webhookSignatureHeader', () => {
  it.each(vectors.slice(0, 8).map((v) => [v.body_file, v] as const))(
    'produce the OpenSSL signature of %s',
    (_n, v) => {
      const body = readFileSync(new URL(`bodies/${v.body_file}`, dir));
      expect(webhookSignatureHeader(body, v.secret)).toBe(v.signature);
      expect(webhookSignatureHeader(body.toString('utf8'), v.secret)).toBe(v.signature);
      expect(signWebhookPayload(body.toString('utf8'), v.secret).signature).toBe(v.signature);
    },
  );

  it('serialises an object compactly and returns the delivery headers', () => {
    const signed = signWebhookPayload(event, SECRET);
    expect(signed.body).toBe(JSON.stringify(event));
    expect(signed.headers).toEqual({
      'content-type': 'application/json',
      'x-service-signature': signed.signature,
    });
    expect(signed.signature).toMatch(/^hmac-sha256=[0-9a-f]{64}$/);
    expect(verifyWebhook(signed.body, signed.signature, SECRET)).toEqual(event);
  });

  it('refuses an empty secret and a payload JSON cannot serialise, with typed errors', () => {
    expect(failure(() => signWebhookPayload(event, '')).reason).toBe('missing_secret');
    expect(failure(() => webhookSignatureHeader('{}', undefined as unknown as string)).reason).toBe(
      'missing_secret',
    );
    expect(failure(() => signWebhookPayload({ amount: 1n }, SECRET)).reason).toBe('invalid_payload');
  });
});

describe('verifyWebhook', () => {
  const signed = signWebhookPayload(event, SECRET);

  it('returns the event, keeping fields it does not know and kinds added later', () => {
    const later = { ...event, event_kind: 'payment.disputed', dispute: { reason: 'fraudulent' } };
    const s = signWebhookPayload(later, SECRET);
    expect(verifyWebhook(s.body, s.signature, SECRET)).toEqual(later);
  });

  it('accepts an ArrayBuffer and a Uint8Array view into a larger buffer', () => {
    const bytes = Buffer.from(signed.body);
    const arrayBuffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    expect(verifyWebhook(arrayBuffer, signed.signature, SECRET).event_id).toBe('evt_verify_1');
    const padded = Buffer.concat([Buffer.from('xx'), bytes, Buffer.from('yy')]);
    const view = new Uint8Array(padded.buffer, padded.byteOffset + 2, bytes.length);
    expect(verifyWebhook(view, signed.signature, SECRET).event_id).toBe('evt_verify_1');
  });

  const notRaw: [string, unknown][] = [
    ['a parsed object (express.json())', JSON.parse(signed.body)],
    ['an array', [1, 2]],
    ['undefined (no body parser ran)', undefined],
    ['null', null],
    ['a number', 42],
  ];
  it.each(notRaw)('refuses %s with body_not_raw and explains each framework', (_n, body) => {
    const err = failure(() => verifyWebhook(body as WebhookRawBody, signed.signature, SECRET));
    expect(err.reason).toBe('body_not_raw');
    expect(err.message).toContain("express.raw({ type: 'application/json' })");
    expect(err.message).toContain('addContentTypeParser');
    expect(err.message).toContain("parseAs: 'buffer'");
    expect(err.message).toContain('await request.text()');
    expect(err.message).toContain('Buffer.concat(chunks)');
  });

  it('cannot tell a re-serialised string from the original: it fails as a mismatch that names the cause', () => {
    const pretty = readFileSync(new URL('bodies/refunded-pretty.json', dir));
    const v = vectors.find((x) => x.body_file === 'refunded-pretty.json')!;
    const reserialised = JSON.stringify(JSON.parse(pretty.toString('utf8')));
    const err = failure(() => verifyWebhook(reserialised, v.signature, v.secret));
    expect(err.reason).toBe('signature_mismatch');
    expect(err.message).toContain('JSON.stringify(req.body)');
  });

  const noSecret: [string, unknown][] = [
    ['an empty string', ''],
    ['undefined (unset environment variable)', undefined],
    ['an empty list', []],
    ['a list of unset values', [undefined, '']],
  ];
  it.each(noSecret)(
    'refuses %s as a secret with missing_secret, before looking at the request',
    (_n, secret) => {
      expect(failure(() => verifyWebhook(signed.body, undefined, secret as WebhookSecret)).reason).toBe(
        'missing_secret',
      );
    },
  );

  const badPayloads: [string, string | Buffer, string][] = [
    ['not JSON', 'hello', 'not UTF-8 JSON'],
    ['invalid UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), 'not UTF-8 JSON'],
    ['JSON without event_id', JSON.stringify({ ...event, event_id: undefined }), 'event_id'],
    ['an empty event_id', JSON.stringify({ ...event, event_id: '' }), 'event_id'],
    ['a fractional version', JSON.stringify({ ...event, v: 1.5 }), 'v:'],
    ['no resource', JSON.stringify({ ...event, resource: undefined }), 'resource'],
    [
      'a resource without payment_id',
      JSON.stringify({ ...event, resource: { status: 'approved' } }),
      'payment_id',
    ],
    ['a JSON array', '[1,2,3]', '(body)'],
  ];
  it.each(badPayloads)('a correctly signed body that is %s gives invalid_payload', (_n, body, mentions) => {
    const err = failure(() => verifyWebhook(body, webhookSignatureHeader(body, SECRET), SECRET));
    expect(err.reason).toBe('invalid_payload');
    expect(err.message).toContain(mentions);
  });

  it('keeps the secret and the signature out of every error message, toJSON and inspect output', () => {
    const attempts: (() => unknown)[] = [
      () => verifyWebhook(signed.body, signed.signature, 'whsec_wrong_secret_value'),
      () => verifyWebhook(`${signed.body} `, signed.signature, SECRET),
      () => verifyWebhook(signed.body, signed.signature.toUpperCase(), SECRET),
      () => verifyWebhook(signed.body, `${signed.signature}0`, SECRET),
      () => verifyWebhook({} as WebhookRawBody, signed.signature, SECRET),
    ];
    for (const attempt of attempts) {
      const text = shown(failure(attempt));
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('whsec_wrong_secret_value');
      expect(text.toLowerCase()).not.toContain(signed.signature.slice(12, 40));
    }
  });
});

describe('secret rotation', () => {
  const byNew = signWebhookPayload(event, SECRET);
  const byOld = signWebhookPayload({ ...event, event_id: 'evt_old' }, OLD_SECRET);

  it('verifies an event signed with either of two secrets, in either order', () => {
    for (const secrets of [
      [SECRET, OLD_SECRET],
      [OLD_SECRET, SECRET],
    ]) {
      expect(verifyWebhook(byNew.body, byNew.signature, secrets).event_id).toBe('evt_verify_1');
      expect(verifyWebhook(byOld.body, byOld.signature, secrets).event_id).toBe('evt_old');
    }
  });

  it('skips an unset entry, and rejects a signature made with neither secret', () => {
    expect(verifyWebhook(byOld.body, byOld.signature, [undefined, OLD_SECRET]).event_id).toBe('evt_old');
    const stranger = signWebhookPayload(event, 'whsec_someone_else');
    const err = failure(() => verifyWebhook(stranger.body, stranger.signature, [SECRET, OLD_SECRET]));
    expect(err.reason).toBe('signature_mismatch');
    expect(err.message).toContain('any of the 2 signing secrets');
  });

  it('stops accepting the old secret once it is removed from the list', () => {
    expect(failure(() => verifyWebhook(byOld.body, byOld.signature, [SECRET])).reason).toBe(
      'signature_mismatch',
    );
  });
});

describe('verifyWebhookRequest (fetch Request handlers)', () => {
  const signed = signWebhookPayload(event, SECRET);
  const request = (body: string, headers: Record<string, string> = signed.headers) =>
    new Request('http://127.0.0.1/webhooks', { method: 'POST', headers, body });

  it('reads the raw body and returns the event', async () => {
    await expect(verifyWebhookRequest(request(signed.body), SECRET)).resolves.toEqual(event);
    await expect(verifyWebhookRequest(request(signed.body), [OLD_SECRET, SECRET])).resolves.toEqual(event);
  });

  const failures: [string, () => Request | object, WebhookVerificationReason][] = [
    ['a tampered body', () => request(signed.body.replace('12500', '12501')), 'signature_mismatch'],
    [
      'no signature header',
      () => request(signed.body, { 'content-type': 'application/json' }),
      'missing_signature',
    ],
    [
      'an uppercase signature',
      () => request(signed.body, { 'x-service-signature': signed.signature.toUpperCase() }),
      'malformed_signature',
    ],
    ['a Node.js request instead of a fetch Request', () => ({ headers: {}, body: {} }), 'body_not_raw'],
  ];
  it.each(failures)('rejects %s', async (_n, make, reason) => {
    const err = await failureOf(verifyWebhookRequest(make() as Request, SECRET));
    expect(err.reason).toBe(reason);
  });

  it('explains a body that was already read', async () => {
    const req = request(signed.body);
    await req.json();
    const err = await failureOf(verifyWebhookRequest(req, SECRET));
    expect(err.reason).toBe('body_not_raw');
    expect(err.message).toContain('already read');
  });

  it('reports a missing secret before reading the body', async () => {
    const req = request(signed.body);
    expect((await failureOf(verifyWebhookRequest(req, ''))).reason).toBe('missing_secret');
    expect(req.bodyUsed).toBe(false);
  });
});
