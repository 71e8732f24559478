// `partner-payments verify`: sets up (which scopes are granted, the webhook receiver), runs the
// items in order (auth, descriptions, locations, orders, payments, hosted checkout, launch links,
// registration, webhooks, the rate limit), cleans up what it charged, and prints the summary.
import { randomBytes } from 'node:crypto';
import { type PaymentsClient, SCOPES, VERSION } from '../../../index.js';
import type { VerifyArgs } from '../args.js';
import type { Output } from '../output.js';
import { describeError, type MintResult, makeClient, mintScope, type Target } from '../sdk.js';
import { authItems, describedItems, registrationItem } from './auth.js';
import { burstItem } from './burst.js';
import { locationItems } from './locations.js';
import { hostedCheckoutItems, launchItems, orderItems, unknownOrderItem } from './orders.js';
import { cleanUp, paymentItems, settleItems } from './payments.js';
import { Recorder } from './recorder.js';
import { type Ctx, Suite } from './suite.js';
import { type Expected, Receiver, webhookItems } from './webhooks.js';

/** Verify could not start (no credentials, no token, no receiver): exit code 3, one line. */
export class VerifyAbort extends Error {
  override readonly name = 'VerifyAbort';
}

/** Retries of a probe (a 429 is waited out; a 5xx on a read is tried again, as the SDK does). */
const RETRIES = 4;

/** The scopes verify uses; svc/webhooks:subscribe is not asked for (verify registers nothing). */
const USED = SCOPES.filter((s) => s !== 'svc/webhooks:subscribe');
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

/** Options of a run that are not flags. */
export interface RunOptions {
  /** How often a payment or refund is read while waiting for it. @default 3000 */
  pollIntervalMs?: number;
  /** On SIGINT or SIGTERM, void what the run charged, then exit 130 (the bin; not in-process tests). */
  handleSignals?: boolean;
}

export async function runVerify(args: VerifyArgs, out: Output, options: RunOptions = {}): Promise<number> {
  const started = Date.now();
  const conn = args.connection;
  for (const s of [conn.clientId, conn.clientSecret, conn.baseUrl]) {
    if (!s.value)
      throw new VerifyAbort(
        `${s.env} is not set (or pass ${s.flag}); partner-payments doctor checks the set-up`,
      );
  }
  const recorder = new Recorder(out.scrubber);
  const target: Target = {
    clientId: conn.clientId.value!,
    clientSecret: conn.clientSecret.value!,
    baseUrl: conn.baseUrl.value!,
    authUrl: conn.authUrl.value!,
    timeoutMs: args.timeoutMs,
    fetch: recorder.fetch,
  };
  try {
    makeClient(target);
  } catch (error) {
    throw new VerifyAbort(`${(error as Error).message} (partner-payments doctor explains)`);
  }
  const run = `verify-${new Date().toISOString().slice(0, 19).replace(/\D/g, '')}-${randomBytes(3).toString('hex')}`;
  out.line(`partner-payments verify ${VERSION}: ${target.baseUrl} as client ${target.clientId}, run ${run}`);

  const mints: MintResult[] = [];
  for (const scope of USED) mints.push(await mintScope(target, scope));
  const granted = mints.filter((m): m is Extract<MintResult, { granted: true }> => m.granted);
  if (granted.length === 0) {
    const first = mints[0] as { error: unknown };
    throw new VerifyAbort(
      `no token for any scope: the token endpoint ${describeError(first.error)}; run partner-payments doctor`,
    );
  }
  const scopes = granted.map((m) => m.scope);
  out.line(`granted scopes: ${scopes.join(', ')}`);

  let receiver: Receiver | undefined;
  if (args.webhooks && !args.readOnly) {
    try {
      receiver = await Receiver.start(args.webhooks, args.webhookSecret.value!);
    } catch (error) {
      throw new VerifyAbort((error as Error).message);
    }
  }
  const suite = new Suite(out, recorder);
  const ctx: Ctx = {
    suite,
    args,
    target,
    // Probes wait out a 429 (Retry-After) rather than report it: a low tier allows 5 calls a second.
    main: makeClient(target, { scopes, maxRetries: RETRIES }),
    byScope: new Map<string, PaymentsClient>(
      granted.map((m) => [m.scope, m.client.withOptions({ maxRetries: RETRIES })]),
    ),
    has: (scope) => scopes.includes(scope),
    run,
    location: undefined,
    noLocation: '',
    orders: [],
    payments: [],
    pollIntervalMs: options.pollIntervalMs ?? 3000,
  };
  let cleanup: Awaited<ReturnType<typeof cleanUp>> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    out.error(`partner-payments verify: ${signal}: voiding what this run charged, then stopping`);
    void cleanUp(ctx)
      .then(({ voided, left }) => {
        out.error(`voided ${voided} payment(s)`);
        for (const l of left) out.error(`left as is: ${l}`);
      })
      .finally(() => process.exit(130));
  };
  if (options.handleSignals) for (const s of SIGNALS) process.once(s, onSignal);
  try {
    await authItems(ctx);
    await describedItems(ctx);
    const pick = await locationItems(ctx);
    ctx.location = pick.id;
    if ('why' in pick) ctx.noLocation = pick.why;
    await unknownOrderItem(ctx);
    if (args.readOnly) readOnlyItems(ctx, args);
    else {
      const expected = await writeItems(ctx);
      cleanup = await cleanUp(ctx);
      if (receiver) await webhookItems(ctx, receiver, args.webhookSecret.value!, expected);
    }
    await burstItem(ctx);
  } finally {
    for (const s of SIGNALS) process.off(s, onSignal);
    await receiver?.close();
  }
  return summary(ctx, out, cleanup, Date.now() - started);
}

