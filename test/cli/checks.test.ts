/**
 * The doctor's pure judgements and the bin's argument parsing, table-driven: URLs, the served
 * version against the SDK's, the clock skew from a Date header, the webhook secret's form, the
 * contract's shape checks, and flags over variables.
 */
import { describe, expect, it } from 'vitest';
import { parsePartnerArgs } from '../../src/cli/partner/args.js';
import {
  checkUrls,
  checkWebhookSecret,
  judgeSkew,
  judgeVersion,
} from '../../src/cli/partner/doctor/checks.js';
import { duration, Scrubber } from '../../src/cli/partner/output.js';
import { ORDER_CREATED, shapeProblems } from '../../src/cli/partner/verify/contract.js';
import { UsageError } from '../../src/cli/shared/args.js';
import type { Setting } from '../../src/cli/shared/connection.js';

const set = (value: string | undefined, env = 'PAYMENTS_BASE_URL'): Setting => ({
  value,
  source: value === undefined ? 'unset' : 'env',
  flag: '--base-url',
  env,
});

describe('checkUrls', () => {
  const auth = (value: string | undefined) => ({ ...set(value, 'PAYMENTS_AUTH_URL'), flag: '--auth-url' });
  it.each([
    [
      'https://api.example.com',
      'https://auth.example.com',
      'ok',
      /API https:\/\/api.example.com\/pos\/v1, tokens https:\/\/auth.example.com\/oauth2\/token/,
    ],
    [
      'https://api.example.com/pos/v1',
      'https://auth.example.com/',
      'ok',
      /API https:\/\/api.example.com\/pos\/v1,/,
    ],
    ['http://127.0.0.1:4010', 'http://localhost:4010', 'ok', /http on loopback/],
    [undefined, 'https://auth.example.com', 'fail', /no base URL: PAYMENTS_BASE_URL is not set/],
    ['http://api.example.com', 'https://auth.example.com', 'fail', /http:\/\/ on api.example.com/],
    ['api.example.com', 'https://auth.example.com', 'fail', /is not a URL/],
    ['https://user:pw@api.example.com', 'https://auth.example.com', 'fail', /user name or password/],
    ['https://api.example.com/pos/v1/orders', 'https://auth.example.com', 'fail', /names an endpoint/],
    ['https://api.example.com', 'https://auth.example.com/oauth2/token', 'fail', /ends with \/oauth2\/token/],
    ['https://api.example.com?x=1', 'https://auth.example.com', 'fail', /query or fragment/],
  ] as const)('%s with %s: %s', (base, authUrl, verdict, message) => {
    const check = checkUrls(set(base), auth(authUrl));
    expect(check.verdict).toBe(verdict);
    expect(check.message).toMatch(message);
    if (verdict === 'fail') expect(check.fix).toBeTruthy();
  });
});

describe('judgeVersion (the SDK is 0.2.0, written for release 1.2)', () => {
  it.each([
    ['0.2.0', 'ok', /the same as this SDK/],
    ['1.2', 'ok', /release 1.2, the one/],
    ['v1.2.3', 'ok', /release v1.2.3/],
    ['1.3.0', 'warn', /newer than the 1.2/],
    ['1.1', 'fail', /older than the 1.2/],
    ['2.0.0', 'fail', /API version 2.0.0/],
    ['0.3.0', 'warn', /a partner-payments mock of another release/],
    ['latest', 'warn', /not a release number/],
    [undefined, 'warn', /no info.version/],
  ] as const)('%s: %s', (served, verdict, message) => {
    const judged = judgeVersion(served, '0.2.0');
    expect(judged.verdict).toBe(verdict);
    expect(judged.message).toMatch(message);
  });
});

describe('judgeSkew', () => {
  const at = Date.parse('2026-05-12T10:00:00.000Z');
  const date = (ms: number) => new Date(ms).toUTCString();
  it.each([
    ['in step', date(at), 0, 'ok'],
    ['4 s behind (within 5 s)', date(at + 4000), 0, 'ok'],
    ['7 s behind', date(at + 7000), 0, 'fail'],
    ['7 s ahead', date(at - 7000), 0, 'fail'],
    ['7 s behind, measured over an 8 s round trip: not provable', date(at + 7000), 8000, 'ok'],
  ] as const)('%s', (_name, header, rtt, verdict) => {
    expect(judgeSkew(header, at - rtt / 2, at + rtt / 2, 5000).verdict).toBe(verdict);
  });
  it('says which way and by how much', () => {
    expect(judgeSkew(date(at + 600_000), at, at + 20, 5000).message).toMatch(
      /is 10 min behind the service's/,
    );
    expect(judgeSkew(date(at - 125_000), at, at + 20, 5000).message).toMatch(
      /is 2 min 5 s ahead of the service's/,
    );
  });
  it('warns without a Date header', () => {
    expect(judgeSkew(undefined, at, at, 5000).verdict).toBe('warn');
    expect(judgeSkew('yesterday', at, at, 5000).message).toMatch(/unreadable Date header/);
  });
});

