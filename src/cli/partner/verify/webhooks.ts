// Verify's webhook items (spec 6): a receiver on the --webhooks loopback URL that keeps every
// delivery as it arrived (raw body, headers), and the judgement of the deliveries of verify's own
// payments: delivered at all, signed (6.4, checked with the SDK's verifyWebhook), and enveloped (6.3).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { verifyWebhook, WebhookVerificationError } from '../../../webhooks/index.js';
import { EVENT, shapeProblems } from './contract.js';
import type { Ctx, Json } from './suite.js';

/** One delivery as it reached the receiver. */
export interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
  json: Json;
}

/** Listens on the --webhooks URL and keeps each delivery; answers 200 when it verifies, else 400. */
export class Receiver {
  readonly deliveries: Delivery[] = [];
  #waiters = new Set<() => void>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Starts listening on `url` (a loopback http URL with a port); rejects when the port is taken. */
  static start(url: string, secret: string): Promise<Receiver> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    let receiver: Receiver | undefined;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method !== 'POST' || new URL(req.url ?? '/', url).pathname !== target.pathname) {
          res.writeHead(404).end();
          return;
        }
        const body = Buffer.concat(chunks);
        let json: Json;
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          json = undefined;
        }
        if (receiver) receiver.#add({ headers: req.headers, body, json });
        let ok = false;
        try {
          verifyWebhook(body, req.headers['x-service-signature'], secret);
          ok = true;
        } catch {
          // Judged with the others once the run is over; the service may retry a 400.
        }
        res
          .writeHead(ok ? 200 : 400, { 'content-type': 'text/plain' })
          .end(ok ? 'ok' : 'signature or envelope refused');
      });
    });
    return new Promise((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => {
        const port = target.port;
        reject(
          new Error(
            error.code === 'EADDRINUSE'
              ? `port ${port} is taken, so verify cannot receive webhooks at ${url}: free it, or pick another port (and deliver there)`
              : `cannot listen on ${url}: ${error.message}`,
          ),
        );
      });
      server.listen(Number(target.port), host, () => {
        receiver = new Receiver(server, url);
        resolve(receiver);
      });
    });
  }

  #add(delivery: Delivery): void {
    this.deliveries.push(delivery);
    for (const wake of this.#waiters) wake();
  }

  /** Waits until a delivery passes `test`, or `ms` elapse; resolves with it, or undefined. */
  waitFor(test: (d: Delivery) => boolean, ms: number): Promise<Delivery | undefined> {
    const found = this.deliveries.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => {
      const done = (value: Delivery | undefined) => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        resolve(value);
      };
      const check = () => {
        const hit = this.deliveries.find(test);
        if (hit) done(hit);
      };
      const timer = setTimeout(() => done(undefined), ms);
      this.#waiters.add(check);
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** The event kinds verify's run should cause, per payment. */
export interface Expected {
  paymentId: string;
  kind: string;
}

/** Judges the deliveries of verify's payments: each expected one arrived, all signed and enveloped. */
export async function webhookItems(
  ctx: Ctx,
  receiver: Receiver,
  secret: string,
  expected: Expected[],
): Promise<void> {
  const { suite, args } = ctx;
  const mine = (d: Delivery) => ctx.payments.some((p) => p.paymentId === d.json?.resource?.payment_id);
  const deadline = Date.now() + args.webhookWaitMs;
  const arrived: boolean[] = [];
  for (const e of expected) {
    const got = await receiver.waitFor(
      (d) => d.json?.event_kind === e.kind && d.json?.resource?.payment_id === e.paymentId,
      Math.max(0, deadline - Date.now()),
    );
    arrived.push(Boolean(got));
  }
  const seconds = Math.round(args.webhookWaitMs / 1000);
  // Nothing at all arrived at this URL: no endpoint delivers to it, a mistake of the set-up (the
  // mock forwards to another port, the endpoint is registered elsewhere), not of the service.
  const nothing = receiver.deliveries.length === 0;
  expected.forEach((e, i) => {
    const title = `${e.kind} is delivered to ${receiver.url} for the test payment`;
    if (nothing && !arrived[i])
      suite.setup(
        '6.2',
        title,
        `no delivery at all arrived at ${receiver.url} within ${seconds} s: nothing delivers to this URL. Fix: register it as a webhook endpoint (with the mock: npx partner-payments-mock --forward-to ${receiver.url}), then run verify again`,
      );
    else suite.report('6.2', title, arrived[i] ? [] : [`none arrived within ${seconds} s`]);
  });
  const ours = receiver.deliveries.filter(mine);
  const others = receiver.deliveries.length - ours.length;
  const note = others > 0 ? `; ${others} other deliveries not judged` : '';
  const signed = '6.4';
  const signedTitle =
    'every delivery carries X-Service-Signature hmac-sha256=<lowercase hex> of the raw body with the secret';
  const envelope =
    'every delivery is JSON with the envelope v, event_id, event_kind, occurred_at, partner_id, resource';
  if (ours.length === 0) {
    suite.skip(signed, signedTitle, `no delivery of the test payments arrived${note}`);
    suite.skip('6.3', envelope, 'no delivery of the test payments arrived');
    return;
  }
  const name = (d: Delivery) => `${d.json?.event_kind ?? 'event'} ${d.json?.event_id ?? '(no event_id)'}`;
  // A secret with a line break or spaces around it (a .env line, a file) verifies nothing: a mistake
  // of the set-up, as doctor calls it, not the service's deviation.
  const padded = secret !== secret.trim();
  const signature: string[] = [];
  const shape: string[] = [];
  for (const d of ours) {
    const header = d.headers['x-service-signature'];
    if (typeof header !== 'string') signature.push(`${name(d)}: no X-Service-Signature header`);
    else if (!/^hmac-sha256=[0-9a-f]{64}$/.test(header))
      signature.push(`${name(d)}: the header is not hmac-sha256=<64 lowercase hex>`);
    else {
      try {
        verifyWebhook(d.body, header, secret);
      } catch (error) {
        const reason = error instanceof WebhookVerificationError ? error.reason : String(error);
        if (reason === 'signature_mismatch')
          signature.push(`${name(d)}: the signature does not verify with the secret`);
        else shape.push(`${name(d)}: the SDK's verifier refused it (${reason})`);
      }
    }
    const type = String(d.headers['content-type'] ?? '');
    if (!/json/i.test(type)) shape.push(`${name(d)}: content-type ${type || 'none'}, expected JSON (6.1)`);
    shape.push(...shapeProblems(d.json, EVENT).map((p) => `${name(d)}: ${p}`));
    const reference = d.json?.resource?.external_reference;
    if (typeof reference === 'string' && !reference.startsWith(ctx.run)) {
      shape.push(`${name(d)}: resource.external_reference is not the order's`);
    }
  }
  if (padded && signature.length > 0)
    suite.setup(
      signed,
      signedTitle,
      'the webhook secret (PAYMENTS_WEBHOOK_SECRET or --webhook-secret) has a line break or spaces around it, so no signature verifies with it. Fix: remove them (partner-payments doctor says the same), then run verify again',
    );
  else suite.report(signed, signedTitle, signature, `${ours.length} deliveries${note}`);
  suite.report('6.3', envelope, shape, `${ours.length} deliveries`);
}
