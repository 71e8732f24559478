/**
 * `verify --webhooks` at a URL nothing delivers to (the mock forwards to another port): a mistake of
 * the local set-up, reported as SETUP with its fix, never as a DEVIATION of the service; verify
 * exits 3 for it. Deliveries that do arrive but miss one event stay a deviation (the control).
 * Judged through webhookItems with a stub receiver: no real wait.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Output, Scrubber } from '../../src/cli/partner/output.js';
import { type Ctx, Suite } from '../../src/cli/partner/verify/suite.js';
import { type Receiver, webhookItems } from '../../src/cli/partner/verify/webhooks.js';

const URL_ = 'http://127.0.0.1:4999/webhooks';

async function judge(deliveries: unknown[], secret = 'whsec_0123456789abcdef0123', payments: unknown[] = []) {
  const lines: string[] = [];
  const out = new Output(
    { stdout: (t: string) => lines.push(t), stderr: () => {} } as never,
    false,
    new Scrubber(),
  );
  const suite = new Suite(out, {} as never);
  const receiver = { url: URL_, deliveries, waitFor: async () => undefined } as unknown as Receiver;
  const ctx = { suite, args: { webhookWaitMs: 10_000 }, payments, run: 'verify-x' } as unknown as Ctx;
  await webhookItems(ctx, receiver, secret, [{ paymentId: 'p1', kind: 'payment.approved' }]);
  return { lines: lines.map((l) => l.trimEnd()), verdicts: suite.items.map((i) => i.verdict) };
}

describe('verify --webhooks at a URL nothing delivers to', () => {
  it('reports a set-up problem with the fix, not a deviation', async () => {
    const { lines, verdicts } = await judge([]);
    expect(verdicts).not.toContain('deviation');
    expect(lines[0]).toMatch(
      new RegExp(
        `^SETUP +6\\.2 .*no delivery at all arrived at ${URL_} .*Fix: register it as a webhook endpoint \\(with the mock: npx partner-payments-mock --forward-to ${URL_}\\)`,
      ),
    );
  });

  it('still reports a deviation when deliveries arrive but the expected one does not (control)', async () => {
    const other = {
      body: '{}',
      headers: {},
      json: { event_kind: 'payment.voided', resource: { payment_id: 'other' } },
    };
    const { verdicts } = await judge([other]);
    expect(verdicts[0]).toBe('deviation');
  });
});

describe('verify --webhooks with a webhook secret that has a line break (issue 53, item 6)', () => {
  const SECRET = 'whsec_0123456789abcdef0123';
  const signed = () => {
    const json = {
      v: 1,
      event_id: 'evt_1',
      event_kind: 'payment.approved',
      occurred_at: '2026-11-20T10:00:00.000Z',
      partner_id: '0b7e7a52-3a4c-4c51-8f0e-4d3b2a1c9e8f',
      resource: { payment_id: 'p1', external_reference: 'verify-x-1' },
    };
    const body = JSON.stringify(json);
    const header = `hmac-sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
    return { body, json, headers: { 'x-service-signature': header, 'content-type': 'application/json' } };
  };

  it('reports SETUP 6.4 with the fix, not a deviation of the service', async () => {
    const { lines } = await judge([signed()], `${SECRET}\n`, [{ paymentId: 'p1' }]);
    expect(lines.filter((l) => / 6\.4 /.test(l))).toHaveLength(1);
    const line = lines.find((l) => / 6\.4 /.test(l));
    expect(line).toMatch(/^SETUP +6\.4 .*line break or spaces around it.*Fix: remove them/);
    expect(line).not.toContain(SECRET);
  });

  it('the control: a wrong secret without whitespace stays a deviation of 6.4', async () => {
    const { lines } = await judge([signed()], 'whsec_another_secret_0000', [{ paymentId: 'p1' }]);
    expect(lines.find((l) => / 6\.4 /.test(l))).toMatch(/^DEVIATION +6\.4/);
  });
});
