// The application's job queue, as the Next.js route below sees it. Replace `send` with your queue's
// client (BullMQ, SQS, Inngest, a jobs table); the route only needs it to be quick and to throw when
// the event was not accepted.
// typecheck-only: a stand-in for your job queue, used by the Next.js route.
import type { WebhookEvent } from 'partner-payments/webhooks';

/** Where the route hands events over. */
export const jobs = {
  async send(name: string, event: WebhookEvent): Promise<void> {
    console.log(`queued ${name} for ${event.event_kind} ${event.event_id}`);
  },
};
