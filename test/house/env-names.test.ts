// One name per setting: every PAYMENTS_* variable that README.md, docs/ or examples/ name is one of
// the set the bins read and the docs teach. docs/observability.md once read
// PARTNER_PAYMENTS_WEBHOOK_SECRET where every other page says PAYMENTS_WEBHOOK_SECRET.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const KNOWN = new Set([
  'PAYMENTS_BASE_URL',
  'PAYMENTS_AUTH_URL',
  'PAYMENTS_CLIENT_ID',
  'PAYMENTS_CLIENT_SECRET',
  'PAYMENTS_WEBHOOK_SECRET',
  'PAYMENTS_WEBHOOK_SECRET_PREVIOUS',
  'PAYMENTS_LOCATION_ID',
]);

/** The variable names of the PAYMENTS_ family in `text`, whatever their prefix. */
const names = (text: string) => [...text.matchAll(/\b[A-Z0-9_]*PAYMENTS_[A-Z0-9_]+\b/g)].map((m) => m[0]);

function pages(): string[] {
  const list = (dir: string) =>
    readdirSync(join(root, dir), { recursive: true })
      .map(String)
      .filter((f) => /\.(md|ts)$/.test(f))
      .map((f) => join(dir, f));
  return ['README.md', ...list('docs'), ...list('examples')];
}

describe('environment variable names in the shipped docs', () => {
  it('are each one of the PAYMENTS_* set', () => {
    const unknown = pages().flatMap((page) =>
      names(readFileSync(join(root, page), 'utf8'))
        .filter((name) => !KNOWN.has(name))
        .map((name) => `${page}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('the check catches a planted PARTNER_PAYMENTS_WEBHOOK_SECRET (positive control)', () => {
    const planted = "secret: process.env.PARTNER_PAYMENTS_WEBHOOK_SECRET ?? ''";
    expect(names(planted).filter((name) => !KNOWN.has(name))).toEqual(['PARTNER_PAYMENTS_WEBHOOK_SECRET']);
  });
});
