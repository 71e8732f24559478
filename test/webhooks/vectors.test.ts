import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type SignatureHeaderValue,
  verifyWebhook,
  verifyWebhookAsync,
  type WebhookEvent,
  type WebhookRawBody,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from '../../src/webhooks/index.js';

interface Vector {
  body_file: string;
  secret: string;
  signature: string;
  expect: 'event' | 'invalid_payload';
}

const dir = new URL('../fixtures/webhooks/', import.meta.url);
const vectors: Vector[] = JSON.parse(readFileSync(new URL('vectors.json', dir), 'utf8'));
const bodyOf = (v: Vector) => readFileSync(new URL(`bodies/${v.body_file}`, dir));

type Verify = (body: WebhookRawBody, header: SignatureHeaderValue, secret: string) => Promise<WebhookEvent>;
/** Both functions, which must give the same results and reasons. */
const BOTH: [string, Verify][] = [
  ['verifyWebhook', async (b, h, s) => verifyWebhook(b, h, s)],
  ['verifyWebhookAsync', verifyWebhookAsync],
];

/** The reason verification failed with; fails the test when it threw something else or nothing. */
async function reasonOf(run: () => Promise<unknown>): Promise<WebhookVerificationReason> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookVerificationError);
    return (err as WebhookVerificationError).reason;
  }
  throw new Error('verification passed where it should have failed');
}

const HEX = '0123456789abcdef';
const otherHexDigit = (c: string) => HEX[(HEX.indexOf(c) + 1) % 16]!;

describe.each(BOTH)('OpenSSL test vectors (test/fixtures/webhooks) through %s', (_fn, verify) => {
  it('holds vectors for every body and secret', () => {
    expect(vectors).toHaveLength(20);
  });

  it.each(vectors.map((v) => [`${v.body_file} / ${v.secret.slice(0, 12)}`, v] as const))(
    'verifies %s as a Buffer, a Uint8Array and a string',
    async (_name, v) => {
      const bytes = bodyOf(v);
      for (const body of [bytes, new Uint8Array(bytes), bytes.toString('utf8')]) {
        if (v.expect === 'invalid_payload') {
          expect(await reasonOf(() => verify(body, v.signature, v.secret))).toBe('invalid_payload');
        } else {
          const event = await verify(body, v.signature, v.secret);
          expect(event).toEqual(JSON.parse(bytes.toString('utf8')));
        }
      }
    },
  );

  // One vector per body file is enough for the exhaustive single-byte sweeps.
  const sample = vectors.filter((v, i) => vectors.findIndex((w) => w.body_file === v.body_file) === i);

  it.each(sample.map((v) => [v.body_file, v] as const))(
    'rejects %s with any single body byte changed',
    async (_n, v) => {
      const bytes = bodyOf(v);
      for (let i = 0; i < bytes.length; i++) {
        const tampered = Buffer.from(bytes);
        tampered[i] = tampered[i]! ^ 0x01;
        expect(await reasonOf(() => verify(tampered, v.signature, v.secret))).toBe('signature_mismatch');
      }
      expect(
        await reasonOf(() => verify(Buffer.concat([bytes, Buffer.from('\n')]), v.signature, v.secret)),
      ).toBe('signature_mismatch');
      expect(await reasonOf(() => verify(bytes.subarray(0, -1), v.signature, v.secret))).toBe(
        'signature_mismatch',
      );
    },
  );

  it.each(vectors.map((v) => [v.secret.slice(0, 16), v] as const))(
    'rejects a secret with any single character changed (%s)',
    async (_n, v) => {
      const chars = [...v.secret];
      for (let i = 0; i < chars.length; i++) {
        // Flipping the lowest bit of an ASCII character changes exactly one byte of the key.
        const wrong = chars
          .map((c, j) => (j === i ? String.fromCodePoint(c.codePointAt(0)! ^ 1) : c))
          .join('');
        expect(await reasonOf(() => verify(bodyOf(v), v.signature, wrong))).toBe('signature_mismatch');
      }
      expect(await reasonOf(() => verify(bodyOf(v), v.signature, `${v.secret}x`))).toBe('signature_mismatch');
    },
  );

  it.each(sample.map((v) => [v.body_file, v] as const))(
    'rejects %s with any single signature digit changed',
    async (_n, v) => {
      const prefix = 'hmac-sha256=';
      const hex = v.signature.slice(prefix.length);
      for (let i = 0; i < hex.length; i++) {
        const changed = prefix + hex.slice(0, i) + otherHexDigit(hex[i]!) + hex.slice(i + 1);
        expect(await reasonOf(() => verify(bodyOf(v), changed, v.secret))).toBe('signature_mismatch');
      }
    },
  );
});

