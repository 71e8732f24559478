import { describe, expect, it } from 'vitest';
import { parseMockArgs } from '../../src/cli/mock/args.js';
import { UsageError } from '../../src/cli/shared/args.js';
import { mintToken, read } from '../testing/helpers.js';
import { startBin } from './bin.js';

const field = (text: string, label: string) => new RegExp(`${label}(?::\\s+|=)(\\S+)`).exec(text)?.[1] ?? '';

/** The printed client's token and the printed location of a started bin. */
async function printed(text: string) {
  const baseUrl = field(text, 'PAYMENTS_BASE_URL');
  const minted = await mintToken(baseUrl, {
    clientId: field(text, 'PAYMENTS_CLIENT_ID'),
    clientSecret: field(text, 'PAYMENTS_CLIENT_SECRET'),
  });
  const location = field(text, '\\(payments enabled\\)');
  const get = async (path: string) =>
    read(
      await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${minted.body.access_token}` } }),
    );
  return { baseUrl, location, get, token: minted.body.access_token as string };
}

describe('partner-payments-mock flags', () => {
  it('parses --rate-limit, --max-orders and --no-specs, and refuses bad values (usage errors)', () => {
    expect(parseMockArgs([])).toMatchObject({ rateLimit: 'high', maxOrders: 100_000, specs: true });
    expect(parseMockArgs(['--rate-limit', 'off', '--max-orders', '5000', '--no-specs'])).toMatchObject({
      rateLimit: 'off',
      maxOrders: 5000,
      specs: false,
    });
    for (const argv of [
      ['--rate-limit', 'enterprise'],
      ['--rate-limit', 'none'],
      ['--max-orders', '0'],
      ['--max-orders', '1.5'],
      ['--max-orders', 'many'],
    ]) {
      expect(() => parseMockArgs(argv), argv.join(' ')).toThrow(UsageError);
    }
  });

  it('--rate-limit low throttles the printed client past its burst of 10; the banner points to the fixtures', async () => {
    const bin = startBin(['--port', '0', '--no-auto', '--rate-limit', 'low']);
    try {
      const text = await bin.ready;
      expect(text).toContain('rate limit:    low tier for this client (burst 10, 5/s)');
      const { baseUrl, location, get } = await printed(text);
      expect(text).toContain(`fixtures:      ${baseUrl}/_mock/v1/fixtures`);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => get(`/pos/v1/locations/${location}`)),
      );
      const limited = answers.filter((a) => a.status === 429);
      expect(limited.length).toBeGreaterThanOrEqual(1);
      expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      const fixtures = await read(await fetch(`${baseUrl}/_mock/v1/fixtures`));
      const a = fixtures.body.partners.find((p: { clients: { client_id: string }[] }) =>
        p.clients.some((c) => c.client_id === fixtures.body.named.default_client_id),
      );
      expect(a.clients[0]).toMatchObject({ client_id: 'mock-partner-a-all', tier: 'low', revoked: false });
    } finally {
      bin.child.kill('SIGTERM');
      await bin.exited;
    }
  }, 30_000);

  it('--rate-limit off lifts the limit, --no-specs turns the documents off, --max-orders bounds the orders', async () => {
    const bin = startBin([
      '--port',
      '0',
      '--no-auto',
      '--rate-limit',
      'off',
      '--no-specs',
      '--max-orders',
      '2',
    ]);
    try {
      const text = await bin.ready;
      expect(text).toContain('rate limit:    off for every client');
      const { baseUrl, location, get, token } = await printed(text);
      const answers = await Promise.all(
        Array.from({ length: 300 }, () => get(`/pos/v1/locations/${location}`)),
      );
      expect(answers.filter((a) => a.status !== 200)).toEqual([]);
      const spec = await read(await fetch(`${baseUrl}/pos/v1/.well-known/openapi.json`));
      expect([spec.status, spec.body.error]).toEqual([404, 'spec_not_available']);
      const orders: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await read(
          await fetch(`${baseUrl}/pos/v1/orders`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ location_id: location, total_cents: 100 + i }),
          }),
        );
        orders.push(created.body.order_id);
      }
      const statuses = await Promise.all(
        orders.map(async (id) => (await get(`/pos/v1/orders/${id}`)).status),
      );
      expect(statuses).toEqual([404, 200, 200]);
    } finally {
      bin.child.kill('SIGTERM');
      await bin.exited;
    }
  }, 30_000);
});
