// One process of a partner's server using `fileStores` (forked by file-stores.test.ts, run with tsx):
// a client on the directory the test names, making the payments and refunds the test sends over IPC.
import { PaymentsClient, type PaymentsClientOptions } from '../../src/index.js';
import { fileStores } from '../../src/stores/index.js';

export type FileCommand =
  /** Reads the order: the process has its access token before its keyed call's deadline starts. */
  | { op: 'warm'; orderId: string }
  | { op: 'pay'; orderId: string; key: string; amountCents: number }
  | { op: 'refund'; orderId: string; paymentId: string; key: string; amountCents: number };

export interface FileReply {
  ok: boolean;
  /** The payment or refund id the call answered with. */
  id?: string;
  error?: string;
}

const options = JSON.parse(process.env.PP_CLIENT_OPTIONS!) as PaymentsClientOptions;
const client = new PaymentsClient({
  ...options,
  intentStore: fileStores(process.env.PP_STORE_DIR!).intentStore,
});

async function run(cmd: FileCommand): Promise<FileReply> {
  if (cmd.op === 'warm') {
    await client.orders.get(cmd.orderId, { deadlineMs: 30_000 });
    return { ok: true };
  }
  if (cmd.op === 'pay') {
    const payment = await client.payments.create(
      cmd.orderId,
      { method: 'card', amount_cents: cmd.amountCents },
      { idempotencyKey: cmd.key },
    );
    return { ok: true, id: payment.payment_id };
  }
  const refund = await client.refunds.create(
    cmd.orderId,
    cmd.paymentId,
    { amount_cents: cmd.amountCents, reason: 'customer_request' },
    { idempotencyKey: cmd.key },
  );
  return { ok: true, id: refund.refund_id };
}

process.on('message', (message: { id: number; cmd: FileCommand }) => {
  run(message.cmd).then(
    (reply) => process.send?.({ id: message.id, reply }),
    (error: unknown) => process.send?.({ id: message.id, reply: { ok: false, error: String(error) } }),
  );
});
process.send?.({ id: 0, reply: { ok: true } });
