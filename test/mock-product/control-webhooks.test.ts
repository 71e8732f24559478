import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RETRY_SCHEDULE_MS } from '../../src/testing/index.js';
import { newPayment, useMock } from '../testing/helpers.js';
import { startReceiver } from '../testing/receiver.js';
import { control as call } from './helpers.js';

const h = useMock();
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(() => receiver.close());

const control = (method: string, path: string, body?: unknown) => call(h, method, path, body);

describe('control API: webhook deliveries', () => {
  it('lists deliveries in snake_case with attempts and the next attempt, and replays a dead letter', async () => {
    const { webhook_endpoint_id } = h.mock.webhooks.register({
      partnerId: h.a().partnerId,
      url: receiver.url,
    });
    receiver.control.status = 500;
    const ids = await newPayment(h);
    const approved = await control('POST', `/payments/${ids.paymentId}/approve`);
    const eventId = approved.body.events[0].event_id;
    await h.mock.webhooks.flush();

    const first = await control('GET', '/deliveries');
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual([
      {
        delivery_id: expect.stringMatching(/^dlv_/),
        event_id: eventId,
        event_kind: 'payment.approved',
        webhook_endpoint_id,
        url: receiver.url,
        status: 'pending',
        attempts: [{ at: expect.any(String), status: 500, ok: false, error: null }],
        next_attempt_at: new Date(Date.parse(first.body.data[0].attempts[0].at) + 60_000).toISOString(),
        replay_of: null,
      },
    ]);
    const deliveryId = first.body.data[0].delivery_id;
    const early = await control('POST', `/deliveries/${deliveryId}/replay`);
    expect(early.status).toBe(409);

    for (const delay of RETRY_SCHEDULE_MS.slice(1)) {
      await control('POST', '/clock/advance', { ms: delay });
      await h.mock.webhooks.flush();
    }
    const dead = (await control('GET', '/deliveries')).body.data[0];
    expect(dead).toMatchObject({ status: 'dead_letter', next_attempt_at: null });
    expect(dead.attempts).toHaveLength(6);

    receiver.control.status = 200;
    const replay = await control('POST', `/deliveries/${deliveryId}/replay`);
    expect(replay.status).toBe(201);
    expect(replay.body).toMatchObject({ event_id: eventId, replay_of: deliveryId });
    await h.mock.webhooks.flush();
    const after = (await control('GET', '/deliveries')).body.data;
    expect(after.map((d: { status: string }) => d.status)).toEqual(['replayed', 'delivered']);
    expect(receiver.received.at(-1)?.headers['x-service-event-id']).toBe(eventId);
    expect(JSON.stringify(after)).not.toContain('whsec_');
  });

  it('lists every emitted event, with or without an endpoint', async () => {
    const ids = await newPayment(h);
    await control('POST', `/payments/${ids.paymentId}/cancel`);
    const events = await control('GET', '/events');
    expect(events.body.data).toEqual([
      expect.objectContaining({
        event_kind: 'payment.cancelled',
        partner_id: h.a().partnerId,
        resource: expect.objectContaining({ payment_id: ids.paymentId, status: 'cancelled' }),
      }),
    ]);
  });
});

describe('control API: its OpenAPI document', () => {
  it('describes every route it serves (from the same table) and passes redocly lint', async () => {
    const answer = await control('GET', '/openapi.json');
    expect(answer.status).toBe(200);
    const doc = answer.body;
    expect(doc.openapi).toBe('3.1.0');
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods as object).map((m) => `${m.toUpperCase()} ${path}`),
    );
    for (const needed of [
      'POST /_mock/v1/payments/{payment_id}/approve',
      'POST /_mock/v1/payments/{payment_id}/expire',
      'POST /_mock/v1/refunds/{refund_id}/reject',
      'POST /_mock/v1/clock/advance',
      'POST /_mock/v1/faults',
      'GET /_mock/v1/deliveries',
      'POST /_mock/v1/deliveries/{delivery_id}/replay',
      'POST /_mock/v1/reset',
      'GET /_mock/v1/openapi.json',
      'GET /_mock',
    ]) {
      expect(operations).toContain(needed);
    }
    // Every described operation is routed: another method on its path answers 405 naming it in Allow.
    for (const op of operations) {
      const [method, path] = op.split(' ') as [string, string];
      const url = `${h.server.baseUrl}${path.replace(/\{\w+\}/g, 'x')}`;
      const other = await fetch(url, { method: method === 'GET' ? 'DELETE' : 'PUT' });
      expect(other.status, op).toBe(405);
      expect(other.headers.get('allow')?.split(', '), op).toContain(method);
    }
    expect(
      doc.paths['/_mock/v1/clock/advance'].post.requestBody.content['application/json'].schema,
    ).toMatchObject({
      required: ['ms'],
    });
    expect(Object.keys(doc.paths['/_mock/v1/payments/{payment_id}/settle'].post.responses)).toEqual(
      expect.arrayContaining(['200', '404', '409']),
    );

    const dir = await mkdtemp(join(tmpdir(), 'pp-control-doc-'));
    try {
      const file = join(dir, 'control.json');
      await writeFile(file, answer.text);
      await writeFile(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
      const bin = join(process.cwd(), 'node_modules', '.bin', 'redocly');
      const { stdout } = await promisify(execFile)(
        bin,
        ['lint', '--config', join(dir, 'redocly.yaml'), '--format', 'json', file],
        { env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } },
      );
      const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
