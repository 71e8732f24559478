// Packs the package as npm would publish it, checks what the tarball holds, then installs it in a
// scratch project WITHOUT msw (an optional peer nobody has) and loads every entry point from
// CommonJS and from ESM, then starts the bin and drives it over raw HTTP. It also follows every
// relative link of the installed README and docs inside node_modules/partner-payments. The
// partner-payments bin (doctor, verify) is run with npx against the installed mock bin, and the heap
// a kept intent takes is measured from the built package. Last, `partner-payments mcp` is run
// without its optional peer, then with it (scripts/check-mcp.mjs).
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { checkPythonAcceptance } from '../test/mock-product/python-acceptance.mjs';
import { checkCli } from './check-cli.mjs';
import { checkMcp } from './check-mcp.mjs';
import { checkMockProduct } from './check-mock-product.mjs';
import { checkDependencies } from './check-package-deps.mjs';
import { checkBuildOutput } from './check-package-output.mjs';
import { checkTypes } from './check-package-types.mjs';
import { checkRestarts } from './check-restarts.mjs';
import { checkShippedDocs } from './check-shipped-docs.mjs';
import { packAndInstall, root, run } from './pack.mjs';
import { checkDocsFromPackage } from './run-docs.mjs';
import { checkTestingRecipes } from './run-recipes.mjs';

/** A valid payment.approved envelope, signed in the scratch project by the packed signer. */
const EVENT = {
  v: 1,
  event_id: 'evt_pack',
  event_kind: 'payment.approved',
  occurred_at: '2026-05-12T10:15:30Z',
  partner_id: '3f6c2a1e-9b7d-4c58-a2e4-7d1f0c9b8e21',
  resource: {
    payment_id: 'b3a1f2c4-5d6e-4f70-8a9b-0c1d2e3f4a5b',
    order_id: '9e8d7c6b-5a49-4382-b716-0f1e2d3c4b5a',
    status: 'approved',
    amount_cents: 100,
    method: 'card',
  },
};
const { scratch, files, size } = packAndInstall({ prefix: 'partner-payments-pack-' });

