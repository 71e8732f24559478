// signWebhookPayloadAsync: the Web Crypto signer gives byte for byte what signWebhookPayload gives,
// and what it signs verifies on both paths.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  signWebhookPayload,
  signWebhookPayloadAsync,
  verifyWebhook,
  verifyWebhookAsync,
  WebhookVerificationError,
} from '../../src/webhooks/index.js';
import { sampleEvent } from './sample-event.js';

describe('signWebhookPayloadAsync', () => {
  it('gives the same body, signature and headers as signWebhookPayload', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.jsonValue({ maxDepth: 2 }).map((v) => ({ v })),
        ),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 90 }),
        async (payload, secret) => {
          expect(await signWebhookPayloadAsync(payload, secret)).toEqual(signWebhookPayload(payload, secret));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('signs an event that both verifiers accept', async () => {
    const { body, signature } = await signWebhookPayloadAsync(sampleEvent(), 'whsec_async');
    expect(signature).toMatch(/^hmac-sha256=[0-9a-f]{64}$/);
    expect(verifyWebhook(body, signature, 'whsec_async').event_id).toBe('evt_sample');
    expect((await verifyWebhookAsync(body, signature, 'whsec_async')).event_id).toBe('evt_sample');
    await expect(verifyWebhookAsync(body, signature, 'whsec_other')).rejects.toMatchObject({
      reason: 'signature_mismatch',
    });
  });

  it('rejects as signWebhookPayload throws: no secret, a payload that is not JSON', async () => {
    await expect(signWebhookPayloadAsync({}, '')).rejects.toMatchObject({ reason: 'missing_secret' });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const error = await signWebhookPayloadAsync(cycle, 'whsec_async').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect(error).toMatchObject({ reason: 'invalid_payload' });
  });
});
