// The mock as a product, from the packed tarball (called by check-package.mjs with the scratch
// project, which has no msw): the bin starts with --forward-to, a payment is driven to settled and
// refunded over raw HTTP only (API + control API), the forwarded events verify with the printed
// secret, `trigger` produces an event, and a busy port is one line and exit code 1.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';

function startReceiver() {
  const received = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${server.address().port}/hooks`, received, server }),
    ),
  );
}

function startBin(bin, args) {
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const state = { out: '', err: '' };
  child.stdout.on('data', (c) => {
    state.out += c;
  });
  child.stderr.on('data', (c) => {
    state.err += c;
  });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const until = (text, what) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${what}: timed out\n${state.out}${state.err}`)),
        30_000,
      );
      const check = () => {
        if (state.out.includes(text)) {
          clearTimeout(timer);
          resolve(state.out);
        }
      };
      child.stdout.on('data', check);
      check();
      exited.then((code) =>
        reject(new Error(`${what}: the bin exited with ${code}\n${state.out}${state.err}`)),
      );
    });
  return { child, state, exited, until };
}

async function call(base, method, path, { token, body, form } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body: form ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const data = await response.json();
  return { status: response.status, data };
}

function expect(condition, message) {
  if (!condition) throw new Error(`mock product: ${message}`);
}

/** Runs the checks against the bin installed in `scratch`. */
export async function checkMockProduct(scratch) {
  const bin = join(scratch, 'node_modules', '.bin', 'partner-payments-mock');
  const { verifyWebhook } = createRequire(join(scratch, 'package.json'))('partner-payments/webhooks');
  const receiver = await startReceiver();
  const mock = startBin(bin, ['--port', '0', '--no-auto', '--forward-to', receiver.url]);
  try {
    const text = await mock.until('Press Ctrl+C', 'start');
    const field = (label) => new RegExp(`${label}(?::\\s+|=)(\\S+)`).exec(text)?.[1] ?? '';
    const base = field('PAYMENTS_BASE_URL');
    const secret = field('PAYMENTS_WEBHOOK_SECRET');
    expect(secret.startsWith('whsec_'), `no signing secret printed:\n${text}`);

    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: field('PAYMENTS_CLIENT_ID'),
      client_secret: field('PAYMENTS_CLIENT_SECRET'),
    });
    const token = (await call(base, 'POST', '/oauth2/token', { form })).data.access_token;
    const location = field('location \\(payments enabled\\)');
    const order = await call(base, 'POST', '/pos/v1/orders', {
      token,
      body: { location_id: location, total_cents: 3000 },
    });
    const orderPath = `/pos/v1/orders/${order.data.order_id}`;
    const payment = await call(base, 'POST', `${orderPath}/payments`, {
      token,
      body: { method: 'card', amount_cents: 3000 },
    });
    const paymentPath = `${orderPath}/payments/${payment.data.payment_id}`;
    const early = await call(base, 'POST', `/_mock/v1/payments/${payment.data.payment_id}/settle`);
    expect(early.status === 409, `settling a pending payment answered ${early.status}`);
    for (const action of ['approve', 'settle']) {
      const done = await call(base, 'POST', `/_mock/v1/payments/${payment.data.payment_id}/${action}`);
      expect(done.status === 200, `${action} answered ${done.status} ${JSON.stringify(done.data)}`);
    }
    expect(
      (await call(base, 'GET', paymentPath, { token })).data.status === 'settled',
      'payment not settled',
    );
    const refund = await call(base, 'POST', `${paymentPath}/refunds`, {
      token,
      body: { amount_cents: 3000 },
    });
    const confirmed = await call(base, 'POST', `/_mock/v1/refunds/${refund.data.refund_id}/confirm`);
    expect(confirmed.status === 200, `confirm answered ${confirmed.status}`);
    const refunded = (await call(base, 'GET', paymentPath, { token })).data.status;
    expect(refunded === 'refunded', `the payment is ${refunded}, not refunded`);
    console.log('mock product: payment driven to settled and refunded over raw HTTP (API + control API)');

    const trigger = startBin(bin, ['trigger', 'payment.cancelled', '--mock', base]);
    const code = await trigger.exited;
    const eventId = trigger.state.out.trim();
    expect(
      code === 0 && eventId.startsWith('evt_'),
      `trigger exited ${code}: ${trigger.state.out}${trigger.state.err}`,
    );
    await mock.until(
      `webhook payment.cancelled ${eventId} attempt 1/6: HTTP 204, delivered`,
      'forwarded trigger',
    );
    const kinds = [];
    for (const { body, headers } of receiver.received) {
      kinds.push(verifyWebhook(body, headers['x-service-signature'], secret).event_kind);
    }
    for (const kind of ['payment.approved', 'payment.refunded', 'payment.cancelled'])
      expect(kinds.includes(kind), `no verified ${kind} delivery, got ${kinds.join(', ')}`);
    console.log(
      `mock product: --forward-to delivered ${kinds.length} events verified with the printed secret; trigger printed ${eventId}`,
    );

    const busy = startBin(bin, ['--port', new URL(base).port, '--no-auto']);
    const busyCode = await busy.exited;
    const lines = busy.state.err.trim().split('\n');
    expect(
      busyCode === 1 && lines.length === 1 && lines[0].includes('already in use'),
      `busy port: ${busy.state.err}`,
    );
    console.log('mock product: a busy port is one line and exit code 1');
  } finally {
    mock.child.kill('SIGTERM');
    await mock.exited;
    receiver.server.close();
  }
}