try {
  const allowed =
    /^(dist\/.+\.(js|cjs|d\.ts|d\.cts)|docs\/[\w-]+\.md|examples\/[\w/-]+\.ts|package\.json|README\.md|CHANGELOG\.md|LICENSE)$/;
  const unexpected = files.filter((f) => !allowed.test(f));
  if (unexpected.length)
    throw new Error(`the tarball holds files a consumer does not need:\n  ${unexpected.join('\n  ')}`);
  for (const needed of [
    'dist/index.js',
    'dist/index.cjs',
    'dist/webhooks.js',
    'dist/webhooks.cjs',
    'dist/index.web.js',
    'dist/webhooks.web.js',
    'dist/testing.js',
    'dist/stores.js',
    'dist/stores.cjs',
    'dist/cli/mock.js',
    'dist/cli/partner-payments.js',
    'docs/cli.md',
    'docs/getting-started.md',
    'docs/errors.md',
    'examples/charge-and-await.ts',
  ]) {
    if (!files.includes(needed)) throw new Error(`the tarball lacks ${needed}`);
  }
  console.log(`pack: ${files.length} files, ${(size / 1024).toFixed(1)} KiB packed`);

  if (existsSync(join(scratch, 'node_modules', 'msw')))
    throw new Error('msw got installed in the scratch project: the no-msw checks would prove nothing');

  checkLinks(join(scratch, 'node_modules', 'partner-payments'));
  checkShippedDocs(join(scratch, 'node_modules', 'partner-payments'), root);
  await checkDocsFromPackage(scratch);
  await checkRestarts(scratch);
  checkTestingRecipes(scratch);
  checkDependencies(join(scratch, 'node_modules', 'partner-payments'));
  checkBuildOutput(join(scratch, 'node_modules', 'partner-payments'));
  await checkTypes(scratch);

  const cjs = `
    const assert = require('node:assert');
    const main = require('partner-payments');
    // undici loads on the first request, not with the package (cheap import, other runtimes).
    const undici = () => Object.keys(require.cache).filter((k) => k.includes('/undici/'));
    assert.deepEqual(undici(), [], 'importing partner-payments must not load undici');
    assert.equal(typeof main.PaymentsClient, 'function');
    assert.equal(typeof main.verifyWebhook, 'function');
    assert.ok(new main.RequestValidationError('x', []) instanceof main.PaymentsError);
    // Nor zod: requests and responses are checked by the checks compiled from the zod schemas.
    const zod = () => Object.keys(require.cache).filter((k) => k.includes('/node_modules/zod/'));
    assert.deepEqual(zod(), [], 'importing partner-payments must not load zod');
    const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const created = { order_id: '0b7e7a52-3a4c-4c51-8f0e-4d3b2a1c9e8f', status: 'open', total_cents: 100, created_at: '2026-11-22T00:00:00Z' };
    const client = new main.PaymentsClient({ accessToken: 'at', baseUrl: 'https://payments.test', maxRetries: 0, fetch: async () => json(201, created) });
    const order = { location_id: '6f1c1d3e-8c1a-4f7e-9d55-2b1f0d9a7c11', total_cents: 100 };
    (async () => {
      await assert.rejects(client.orders.create({ ...order, total_cents: 1.5 }), (e) => e instanceof main.RequestValidationError && e.issues[0].path[0] === 'total_cents');
      assert.equal((await client.orders.create(order)).order_id, created.order_id);
      assert.deepEqual(zod(), [], 'checking a request and a response must not load zod');
      const testing = require('partner-payments/testing');
      assert.equal(typeof testing.createMockService, 'function');
      assert.notDeepEqual(zod(), []); // the positive control: the mock loads zod, and it is seen
      const mock = testing.createMockService();
      assert.throws(() => mock.handlers, /npm install -D msw/);
      console.log('cjs: ok (the client and its checks load no zod; testing loads without msw; mock.handlers says npm install -D msw)');
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const cjsWebhooks = `
    const assert = require('node:assert');
    const hooks = require('partner-payments/webhooks');
    assert.equal(typeof hooks.verifyWebhook, 'function');
    assert.equal(typeof hooks.createWebhookHandler, 'function');
    const loaded = (name) => Object.keys(require.cache).filter((k) => k.includes('/node_modules/' + name + '/'));
    assert.deepEqual(loaded('undici'), [], 'the webhooks entry must not load undici');
    assert.deepEqual(loaded('zod'), [], 'the webhooks entry must not load zod');
    const { body, signature } = hooks.signWebhookPayload(${JSON.stringify(EVENT)}, 'whsec_pack');
    assert.equal(hooks.verifyWebhook(body, signature, 'whsec_pack').event_id, 'evt_pack');
    assert.deepEqual(loaded('zod'), [], 'verifying must not load zod');
    require('zod'); // the positive control: a loaded zod is seen
    assert.notDeepEqual(loaded('zod'), []);
    console.log('cjs webhooks: ok, neither undici nor zod loaded');`;
  // ESM: a resolve hook refuses zod, undici and node:crypto/node:buffer imports while the entry loads
  // and verifies; node:crypto is then reached only through process.getBuiltinModule, on first use.
  const hooks = `
    const forbidden = /^(zod|undici)(\\/|$)|^(node:)?(crypto|buffer)$/;
    export async function resolve(specifier, context, next) {
      if (forbidden.test(specifier)) throw new Error('the webhooks entry imported ' + specifier);
      return next(specifier, context);
    }`;
  const esmWebhooks = `
    import assert from 'node:assert';
    import { register } from 'node:module';
    register('./forbid-hooks.mjs', import.meta.url);
    const hooks = await import('partner-payments/webhooks');
    const { body, signature } = hooks.signWebhookPayload(${JSON.stringify(EVENT)}, 'whsec_pack');
    assert.equal(hooks.verifyWebhook(body, signature, 'whsec_pack').event_id, 'evt_pack');
    assert.equal((await hooks.verifyWebhookAsync(body, signature, 'whsec_pack')).event_id, 'evt_pack');
    const handler = hooks.createWebhookHandler({ secret: 'whsec_pack', on: { 'payment.approved': () => {} } });
    const request = new Request('http://127.0.0.1/', { method: 'POST', headers: { 'x-service-signature': signature }, body });
    assert.equal((await handler.fetch(request)).status, 200);
    await assert.rejects(import('zod'), /imported zod/); // the positive control: the hook is in force
    console.log('esm webhooks: ok, no zod, undici or node:crypto import');`;
  // The stores entry needs no engine client installed (none is in the scratch project): duck-typed.
  const cjsStores = `
    const assert = require('node:assert');
    const { redisStores, postgresStores, POSTGRES_DDL } = require('partner-payments/stores');
    const sent = [];
    const ioredisLike = { call: async (...args) => (sent.push(args[0]), 'OK') };
    (async () => {
      assert.equal(await redisStores(ioredisLike).tokenStore.lock('k', 'me', 1000), true);
      assert.deepEqual(sent, ['SET']);
      assert.equal(typeof postgresStores({ query() {}, connect() {} }).dedupeStore.processOnce, 'function');
      assert.match(POSTGRES_DDL, /CREATE TABLE IF NOT EXISTS/);
      console.log('cjs stores: ok, no redis/ioredis/pg installed');
    })().catch((e) => { console.error(e); process.exit(1); });`;
  const esm = `
    import assert from 'node:assert';
    import { PaymentsClient, awaitPaymentResult } from 'partner-payments';
    import { verifyWebhook } from 'partner-payments/webhooks';
    import { createMockService } from 'partner-payments/testing';
    import { redisStores, postgresStores } from 'partner-payments/stores';
    assert.equal(typeof redisStores, 'function');
    assert.equal(typeof postgresStores, 'function');
    assert.equal(typeof PaymentsClient, 'function');
    assert.equal(typeof awaitPaymentResult, 'function');
    assert.equal(typeof verifyWebhook, 'function');
    const mock = createMockService();
    assert.throws(() => mock.handlers, /npm install -D msw/);
    const server = await mock.listen();
    const answer = await fetch(server.url + '/pos/v1/.well-known/openapi.json');
    assert.equal(answer.status, 200);
    // Observability without @opentelemetry/api installed: any object shaped like a Tracer will do.
    const { existsSync } = await import('node:fs');
    assert.equal(existsSync('node_modules/@opentelemetry/api'), false, 'the optional peer got installed');
    const spans = [];
    const tracer = {
      startSpan: (name, options) => ({
        name,
        attributes: { ...options.attributes },
        spanContext: () => ({ traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 }),
        setAttribute(key, value) { this.attributes[key] = value; },
        addEvent() {},
        setStatus() {},
        end() { spans.push(this); },
      }),
    };
    const client = new PaymentsClient({ baseUrl: server.url, accessToken: 'unused_token', tracer });
    const ends = [];
    client.on('end', (e) => ends.push(e));
    const { data, status } = await client.withOptions({ maxRetries: 0 }).specs.openapi().withResponse();
    assert.equal(status, 200);
    assert.equal(typeof data.openapi, 'string');
    assert.equal(spans[0].name, 'GET /pos/v1/.well-known/openapi.json');
    assert.equal(spans[0].attributes['http.response.status_code'], 200);
    assert.deepEqual(ends.map((e) => [e.ok, e.attempts]), [[true, 1]]);
    await server.close();
    console.log('esm: ok (mock.listen() serves without msw; withResponse, withOptions, end and a tracer without @opentelemetry/api)');`;
  // The heap a kept intent takes, from the built package (test/intents/footprint.test.ts measures the
  // sources with the same harness): a bundler may drop code the sources need for it. It did: a key
  // check whose result was unused went, and keys were kept unflattened, 996 bytes an intent from
  // dist against 573 after (1,041 when the check does not flatten: the planted control).
  const intents = `
    import assert from 'node:assert';
    import * as sdk from 'partner-payments';
    import { heapPerKeptIntent } from './test/intents/kept-heap.mjs';
    const { perIntent, kept } = await heapPerKeptIntent(sdk);
    assert.equal(kept, 11000);
    // The same bound as the sources' test (the tight figure, under 700, is the bench's): it still
    // fails the unflattened keys it guards against (996 to 1,041 bytes).
    assert.ok(perIntent < 950, 'a kept intent takes ' + Math.round(perIntent) + ' bytes of heap (under 950 expected)');
    console.log('intents: ok, a kept intent takes ' + Math.round(perIntent) + ' bytes of heap from the built package');`;
  writeFileSync(join(scratch, 'check.cjs'), cjs);
  writeFileSync(join(scratch, 'check-webhooks.cjs'), cjsWebhooks);
  writeFileSync(join(scratch, 'check-stores.cjs'), cjsStores);
  writeFileSync(join(scratch, 'check.mjs'), esm);
  writeFileSync(join(scratch, 'forbid-hooks.mjs'), hooks);
  writeFileSync(join(scratch, 'check-webhooks.mjs'), esmWebhooks);
  writeFileSync(join(scratch, 'check-intents.mjs'), intents);
  // The harness and its collector, where the harness imports it from.
  for (const file of ['test/intents/kept-heap.mjs', 'test/helpers/gc.mjs']) {
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    copyFileSync(join(root, file), join(scratch, file));
  }
  for (const file of [
    'check.cjs',
    'check-webhooks.cjs',
    'check-stores.cjs',
    'check.mjs',
    'check-webhooks.mjs',
    'check-intents.mjs',
  ])
    process.stdout.write(run(process.execPath, [file], scratch));
  await checkBin(join(scratch, 'node_modules', '.bin', 'partner-payments-mock'));
  await checkMockProduct(scratch);
  await checkCli(scratch);
  await checkPythonAcceptance(scratch);
  // Last: it installs the optional peer @modelcontextprotocol/sdk in the scratch project.
  await checkMcp(scratch);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

/** Starts the installed bin (no msw around), mints a token and creates an order over raw HTTP. */
async function checkBin(bin) {
  const child = spawn(bin, ['--port', '0', '--no-auto'], { stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const text = await new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        if (out.includes('Press Ctrl+C')) resolve(out);
      });
      child.stderr.on('data', (chunk) => {
        err += chunk;
      });
      child.once('exit', (code) => reject(new Error(`the bin exited with ${code}:\n${out}${err}`)));
    });
    const field = (label) => new RegExp(`${label}(?::\\s+|=)(\\S+)`).exec(text)?.[1] ?? '';
    const base = field('PAYMENTS_BASE_URL');
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: field('PAYMENTS_CLIENT_ID'),
      client_secret: field('PAYMENTS_CLIENT_SECRET'),
    });
    const minted = await fetch(`${field('PAYMENTS_AUTH_URL')}/oauth2/token`, { method: 'POST', body: form });
    if (minted.status !== 200) throw new Error(`bin: minting a token answered ${minted.status}`);
    const { access_token } = await minted.json();
    const order = await fetch(`${base}/pos/v1/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ location_id: field('location \\(payments enabled\\)'), total_cents: 1250 }),
    });
    const created = await order.json();
    if (order.status !== 201 || created.status !== 'open')
      throw new Error(`bin: creating an order answered ${order.status} ${JSON.stringify(created)}`);
    console.log(`bin: ok without msw (token minted, order ${created.order_id} created over raw HTTP)`);
  } finally {
    child.kill('SIGTERM');
  }
}

/**
 * Every relative link of the installed README.md and docs/*.md must name a file (or folder) inside
 * the installed package: that is what a reader of node_modules/partner-payments/README.md follows.
 */
function checkLinks(pkg) {
  const pages = ['README.md', ...readdirSync(join(pkg, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
    f.endsWith('.md'),
  );
  const broken = [];
  let count = 0;
  for (const page of pages) {
    const text = readFileSync(join(pkg, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^([a-z][a-z+.-]*:|#)/i.test(target)) continue; // https:, mailto:, an anchor on the page
      const file = resolve(dirname(join(pkg, page)), decodeURIComponent(target.split('#')[0]));
      count++;
      const inside = !relative(pkg, file).startsWith('..');
      if (!inside || !existsSync(file) || (target.endsWith('/') && !statSync(file).isDirectory()))
        broken.push(`${page}: ${target}`);
    }
  }
  if (broken.length)
    throw new Error(`links that do not resolve in the installed package:\n  ${broken.join('\n  ')}`);
  if (count === 0) throw new Error('no relative link found: the link check would prove nothing');
  console.log(`links: ${count} relative links of README.md and docs/ resolve inside the installed package`);
}
