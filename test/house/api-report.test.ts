// The API report check of `npm test` (scripts/api-report.mjs, `npm run check:api`) on a small package
// of two entries: a report written once passes the check, and a planted export fails it with the
// entry named, until the report is accepted. (The real package's reports need a build, which
// `npm test` runs before the check.) And the limit on the names the main entry lists, on the
// committed report and on a planted one past it.
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { entries, exportedNames, MAX_NAMES, overLimit, runReports } from '../../scripts/api-report.mjs';

// Each run builds a TypeScript program (the fixture, lib and @types/node): about 2 s on a loaded 2-core
// machine, four runs here.
vi.setConfig({ testTimeout: 60_000 });

const root = resolve(import.meta.dirname, '../..');
// Under the repo's ignored .tmp/, so that the fixture resolves @types/node from node_modules.
mkdirSync(join(root, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(root, '.tmp', 'api-report-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), text);
}

write(
  'package.json',
  JSON.stringify({
    name: 'fixture-sdk',
    version: '1.0.0',
    exports: {
      '.': { import: { types: './dist/index.d.ts', default: './dist/index.js' } },
      './webhooks': { import: { types: './dist/webhooks.d.ts', default: './dist/webhooks.js' } },
      './package.json': './package.json',
    },
  }),
);
write(
  'dist/index.d.ts',
  '/** The client. */\nexport declare class Client {\n  get(id: string): Promise<string>;\n}\n',
);
write('dist/webhooks.d.ts', '/** Verifies. */\nexport declare function verify(body: string): boolean;\n');

describe('the API report check', () => {
  it('names one report per entry of "exports", the root after the package', () => {
    expect(entries(dir).map((entry: { report: string }) => entry.report)).toEqual([
      'fixture-sdk',
      'webhooks',
    ]);
  });

  it('passes on the accepted report, fails on a planted export, and passes once it is accepted', () => {
    expect(runReports({ root: dir, local: true, quiet: true }).ok).toBe(true);
    const accepted = readFileSync(join(dir, 'api/fixture-sdk.api.md'), 'utf8');
    expect(accepted).toContain('export class Client');
    expect(runReports({ root: dir, quiet: true })).toEqual({ changed: [], ok: true });

    appendFileSync(
      join(dir, 'dist/index.d.ts'),
      '/** Internal. */\nexport declare function planted(): void;\n',
    );
    const failed = runReports({ root: dir, quiet: true });
    expect(failed.ok).toBe(false);
    expect(failed.changed.map((entry: { subpath: string }) => entry.subpath)).toEqual(['.']);
    // The check does not touch the committed report; only accepting it does.
    expect(readFileSync(join(dir, 'api/fixture-sdk.api.md'), 'utf8')).toBe(accepted);

    expect(runReports({ root: dir, local: true, quiet: true }).ok).toBe(true);
    expect(readFileSync(join(dir, 'api/fixture-sdk.api.md'), 'utf8')).toContain('export function planted');
  });
});

describe('the limit on the names an entry lists', () => {
  it('counts each exported name once: a class or const and the type of the same name are one', () => {
    const report = [
      'export class APIError extends Error {',
      '}',
      'export const PaymentResultTimeoutError: typeof ResultTimeoutError;',
      'export type PaymentResultTimeoutError = ResultTimeoutError;',
      'export interface APIPromise<T> extends Promise<T> {',
      'export const APIPromise: {',
      '// A type reachable only through an exported one is listed, not exported.',
      'interface Requester {',
      'export function verifyWebhook(rawBody: string): WebhookEvent;',
    ].join('\n');
    expect(exportedNames(report)).toEqual([
      'APIError',
      'APIPromise',
      'PaymentResultTimeoutError',
      'verifyWebhook',
    ]);
  });

  it('holds the main entry to at most 150 names in the committed report', () => {
    expect(MAX_NAMES['partner-payments']).toBe(150);
    const names = exportedNames(readFileSync(join(root, 'api/partner-payments.api.md'), 'utf8'));
    expect(names.length).toBeGreaterThan(100);
    expect(names.length).toBeLessThanOrEqual(150);
    expect(overLimit(root)).toEqual([]);
  });

  it('reports a report past its limit (the positive control), and one at it not', () => {
    const limited = join(dir, 'limited');
    mkdirSync(join(limited, 'api'), { recursive: true });
    const report = (count: number) =>
      Array.from({ length: count }, (_, i) => `export type Name${i} = string;`).join('\n');
    writeFileSync(join(limited, 'api/fixture-sdk.api.md'), report(150));
    expect(overLimit(limited, { 'fixture-sdk': 150 })).toEqual([]);
    writeFileSync(join(limited, 'api/fixture-sdk.api.md'), report(151));
    expect(overLimit(limited, { 'fixture-sdk': 150 })).toEqual([
      { report: 'fixture-sdk', count: 151, max: 150 },
    ]);
  });
});
