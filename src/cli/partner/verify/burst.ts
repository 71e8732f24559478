// Verify's rate-limit item (spec 7 and 8): reads of one location, 100 in flight at a time, until
// the service answers 429 (at most 1,000 reads or 15 s); the 429 must carry rate_limit_exceeded, the
// error envelope and Retry-After in seconds. Runs last: it spends the client's rate budget for a moment.
import { ERROR, shapeProblems } from './contract.js';
import type { Ctx, Json } from './suite.js';

const IN_FLIGHT = 100;
const MOST = 1000;
const LONGEST_MS = 15_000;

export async function burstItem(ctx: Ctx): Promise<void> {
  const { suite, args } = ctx;
  const title = 'a burst of reads past the rate limit → 429 rate_limit_exceeded with Retry-After (seconds)';
  if (!args.rateLimit) return suite.skip('7, 8', title, '--no-rate-limit');
  // A read-only run is the one for production, where the client's budget serves live traffic.
  if (args.readOnly) return suite.skip('7, 8', title, "--read-only spends none of the client's rate budget");
  // No retries here: the point is to see the 429.
  const locations = ctx.byScope.get('svc/locations:read')?.withOptions({ maxRetries: 0 });
  const orders = ctx.byScope.get('svc/payments:read')?.withOptions({ maxRetries: 0 });
  if (!locations && !orders) return suite.skip('7, 8', title, 'the client has neither read scope');
  const read = locations
    ? () => locations.locations.list({ limit: 1 }).then(() => undefined)
    : () => orders!.orders.get('00000000-0000-4000-8000-000000000000').then(() => undefined);
  const mark = suite.rec.mark();
  const started = Date.now();
  let sent = 0;
  let limitedSeen = false;
  const worker = async () => {
    while (!limitedSeen && sent < MOST && Date.now() - started < LONGEST_MS) {
      sent++;
      await read().catch((error: { status?: number }) => {
        if (error?.status === 429) limitedSeen = true;
      });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const limited = suite.rec.since(mark).find((e) => e.status === 429);
  if (!limited) {
    return suite.skip(
      '7, 8',
      title,
      `no 429 after ${sent} reads in ${((Date.now() - started) / 1000).toFixed(1)} s (a custom tier, or limits off?)`,
    );
  }
  const body = limited.json as Json;
  const problems = shapeProblems(body, ERROR).map((p) => `error envelope (7): ${p}`);
  if (body?.error !== 'rate_limit_exceeded')
    problems.push(`error is ${body?.error ?? 'missing'}, expected rate_limit_exceeded`);
  const retryAfter = limited.headers['retry-after'];
  if (retryAfter === undefined) problems.push('no Retry-After header');
  else if (!/^\d+$/.test(retryAfter.trim()))
    problems.push(`Retry-After is "${retryAfter}", expected whole seconds`);
  const count = suite.rec.since(mark).findIndex((e) => e.status === 429) + 1;
  suite.report('7, 8', title, problems, `first 429 at read ${count}, Retry-After ${retryAfter}`);
}