describe('checkWebhookSecret (its form, never its value)', () => {
  const secret = (value: string | undefined) => ({
    ...set(value, 'PAYMENTS_WEBHOOK_SECRET'),
    flag: '--webhook-secret',
  });
  it.each([
    [undefined, 'skip', /not checked/],
    ['', 'fail', /empty/],
    [' whsec_0123456789abcdef', 'fail', /spaces or a line break/],
    ["'whsec_0123456789abcdef'", 'fail', /quotes/],
    ['hmac-sha256=0123456789abcdef', 'fail', /a signature/],
    ['the-client-secret-value', 'fail', /the API client's secret/],
    ['<your-webhook-secret>', 'fail', /placeholder/],
    ['changeme', 'fail', /placeholder/],
    ['whsec_0123 456789abcdef', 'fail', /printable ASCII/],
    ['short-secret', 'warn', /12 characters/],
    ['whsec_0123456789abcdef0123', 'ok', /26 characters, no spaces or quotes, whsec_ form/],
  ] as const)('%s: %s', (value, verdict, message) => {
    const check = checkWebhookSecret(secret(value), 'the-client-secret-value');
    expect(check.verdict).toBe(verdict);
    expect(check.message).toMatch(message);
    if (value && value.length > 8) expect(check.message + (check.fix ?? '')).not.toContain(value.trim());
  });
});

describe('the contract shape check', () => {
  it('names the field and the kind, never the value', () => {
    const problems = shapeProblems(
      { order_id: 'not-a-uuid', status: 'open', total_cents: 1.5, created_at: 'yesterday' },
      ORDER_CREATED,
    );
    expect(problems).toEqual([
      'order_id: expected a UUID (spec 1.5), got a string',
      'total_cents: expected an integer (spec 1.4), got a fraction',
      'created_at: expected an ISO 8601 timestamp (spec 1.3), got a string',
    ]);
    expect(shapeProblems({ status: 'open' }, { status: { is: 'open' }, extra: 'int' })).toEqual([
      'extra: missing',
    ]);
    expect(shapeProblems([], ORDER_CREATED)).toEqual(['body: expected a JSON object, got an array']);
  });
});

describe('parsePartnerArgs', () => {
  const env = { PAYMENTS_CLIENT_ID: 'from-env', PAYMENTS_BASE_URL: 'https://api.example.com' };
  it('takes flags over variables, and the base URL for a missing auth URL, as the client does', () => {
    const args = parsePartnerArgs(['doctor', '--client-id', 'from-flag'], env);
    if (args.command !== 'doctor') throw new Error('not doctor');
    expect(args.connection.clientId).toMatchObject({ value: 'from-flag', source: 'flag' });
    expect(args.connection.authUrl).toMatchObject({ value: 'https://api.example.com', source: 'base URL' });
    expect(args.scopes).toEqual(['svc/payments:create', 'svc/payments:read', 'svc/locations:read']);
    expect(args.maxSkewMs).toBe(5000);
  });
  it('reads the verify flags', () => {
    const args = parsePartnerArgs(['verify', '--read-only', '--settle-wait', '30', '--no-rate-limit'], env);
    if (args.command !== 'verify') throw new Error('not verify');
    expect(args).toMatchObject({
      readOnly: true,
      settleWaitMs: 30_000,
      rateLimit: false,
      webhookWaitMs: 30_000,
    });
  });
  it.each([
    [['frobnicate'], /unknown command frobnicate/],
    [['doctor', '--nope'], /Unknown option '--nope'/],
    [['verify', '--settle-wait', 'soon'], /--settle-wait must be a number of seconds/],
    [['verify', '--location', 'not-a-uuid'], /--location must be a location id/],
    [['verify', '--webhooks', 'http://127.0.0.1/x'], /with a port/],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parsePartnerArgs(argv as string[], { ...env, PAYMENTS_WEBHOOK_SECRET: 'x' })).toThrow(
      UsageError,
    );
    expect(() => parsePartnerArgs(argv as string[], { ...env, PAYMENTS_WEBHOOK_SECRET: 'x' })).toThrow(
      message,
    );
  });
});

describe('output helpers', () => {
  it('scrubs registered secrets and credential patterns', () => {
    const scrubber = new Scrubber();
    scrubber.add('s3cr3t-value');
    const text =
      'secret s3cr3t-value, Bearer abc.def, eyJhbGciOi.eyJzdWIi.c2ln, hmac-sha256=00ff, ?token=abc&x=1';
    expect(scrubber.scrub(text)).toBe(
      'secret [REDACTED], [REDACTED], [REDACTED], [REDACTED], ?[REDACTED]&x=1',
    );
  });
  it.each([
    [850, '850 ms'],
    [12_400, '12.4 s'],
    [599_600, '10 min'],
    [192_000, '3 min 12 s'],
  ])('duration(%i) is %s', (ms, text) => {
    expect(duration(ms)).toBe(text);
  });
});