describe.each(BOTH)('a malformed or missing X-Service-Signature header, through %s', (_fn, verify) => {
  const v = vectors[0]!;
  const hex = v.signature.slice('hmac-sha256='.length);
  const cases: [string, string | string[] | null | undefined, WebhookVerificationReason][] = [
    ['absent (undefined)', undefined, 'missing_signature'],
    ['absent (null from Headers.get)', null, 'missing_signature'],
    ['empty', '', 'missing_signature'],
    ['an empty array', [], 'missing_signature'],
    ['uppercase hex', `hmac-sha256=${hex.toUpperCase()}`, 'malformed_signature'],
    [
      'one uppercase digit',
      `hmac-sha256=${hex.replace(/[a-f]/, (c) => c.toUpperCase())}`,
      'malformed_signature',
    ],
    ['uppercase prefix', `HMAC-SHA256=${hex}`, 'malformed_signature'],
    ['a leading space', ` ${v.signature}`, 'malformed_signature'],
    ['a trailing space', `${v.signature} `, 'malformed_signature'],
    ['a space after the prefix', `hmac-sha256= ${hex}`, 'malformed_signature'],
    ['a trailing newline', `${v.signature}\n`, 'malformed_signature'],
    ['no prefix', hex, 'malformed_signature'],
    ['another scheme', `sha256=${hex}`, 'malformed_signature'],
    ['the prefix alone', 'hmac-sha256=', 'malformed_signature'],
    ['63 digits', `hmac-sha256=${hex.slice(0, 63)}`, 'malformed_signature'],
    ['65 digits', `hmac-sha256=${hex}0`, 'malformed_signature'],
    ['128 digits', `hmac-sha256=${hex}${hex}`, 'malformed_signature'],
    ['a non-hex character', `hmac-sha256=${hex.slice(0, 63)}g`, 'malformed_signature'],
    ['non-ASCII digits', `hmac-sha256=${hex.slice(0, 62)}é1`, 'malformed_signature'],
    [
      'base64 instead of hex',
      `hmac-sha256=${Buffer.from(hex, 'hex').toString('base64')}`,
      'malformed_signature',
    ],
    ['two headers', [v.signature, v.signature], 'malformed_signature'],
    ['a valid one in a one-element array', [`hmac-sha256=${'0'.repeat(64)}`], 'signature_mismatch'],
    ['all zeros', `hmac-sha256=${'0'.repeat(64)}`, 'signature_mismatch'],
  ];

  it.each(cases)(
    '%s gives the right reason and only WebhookVerificationError',
    async (_name, header, reason) => {
      expect(await reasonOf(() => verify(bodyOf(v), header, v.secret))).toBe(reason);
    },
  );

  it('accepts the signature in a one-element array (IncomingHttpHeaders typing)', async () => {
    expect((await verify(bodyOf(v), [v.signature], v.secret)).event_id).toBe('evt_01J9Z8Q4W1');
  });

  it('never puts the secret or the signature in the message', async () => {
    // What a message shows of the secret or the signature (empty when nothing).
    const leaks = (err: unknown) => {
      const shown = `${(err as Error).message} ${JSON.stringify(err)}`;
      return [v.secret, hex.slice(0, 16)]
        .filter((s) => shown.includes(s))
        .concat(shown.toLowerCase().includes(hex.slice(8, 24)) ? ['hex'] : []);
    };
    // The control: the check catches a message that quotes the secret or the signature.
    expect(leaks(new Error(`bad secret ${v.secret}`))).not.toEqual([]);
    expect(leaks(new Error(`got ${hex.toUpperCase()}`))).not.toEqual([]);
    // Every case throws (each has a reason above), so the check runs once per case: a case that
    // stopped throwing fails here instead of passing unchecked.
    const errors = await Promise.all(
      cases.map(([, header]) =>
        verify(bodyOf(v), header, v.secret).then(
          () => undefined,
          (e: unknown) => e,
        ),
      ),
    );
    expect(errors.filter((e) => e instanceof WebhookVerificationError)).toHaveLength(cases.length);
    expect(errors.flatMap(leaks)).toEqual([]);
  });
});
