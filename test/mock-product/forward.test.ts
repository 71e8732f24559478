// The bin's --forward-to log (src/cli/mock/forward.ts) for a receiver that is not listening: the
// line names the URL and the refused connection (ECONNREFUSED), so the set-up mistake shows, where it
// said "no answer (Error)".
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { forwardWebhooks } from '../../src/cli/mock/forward.js';
import { newPayment, useMock } from '../testing/helpers.js';

const h = useMock();

/** A loopback port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('partner-payments-mock --forward-to, a receiver that is not listening', () => {
  it('logs the URL and ECONNREFUSED (connection refused), not "no answer (Error)"', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/webhooks`;
    const lines: string[] = [];
    const forwarding = forwardWebhooks(h.mock, h.a().partnerId, url, (line) => lines.push(line));
    const { paymentId } = await newPayment(h);
    h.mock.processor.approve(paymentId);
    await h.mock.webhooks.flush();
    forwarding.stop();
    expect(lines[0]).toMatch(
      new RegExp(
        `attempt 1/6: no answer from ${url} \\(ECONNREFUSED: connection refused, is your receiver listening`,
      ),
    );
    expect(h.mock.webhooks.deliveries()[0]!.attempts[0]!.error).toBe('ECONNREFUSED');
  });
});
