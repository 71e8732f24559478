/**
 * `partner-payments doctor` against the mock on loopback: a good set-up passes (exit 0), and each
 * planted mistake (wrong secret, a scope not granted, an http URL off this machine, a skewed clock
 * through the mock clock, and more) is named with its fix and exits 1. No secret is ever printed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { leaked } from '../helpers/leaks.js';
import { check, freePort, run, type Served, serveMock } from './helpers.js';

// Several doctor runs per test, each a few token requests, on a machine that may be busy.
vi.setConfig({ testTimeout: 60_000 });

const servers: Served[] = [];
async function mock(options?: Parameters<typeof serveMock>[0]): Promise<Served> {
  const served = await serveMock(options);
  servers.push(served);
  return served;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('partner-payments doctor', () => {
  it('passes a good set-up: every check ok, exit 0', async () => {
    const { env } = await mock();
    const { code, stdout } = await run(['doctor'], {
      ...env,
      PAYMENTS_WEBHOOK_SECRET: 'whsec_0123456789abcdef0123',
    });
    expect(code).toBe(0);
    for (const title of [
      'URLs',
      'token endpoint',
      'credentials',
      'scopes',
      'API',
      'version',
      'clock',
      'webhook secret',
    ]) {
      expect(check(stdout, title)).toMatch(/^ok /);
    }
    expect(stdout).toContain('All checks passed.');
  });

  it('names a wrong client secret under credentials, with the fix, and exits 1', async () => {
    const { env } = await mock();
    const { code, stdout } = await run(['doctor'], {
      ...env,
      PAYMENTS_CLIENT_SECRET: 'a-secret-from-the-other-environment',
    });
    expect(code).toBe(1);
    expect(check(stdout, 'token endpoint')).toMatch(/^ok .*401 invalid_client/);
    expect(check(stdout, 'credentials')).toMatch(
      /^FAIL .*refused client mock-partner-a-all .*401 invalid_client/,
    );
    expect(stdout).toMatch(/fix: check PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET/);
    expect(check(stdout, 'scopes')).toMatch(/^skip /);
  });

  it('names a client secret with a trailing line break, and says to remove it (issue 53, item 6)', async () => {
    const { env } = await mock();
    const { code, stdout } = await run(['doctor'], {
      ...env,
      PAYMENTS_CLIENT_SECRET: `${env.PAYMENTS_CLIENT_SECRET}\n`,
    });
    expect(code).toBe(1);
    expect(check(stdout, 'credentials')).toMatch(
      /^FAIL .*401 invalid_client\): PAYMENTS_CLIENT_SECRET has a line break or spaces at an end/,
    );
    expect(stdout).toMatch(/fix: remove them/);
    expect(stdout).not.toMatch(/fix: check PAYMENTS_CLIENT_ID and PAYMENTS_CLIENT_SECRET/);
    expect(leaked(stdout, [env.PAYMENTS_CLIENT_SECRET!])).toEqual([]);
  });

  it('names a scope the client is meant to have but was not granted', async () => {
    const served = await mock();
    const charge = served.mock.fixtures.partners[0]!.clients.find(
      (c) => !c.scopes.includes('svc/payments:refund'),
    )!;
    const env = {
      ...served.env,
      PAYMENTS_CLIENT_ID: charge.clientId,
      PAYMENTS_CLIENT_SECRET: charge.clientSecret,
    };
    const expected = '--scopes=payments:create,payments:read,payments:refund,locations:read';
    const { code, stdout } = await run(['doctor', expected], env);
    expect(code).toBe(1);
    expect(check(stdout, 'scopes')).toMatch(
      /^FAIL .*expected but not granted: svc\/payments:refund \(granted: svc\/payments:create, svc\/payments:read, svc\/locations:read\)/,
    );
    expect(stdout).toContain(`fix: grant svc/payments:refund to API client ${charge.clientId}`);
    // The SDK's default scopes are what it needs for charging: with them, the same client passes.
    expect((await run(['doctor'], env)).code).toBe(0);
  });

  it('refuses an http:// URL off this machine, checks nothing remote, and sends nothing', async () => {
    const served = await mock();
    const { code, stdout } = await run(['doctor'], {
      ...served.env,
      PAYMENTS_BASE_URL: 'http://payments.example.com',
    });
    expect(code).toBe(1);
    expect(check(stdout, 'URLs')).toMatch(/^FAIL .*PAYMENTS_BASE_URL is http:\/\/ on payments.example.com/);
    expect(stdout).toContain('fix: use https://payments.example.com');
    expect(check(stdout, 'token endpoint')).toMatch(/^skip .*fix the URLs first/);
    expect(served.log).toEqual([]);
  });

  it('finds a skewed clock through the mock clock (its Date header) and exits 1', async () => {
    const served = await mock({ clockDate: true });
    expect((await run(['doctor'], served.env)).code).toBe(0);
    // The mock clock stood still while the first run took real time: a little under 10 min then.
    served.mock.clock.advance(10 * 60_000);
    const { code, stdout } = await run(['doctor'], served.env);
    expect(code).toBe(1);
    expect(check(stdout, 'clock')).toMatch(
      /^FAIL .*this machine's clock is (9 min \d+ s|10 min( \d+ s)?) behind the service's/,
    );
    expect(stdout).toMatch(/fix: sync this machine's clock/);
  });

  it('names an auth URL that ends with /oauth2/token', async () => {
    const { env } = await mock();
    const { code, stdout } = await run(
      ['doctor', '--auth-url', `${env.PAYMENTS_AUTH_URL}/oauth2/token`],
      env,
    );
    expect(code).toBe(1);
    expect(check(stdout, 'URLs')).toMatch(/^FAIL .*--auth-url ends with \/oauth2\/token/);
    expect(stdout).toContain(`fix: set --auth-url to ${env.PAYMENTS_AUTH_URL}`);
  });

  it('names a token endpoint where nothing listens', async () => {
    const { env } = await mock();
    const port = await freePort();
    const { code, stdout } = await run(['doctor'], { ...env, PAYMENTS_AUTH_URL: `http://127.0.0.1:${port}` });
    expect(code).toBe(1);
    expect(check(stdout, 'token endpoint')).toMatch(
      /^FAIL .*could not be reached: nothing listens on that port/,
    );
    expect(stdout).toMatch(/fix: check the port in PAYMENTS_AUTH_URL/);
  });

  it('names base and auth URLs of two environments: the API refuses the tokens', async () => {
    const development = await mock();
    const production = await mock();
    const env = { ...development.env, PAYMENTS_BASE_URL: production.url };
    // Two mocks sign with different keys, as two environments of the service would.
    const { code, stdout } = await run(['doctor'], env);
    expect(code).toBe(1);
    expect(check(stdout, 'API')).toMatch(/^FAIL .*refuses the tokens of the auth URL \(401 invalid_token/);
    expect(stdout).toContain('fix: take PAYMENTS_BASE_URL and PAYMENTS_AUTH_URL from the same environment');
  });

  it('names a client id that is not set, and still tries the token endpoint', async () => {
    const { env } = await mock();
    const { code, stdout } = await run(['doctor'], { ...env, PAYMENTS_CLIENT_ID: '' });
    expect(code).toBe(1);
    expect(check(stdout, 'token endpoint')).toMatch(/^ok .*answers \(401 invalid_client\)/);
    expect(check(stdout, 'credentials')).toMatch(/^FAIL +credentials +PAYMENTS_CLIENT_ID is not set/);
  });

  it('warns, and passes, when the service does not publish its description (404 spec_not_available)', async () => {
    const { env } = await mock({ specs: false });
    const { code, stdout } = await run(['doctor'], env);
    expect(code).toBe(0);
    expect(check(stdout, 'API')).toMatch(/^ok .*answers \(404, /);
    expect(check(stdout, 'version')).toMatch(/^warn .*does not publish its description/);
    expect(check(stdout, 'clock')).toMatch(/^ok /);
  });

  it('names a revoked client', async () => {
    const served = await mock();
    served.mock.revokeClient(served.mock.credentials.clientId);
    const { code, stdout } = await run(['doctor'], served.env);
    expect(code).toBe(1);
    expect(check(stdout, 'credentials')).toMatch(/^FAIL .*is revoked \(401 client_revoked\)/);
  });

  it('mints one token per scope and sends nothing else while doing so', async () => {
    const served = await mock();
    await run(['doctor'], served.env);
    const count = (what: string) => served.log.filter((l) => l === what).length;
    expect(count('POST /oauth2/token')).toBe(6); // one per scope of spec 5.5
    expect(count('GET /pos/v1/locations')).toBe(1); // the API check's read with a token, no more
    expect(count('GET /pos/v1/.well-known/openapi.json')).toBe(1);
    expect(served.log).toHaveLength(8);
  });

  it('--json prints one document with every check, and never a secret', async () => {
    const served = await mock();
    const webhookSecret = 'whsec_do-not-print-me-0123456789';
    const env = { ...served.env, PAYMENTS_WEBHOOK_SECRET: webhookSecret };
    const json = await run(['doctor', '--json'], env);
    const doc = JSON.parse(json.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.client_id).toBe(served.mock.credentials.clientId);
    expect(doc.checks.map((c: { id: string }) => c.id)).toEqual([
      'urls',
      'token-endpoint',
      'credentials',
      'scopes',
      'api',
      'version',
      'clock',
      'webhook-secret',
    ]);
    const wrong = await run(['doctor', '--client-secret', 'wrong-secret-do-not-print'], env);
    const secrets = [served.mock.credentials.clientSecret, webhookSecret, 'wrong-secret-do-not-print'];
    // What a run printed that it must not: a secret, or an access token (a JWT at the mock).
    const printed = (out: { stdout: string; stderr: string }) => {
      const all = out.stdout + out.stderr;
      return [...leaked(all, secrets), ...(/eyJ[\w-]+\.[\w-]+\./.test(all) ? ['a token'] : [])];
    };
    for (const out of [json, wrong, await run(['doctor'], env)]) {
      expect(printed(out)).toEqual([]);
      expect(out.stdout + out.stderr).toContain(served.mock.credentials.clientId); // the client id may be printed
    }
    // The control: the same check on that output with each secret, or a token, planted in it.
    const jwt = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
    for (const plant of [...secrets, jwt])
      expect(printed({ stdout: json.stdout, stderr: `debug: ${plant}\n` }), plant).toEqual([
        plant === jwt ? 'a token' : plant,
      ]);
  });

  it('checks the webhook secret only for its form', async () => {
    const served = await mock();
    const form = async (secret: string) =>
      check((await run(['doctor', '--webhook-secret', secret], served.env)).stdout, 'webhook secret');
    expect(await form('"whsec_0123456789abcdef"')).toMatch(/^FAIL .*wrapped in quotes/);
    expect(await form(served.mock.credentials.clientSecret)).toMatch(/^FAIL .*the API client's secret/);
    expect(await form('hmac-sha256=00ff')).toMatch(/^FAIL .*a signature/);
    expect(await form('whsec_0123456789abcdef')).toMatch(/^ok .*22 characters/);
  });
});
