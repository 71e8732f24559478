import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { trigger } from '../../src/cli/mock/trigger.js';
import { EVENT_KINDS } from '../../src/schemas/events.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
import { startReceiver } from '../testing/receiver.js';

const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
const children: ReturnType<typeof spawn>[] = [];

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

/**
 * How long a line the bin should print may take: its start from the sources through tsx (a few
 * seconds on a loaded 2-core machine), or a delivery it logs. Past it the test fails with what the
 * bin printed, instead of waiting for the test's own timeout.
 */
const LINE_WITHIN_MS = 30_000;

/**
 * Runs the bin from the sources; `until` resolves once stdout contains the text, and rejects as soon
 * as the bin exits or prints a stack trace, or after `withinMs`, with its output.
 */
function bin(args: string[]) {
  const child = spawn(tsx, ['src/cli/mock/bin.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const until = (text: string | RegExp, withinMs = LINE_WITHIN_MS) =>
    new Promise<string>((resolve, reject) => {
      const printed = () => `\n--- stdout:\n${out}\n--- stderr:\n${err}`;
      const timer = setTimeout(() => fail(`no line matching ${text} within ${withinMs} ms`), withinMs);
      const fail = (why: string) => {
        clearTimeout(timer);
        reject(new Error(`${why}${printed()}`));
      };
      const check = () => {
        if (typeof text === 'string' ? out.includes(text) : text.test(out)) {
          clearTimeout(timer);
          resolve(out);
        } else if (/^\s+at .+:\d+:\d+\)?$/m.test(err)) fail(`the bin printed a stack trace before ${text}`);
      };
      child.stdout.on('data', check);
      child.stderr.on('data', check);
      check();
      void exited.then((code) => fail(`the bin exited with ${code} before printing ${text}`));
    });
  return { exited, until, out: () => out, err: () => err };
}

const field = (text: string, label: string) => new RegExp(`${label}(?::\\s+|=)(\\S+)`).exec(text)?.[1] ?? '';

describe('partner-payments-mock --forward-to and trigger', () => {
  it('forwards a triggered event, signed with the printed secret, and logs each attempt', async () => {
    const receiver = await startReceiver();
    try {
      const mock = bin(['--port', '0', '--no-auto', '--forward-to', receiver.url]);
      const text = await mock.until('Press Ctrl+C');
      expect(field(text, 'forwarding webhooks to')).toBe(receiver.url);
      const secret = field(text, 'PAYMENTS_WEBHOOK_SECRET');
      expect(secret).toMatch(/^whsec_/);
      expect(field(text, 'dashboard')).toBe(`${field(text, 'PAYMENTS_BASE_URL')}/_mock/`);

      const triggered = bin(['trigger', 'payment.approved', '--mock', field(text, 'PAYMENTS_BASE_URL')]);
      expect(await triggered.exited).toBe(0);
      const eventId = triggered.out().trim();
      expect(eventId).toMatch(/^evt_/);
      expect(triggered.err()).toContain('payment.approved emitted for payment');

      await mock.until(`webhook payment.approved ${eventId} attempt 1/6: HTTP 200, delivered`);
      const delivery = receiver.received.find((r) => r.headers['x-service-event-id'] === eventId)!;
      const event = verifyWebhook(delivery.body, delivery.headers['x-service-signature'] as string, secret);
      expect(event).toMatchObject({ event_id: eventId, event_kind: 'payment.approved' });
    } finally {
      await receiver.close();
    }
  }, 90_000);

  it('logs a failed attempt with its next attempt', async () => {
    const receiver = await startReceiver();
    receiver.control.status = 503;
    try {
      const mock = bin(['--port', '0', '--no-auto', '--forward-to', receiver.url]);
      const text = await mock.until('Press Ctrl+C');
      await trigger(field(text, 'PAYMENTS_BASE_URL'), 'payment.cancelled');
      await mock.until(/payment\.cancelled evt_\S+ attempt 1\/6: HTTP 503, next attempt in 1 min/);
    } finally {
      await receiver.close();
    }
  }, 90_000);
});

describe('partner-payments-mock errors', () => {
  it('explains a busy port in one line, without a stack, and exits 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const mock = bin(['--port', String(port), '--no-auto']);
      expect(await mock.exited).toBe(1);
      expect(mock.err()).toBe(
        `partner-payments-mock: port ${port} on 127.0.0.1 is already in use: stop the other process, or pick another port with --port N (--port 0 picks a free one)\n`,
      );
      expect(mock.out()).toBe('');
    } finally {
      blocker.close();
    }
  }, 90_000);

  it('refuses a --forward-to that is not on this machine, and an unknown event kind, with exit 2', async () => {
    const far = bin(['--forward-to', 'http://example.com/hooks']);
    const unknown = bin(['trigger', 'payment.exploded']);
    expect(await far.exited).toBe(2);
    expect(far.err()).toContain('--forward-to must be an http(s) URL on this machine');
    expect(await unknown.exited).toBe(2);
    expect(unknown.err()).toContain(`unknown event kind payment.exploded; one of ${EVENT_KINDS.join(', ')}`);
  }, 90_000);

  it('says when no mock answers at the trigger URL, in one line, exit 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    await new Promise<void>((resolve) => blocker.close(() => resolve()));
    const triggered = bin(['trigger', 'payment.approved', '--mock', `http://127.0.0.1:${port}`]);
    expect(await triggered.exited).toBe(1);
    expect(triggered.err()).toBe(
      `partner-payments-mock: no mock answers at http://127.0.0.1:${port}; start one with: npx partner-payments-mock\n`,
    );
  }, 90_000);
});
