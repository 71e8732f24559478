import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mintToken, read } from './helpers.js';

const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');

function startBin(args: string[]) {
  const child = spawn(tsx, ['src/cli/mock/bin.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Press Ctrl+C')) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`bin exited with ${code} before ready: ${out}`)));
  });
  // A test that expects an early exit never awaits `ready`.
  ready.catch(() => undefined);
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited, output: () => out, errors: () => err };
}

const field = (text: string, label: string) => new RegExp(`${label}(?::\\s+|=)(\\S+)`).exec(text)?.[1] ?? '';

describe('partner-payments-mock bin', () => {
  it('prints URLs, a ready client and the seeded locations, serves them, and stops cleanly on SIGTERM', async () => {
    const bin = startBin(['--port', '0', '--no-auto']);
    const text = await bin.ready;
    // The settings as lines a partner pastes into a .env file, each once, at the start of its line.
    const env = Object.fromEntries(
      [...text.matchAll(/^(PAYMENTS_\w+)=(\S+)$/gm)].map((m) => [m[1], m[2]] as const),
    );
    expect(Object.keys(env)).toEqual([
      'PAYMENTS_BASE_URL',
      'PAYMENTS_AUTH_URL',
      'PAYMENTS_CLIENT_ID',
      'PAYMENTS_CLIENT_SECRET',
      'PAYMENTS_LOCATION_ID',
    ]);
    expect(text.split(env.PAYMENTS_CLIENT_SECRET!)).toHaveLength(2);
    expect(env.PAYMENTS_LOCATION_ID).toBe(field(text, '\\(payments enabled\\)'));
    const baseUrl = field(text, 'PAYMENTS_BASE_URL');
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(field(text, 'PAYMENTS_AUTH_URL')).toBe(baseUrl);
    const location = field(text, '\\(payments enabled\\)');
    const minted = await mintToken(baseUrl, {
      clientId: field(text, 'PAYMENTS_CLIENT_ID'),
      clientSecret: field(text, 'PAYMENTS_CLIENT_SECRET'),
    });
    expect(minted.status).toBe(200);
    const answer = await read(
      await fetch(`${baseUrl}/pos/v1/locations/${location}`, {
        headers: { authorization: `Bearer ${minted.body.access_token}` },
      }),
    );
    expect(answer.body.features).toContain('payments');
    bin.child.kill('SIGTERM');
    expect(await bin.exited).toBe(0);
    expect(bin.output()).toContain('SIGTERM received, shutting down.');
  }, 30_000);

  it('refuses a non-loopback host with exit code 2', async () => {
    const bin = startBin(['--host', '0.0.0.0']);
    expect(await bin.exited).toBe(2);
    expect(bin.errors()).toContain('--host must be a loopback address');
  }, 30_000);
});
