// The ecosystem suite: packs the package, installs the tarball in a scratch project, starts the
// mock on 127.0.0.1 in this (Node 20) process and runs scenario.mjs under every runtime of
// runtimes.mjs. Needs a build first (npm test builds).
//
//   node scripts/ecosystem/run.mjs            every runtime
//   node scripts/ecosystem/run.mjs bun deno   the runtimes whose name contains one of the words
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packAndInstall } from '../pack.mjs';
import { CASES } from './runtimes.mjs';

const filters = process.argv.slice(2).map((f) => f.toLowerCase());
const cases = filters.length
  ? CASES.filter((c) => filters.some((f) => c.name.toLowerCase().includes(f)))
  : CASES;
const started = performance.now();
const { scratch } = packAndInstall({ prefix: 'partner-payments-eco-' });
for (const file of ['scenario.mjs', 'promises.mjs', 'cli.mjs', 'worker.mjs', 'edge.mjs']) {
  copyFileSync(join(import.meta.dirname, file), join(scratch, file));
}
// The mock and the signing helper come from the installed tarball too.
const require = createRequire(join(scratch, 'index.js'));
const { createMockService } = require('partner-payments/testing');
const { signWebhookPayload } = require('partner-payments/webhooks');
const mock = createMockService({
  clock: { realTime: true },
  autoProcess: { approveAfterMs: 30, settleAfterMs: 30, refundAfterMs: 30 },
});
const server = await mock.listen({ host: '127.0.0.1', port: 0 });
const partner = mock.fixtures.partners[0];
const secret = 'whsec_ecosystem_suite';
const signed = signWebhookPayload(
  {
    v: 1,
    event_id: crypto.randomUUID(),
    event_kind: 'payment.approved',
    occurred_at: new Date().toISOString(),
    partner_id: partner.partnerId,
    resource: {
      payment_id: crypto.randomUUID(),
      order_id: crypto.randomUUID(),
      status: 'approved',
      amount_cents: 1250,
      method: 'card',
    },
  },
  secret,
);
const input = {
  ...mock.credentials,
  baseUrl: server.baseUrl,
  authUrl: server.authUrl,
  locationId: partner.locations.payments,
  webhook: { body: signed.body, header: signed.signature, secret },
};

const results = [];
for (const c of cases) {
  const t0 = performance.now();
  let version = '?';
  let result;
  try {
    version = c.version();
    result = await c.scenario(scratch, input);
  } catch (error) {
    result = { ok: false, steps: [], error: String(error?.stderr || error?.stack || error) };
  }
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  results.push({ name: c.name, ok: result.ok, webhookReason: result.webhookReason });
  console.log(
    `${result.ok ? 'ok' : 'FAIL'} ${c.name} (${version}) in ${seconds} s: ${result.steps.join('; ')}`,
  );
  if (!result.ok) {
    // The first lines of the error, each cut short (a bundler's error can quote a whole minified file).
    const lines = result.error.split('\n').filter((l) => l.trim() && !/^\s*at /.test(l));
    console.log(
      `     ${lines
        .slice(0, 8)
        .map((l) => l.slice(0, 200))
        .join('\n     ')}`,
    );
  }
}
await server.close();
mock.close?.();
rmSync(scratch, { recursive: true, force: true });

// verifyWebhookAsync refuses a tampered body with the same reason on every runtime.
const reasons = [...new Set(results.map((r) => r.webhookReason).filter(Boolean))];
if (reasons.length > 1) {
  console.log(`FAIL the runtimes refused the tampered webhook with different reasons: ${reasons.join(', ')}`);
  process.exitCode = 1;
}
const failed = results.filter((r) => !r.ok).length;
console.log(`\necosystem: ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`ecosystem: ${results.length - failed} passed, ${failed} failed`);
if (failed) process.exitCode = 1;
