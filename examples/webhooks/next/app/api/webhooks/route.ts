// app/api/webhooks/route.ts in a Next.js App Router project: the whole webhook route.
// Register https://<your-domain>/api/webhooks as the endpoint; set PAYMENTS_WEBHOOK_SECRET (and, during
// a rotation, PAYMENTS_WEBHOOK_SECRET_PREVIOUS) in the project's environment.
// typecheck-only: needs Next.js; the repository's receiver tests run it (https://github.com/partner-payments/partner-payments-node/tree/main/test/webhooks).
import { createWebhookHandler } from 'partner-payments/webhooks';
import { jobs } from '../../../lib/jobs.js';

const webhooks = createWebhookHandler({
  // Read on each delivery, so a rotated secret is picked up without a redeploy of this module.
  secret: () => [process.env.PAYMENTS_WEBHOOK_SECRET, process.env.PAYMENTS_WEBHOOK_SECRET_PREVIOUS],
  on: {
    'payment.approved': (event) => jobs.send('fulfil-order', event),
    'payment.refunded': (event) => jobs.send('record-refund', event),
    'payment.reversal_failed': (event) => jobs.send('alert-finance', event),
  },
  onUnknown: (event) => jobs.send('review-event', event),
  onError: (err, { status }) => {
    if (status >= 500) console.error(`payments webhook answered ${status}`, err);
  },
});

/** 'nodejs' verifies with node:crypto; 'edge' works too, on Web Crypto. */
export const runtime = 'nodejs';

/** Route handler: Next.js passes the Web `Request`; its body is read raw by the handler (do not call request.json()). */
export function POST(request: Request): Promise<Response> {
  return webhooks.fetch(request);
}
