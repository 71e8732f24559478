// Packs the package as npm would publish it, checks what the tarball holds, then installs it in a
// scratch project and loads every entry point from CommonJS and from ESM.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const scratch = mkdtempSync(join(tmpdir(), 'partner-payments-pack-'));
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

try {
  const [packed] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', scratch], root));
  const files = packed.files.map((f) => f.path);
  const allowed =
    /^(dist\/.+\.(js|cjs|d\.ts|d\.cts|js\.map|cjs\.map)|package\.json|README\.md|CHANGELOG\.md|LICENSE)$/;
  const unexpected = files.filter((f) => !allowed.test(f));
  if (unexpected.length)
    throw new Error(`the tarball holds files a consumer does not need:\n  ${unexpected.join('\n  ')}`);
  for (const needed of [
    'dist/index.js',
    'dist/index.cjs',
    'dist/webhooks.js',
    'dist/webhooks.cjs',
    'dist/testing.js',
    'dist/cli/mock.js',
  ]) {
    if (!files.includes(needed)) throw new Error(`the tarball lacks ${needed}`);
  }
  console.log(`pack: ${files.length} files, ${(packed.size / 1024).toFixed(1)} KiB packed`);

  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
  run(
    npm,
    ['install', '--no-audit', '--no-fund', '--prefer-offline', join(scratch, packed.filename), 'msw@2'],
    scratch,
  );

  const cjs = `
    const assert = require('node:assert');
    const main = require('partner-payments');
    assert.equal(typeof main.PaymentsClient, 'function');
    assert.equal(typeof main.verifyWebhook, 'function');
    assert.ok(new main.RequestValidationError('x', []) instanceof main.PaymentsError);
    const testing = require('partner-payments/testing');
    assert.equal(typeof testing.createMockService, 'function');
    console.log('cjs: ok');`;
  const cjsWebhooks = `
    const assert = require('node:assert');
    const hooks = require('partner-payments/webhooks');
    assert.equal(typeof hooks.verifyWebhook, 'function');
    const undici = Object.keys(require.cache).filter((k) => k.includes('/undici/'));
    assert.deepEqual(undici, [], 'the webhooks entry must not load undici');
    console.log('cjs webhooks: ok, no undici loaded');`;
  const esm = `
    import assert from 'node:assert';
    import { PaymentsClient, awaitPaymentResult } from 'partner-payments';
    import { verifyWebhook } from 'partner-payments/webhooks';
    import { createMockService } from 'partner-payments/testing';
    assert.equal(typeof PaymentsClient, 'function');
    assert.equal(typeof awaitPaymentResult, 'function');
    assert.equal(typeof verifyWebhook, 'function');
    assert.equal(typeof createMockService, 'function');
    console.log('esm: ok');`;
  writeFileSync(join(scratch, 'check.cjs'), cjs);
  writeFileSync(join(scratch, 'check-webhooks.cjs'), cjsWebhooks);
  writeFileSync(join(scratch, 'check.mjs'), esm);
  for (const file of ['check.cjs', 'check-webhooks.cjs', 'check.mjs'])
    process.stdout.write(run(process.execPath, [file], scratch));
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