/** What a read-only run leaves out, said once per area. */
function readOnlyItems(ctx: Ctx, args: VerifyArgs): void {
  const why = '--read-only';
  for (const [section, title] of [
    ['4.1', 'order creation, Idempotency-Key replay and conflict'],
    ['4.3', 'payment creation, reading and voiding (4.3 to 4.5)'],
    ['4.6', 'refunds (4.6, 4.7)'],
    ['4.11', 'hosted checkout'],
    ['4.12', 'launch links'],
    ['4.13', 'webhook endpoint registration'],
  ]) {
    ctx.suite.skip(section!, title!, why);
  }
  if (args.webhooks) ctx.suite.skip('6', 'webhook deliveries', `${why}: no payment, so no event`);
}

/** The items that create orders and payments; returns the events the run should cause. */
async function writeItems(ctx: Ctx): Promise<Expected[]> {
  const { suite } = ctx;
  const expected: Expected[] = [];
  if (!ctx.has('svc/payments:create') || !ctx.has('svc/payments:read')) {
    suite.skip(
      '4.1',
      'orders, payments, refunds, hosted checkout',
      'the client lacks svc/payments:create or svc/payments:read',
    );
  } else if (!ctx.location) {
    suite.skip('4.1', 'orders, payments, refunds, hosted checkout', ctx.noLocation);
  } else {
    const orderId = await orderItems(ctx);
    const voided = orderId ? await paymentItems(ctx, orderId) : undefined;
    if (voided) expected.push({ paymentId: voided, kind: 'payment.voided' });
    const refunded = await settleItems(ctx);
    if (refunded) expected.push({ paymentId: refunded.paymentId, kind: 'payment.refunded' });
    await hostedCheckoutItems(ctx);
  }
  await launchItems(ctx);
  await registrationItem(ctx);
  return expected;
}

function summary(
  ctx: Ctx,
  out: Output,
  cleanup: Awaited<ReturnType<typeof cleanUp>> | undefined,
  ms: number,
): number {
  const items = ctx.suite.items;
  const count = (v: string) => items.filter((i) => i.verdict === v).length;
  const deviations = count('deviation');
  const setup = count('setup');
  out.line();
  if (ctx.orders.length > 0) {
    out.line(
      `created ${ctx.orders.length} order(s) of ${ctx.run}-* and ${ctx.payments.length} payment(s); ${cleanup?.voided ?? 0} voided at the end`,
    );
  }
  for (const left of cleanup?.left ?? []) out.line(`left as is: ${left}`);
  out.line(
    `${items.length} items: ${count('ok')} ok, ${deviations} deviation${deviations === 1 ? '' : 's'}, ${setup ? `${setup} not judged (set-up), ` : ''}${count('skipped')} skipped (${(ms / 1000).toFixed(1)} s)`,
  );
  out.document({
    command: 'verify',
    ok: deviations === 0,
    sdk_version: VERSION,
    base_url: ctx.target.baseUrl,
    client_id: ctx.target.clientId,
    run: ctx.run,
    summary: { items: items.length, ok: count('ok'), deviations, setup, skipped: count('skipped') },
    items,
    created: {
      orders: ctx.orders,
      payments: ctx.payments,
      voided_at_end: cleanup?.voided ?? 0,
      left: cleanup?.left ?? [],
    },
  });
  // A set-up problem is not the service's deviation: exit 3, as when verify cannot start.
  return deviations > 0 ? 1 : setup > 0 ? 3 : 0;
}
