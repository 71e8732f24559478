/**
 * `partner-payments doctor`'s API check against the mock on loopback: a base URL at a wrong path of
 * the service (where everything answers 404 not_found) fails it, so the run never ends "All checks
 * passed"; an authenticated read that answers 404 fails it too; and when the credentials are refused
 * the API line says so, not that no read scope was granted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { judgeApi } from '../../src/cli/partner/doctor/probes.js';
import { APIError } from '../../src/index.js';
import { check, run, type Served, serveMock } from './helpers.js';

vi.setConfig({ testTimeout: 60_000 });

const servers: Served[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function mock(): Promise<Served> {
  const served = await serveMock();
  servers.push(served);
  return served;
}

describe('partner-payments doctor, the API check', () => {
  it('fails a base URL at a wrong path of the service (404 not_found), with the fix, and exits 1', async () => {
    const { env } = await mock();
    const { code, stdout } = await run(['doctor'], {
      ...env,
      PAYMENTS_BASE_URL: `${env.PAYMENTS_BASE_URL}/payments`,
    });
    expect(check(stdout, 'API')).toMatch(/^FAIL .*404 not_found.*no Partner Payments API at this base URL/);
    expect(stdout).toContain('fix: set PAYMENTS_BASE_URL to the API root of your environment');
    expect(stdout).not.toContain('All checks passed');
    expect(code).toBe(1);
    // The control: the same mock at its API root passes.
    expect((await run(['doctor'], env)).code).toBe(0);
  });

  it('says the credentials were refused when they were, not that no read scope was granted', async () => {
    const { env } = await mock();
    const { code, stdout } = await run(['doctor'], { ...env, PAYMENTS_CLIENT_SECRET: 'not-the-secret' });
    expect(code).toBe(1);
    expect(check(stdout, 'API')).toMatch(/the token was not tried \(no token: the credentials were refused/);
    expect(stdout).not.toContain('no read scope granted');
  });
});

describe('judgeApi', () => {
  const description = { sentAt: 0, receivedAt: 5, status: 200, document: {} };
  const notFound = (code: string) =>
    new APIError({ status: 404, code, message: `${code} here`, requestId: 'req_1', headers: {} });

  it('fails an authenticated read that answers 404, unless that 404 is the one it expects', () => {
    const locations = { what: 'GET /pos/v1/locations', error: notFound('not_found') };
    expect(judgeApi(description, locations, 'http://127.0.0.1:1').verdict).toBe('fail');
    const order = { what: 'GET /pos/v1/orders/{order_id}', expect: 'order_not_found' };
    expect(judgeApi(description, { ...order, error: notFound('order_not_found') }, 'x').verdict).toBe('ok');
    expect(judgeApi(description, { ...order, error: notFound('not_found') }, 'x').verdict).toBe('fail');
  });

  it('passes a description refused with 404 spec_not_available (spec 4.10), and fails any other 404', () => {
    const refused = (code: string) => ({ sentAt: 0, receivedAt: 5, error: notFound(code) });
    const read = { what: 'GET /pos/v1/locations' };
    expect(judgeApi(refused('spec_not_available'), read, 'x').verdict).toBe('ok');
    expect(judgeApi(refused('not_found'), read, 'x').verdict).toBe('fail');
  });
});
