import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { createClock } from '../../src/testing/clock.js';
import { declinesAmount } from '../../src/testing/domain/auto-process.js';
import { luhnValid, TEST_CARDS } from '../../src/testing/domain/hosted-page.js';
import { fingerprint } from '../../src/testing/engine/lookup.js';
import { deriveOrderStatus, remainingCents } from '../../src/testing/engine/order-status.js';
import { takeToken } from '../../src/testing/engine/rate-limit.js';
import type { MockApiError } from '../../src/testing/engine/respond.js';
import { matchPath } from '../../src/testing/engine/router.js';
import { authenticate, TokenAuthority } from '../../src/testing/engine/token-authority.js';
import { MockState } from '../../src/testing/state.js';

const p = (status: string, amount_cents = 100) => ({ status, amount_cents });

describe('deriveOrderStatus (api.md section 9)', () => {
  it.each([
    ['no payment', [], 'open'],
    ['a pending payment', [p('pending')], 'pending'],
    ['approved for the total', [p('approved')], 'paid'],
    ['settled for the total', [p('settled')], 'paid'],
    ['approved below the total', [p('approved', 40)], 'partially_paid'],
    ['pending beside an approved part', [p('approved', 40), p('pending', 60)], 'pending'],
    ['only declined and failed attempts', [p('declined'), p('failed')], 'open'],
    ['every attempt voided', [p('voided'), p('declined')], 'voided'],
    ['every attempt refunded', [p('refunded')], 'refunded'],
    ['cancelled', [p('cancelled')], 'cancelled'],
    ['expired', [p('expired')], 'cancelled'],
    ['voided then refunded: the latest wins', [p('voided', 50), p('refunded', 50)], 'refunded'],
  ])('%s -> %s', (_what, payments, expected) => {
    expect(deriveOrderStatus(100, payments)).toBe(expected);
  });

  it('remaining cents exclude paid and pending amounts, not declined ones', () => {
    expect(remainingCents(100, [p('approved', 30), p('pending', 20), p('declined', 50)])).toBe(50);
  });
});

describe('takeToken (token bucket)', () => {
  const limit = { burst: 2, perSecond: 1 };
  it('allows the burst, then refuses with Retry-After, then refills with time', () => {
    let r = takeToken(undefined, limit, 0);
    r = takeToken(r.bucket, limit, 0);
    expect(r.allowed).toBe(true);
    r = takeToken(r.bucket, limit, 0);
    expect([r.allowed, r.retryAfterSeconds]).toEqual([false, 1]);
    r = takeToken(r.bucket, limit, 1_000);
    expect(r.allowed).toBe(true);
  });
});

describe('small pure helpers', () => {
  it.each([
    [TEST_CARDS.approve, true],
    [TEST_CARDS.decline, true],
    [TEST_CARDS.processingError, true],
    ['4242424242424241', false],
    ['42424242', false],
    ['4242 4242 4242 4242', false],
  ])('luhnValid(%s) = %s', (card, valid) => expect(luhnValid(card)).toBe(valid));

  it.each([
    ['/pos/v1/orders/:id', '/pos/v1/orders/abc', { id: 'abc' }],
    ['/pos/v1/orders/:id', '/pos/v1/orders/abc/', { id: 'abc' }],
    ['/pos/v1/orders/:id', '/pos/v1/orders', null],
    ['/pos/v1/orders', '/pos/v1/orderz', null],
  ])('matchPath(%s, %s)', (pattern, path, expected) => expect(matchPath(pattern, path)).toEqual(expected));

  it('fingerprint ignores key order but not values', () => {
    expect(fingerprint({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(fingerprint({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
  });

  it.each([
    [1013, true],
    [13, true],
    [1014, false],
    [113_00, false],
  ])('declinesAmount(%i) with [13] = %s', (amount, declines) =>
    expect(declinesAmount(amount, [13])).toBe(declines),
  );

  it('the clock refuses a negative advance and starts where told', () => {
    const clock = createClock({ start: '2026-01-01T00:00:00Z' });
    expect(clock.iso()).toBe('2026-01-01T00:00:00.000Z');
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });
});

describe('authenticate: issuer and pool checks', () => {
  const authority = new TokenAuthority();
  const state = new MockState();
  state.clients.set('c1', {
    clientId: 'c1',
    clientSecret: 's',
    partnerId: 'p1',
    scopes: [],
    tier: 'standard',
    revoked: false,
  });
  const sign = (claims: Record<string, unknown>, issuer: string) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(issuer)
      .setSubject('c1')
      .setExpirationTime('1h')
      .sign(authority.key);
  const codeOf = async (token: string) => {
    try {
      await authenticate(`Bearer ${token}`, { scope: 'svc/locations:read' }, authority, state, Date.now());
      return 'ok';
    } catch (error) {
      return (error as MockApiError).code;
    }
  };

  it.each([
    [
      'a wrong issuer',
      { pool: 'm2m', partner_id: 'p1', scope: 'svc/locations:read' },
      'https://evil.example',
      'invalid_token',
    ],
    [
      'an unknown pool',
      { pool: 'other', partner_id: 'p1', scope: 'svc/locations:read' },
      'https://auth.payments.mock',
      'invalid_token',
    ],
    [
      'a token without the scope',
      { pool: 'm2m', partner_id: 'p1', scope: 'svc/pos:launch' },
      'https://auth.payments.mock',
      'insufficient_scope',
    ],
    [
      'a good token',
      { pool: 'm2m', partner_id: 'p1', scope: 'svc/locations:read' },
      'https://auth.payments.mock',
      'ok',
    ],
  ])('%s -> %s', async (_what, claims, issuer, expected) => {
    expect(await codeOf(await sign(claims, issuer))).toBe(expected);
  });
});
