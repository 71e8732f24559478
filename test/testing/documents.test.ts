import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Parser } from '@asyncapi/parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_KINDS } from '../../src/schemas/events.js';
import { read, useMock } from './helpers.js';

const run = promisify(execFile);
const h = useMock();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pp-docs-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const fetchDoc = async (name: string) => read(await fetch(`${h.server.baseUrl}/pos/v1/.well-known/${name}`));

describe('4.10 well-known documents', () => {
  it('serves OpenAPI 3.1 without auth, and it passes redocly lint (recommended rules)', async () => {
    const answer = await fetchDoc('openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    expect(answer.body.servers).toEqual([{ url: h.server.baseUrl, description: 'This service' }]);
    expect(Object.keys(answer.body.paths)).toContain(
      '/pos/v1/orders/{order_id}/payments/{payment_id}/refunds',
    );
    expect(answer.body.components.schemas.OrderCreateParams.required).toEqual(['location_id', 'total_cents']);
    const file = join(dir, 'openapi.json');
    const config = join(dir, 'redocly.yaml');
    await writeFile(file, answer.text);
    // One rule off: the hosted page's form POST answers 303 See Other (post/redirect/get), not a 2xx.
    await writeFile(config, 'extends:\n  - recommended\nrules:\n  operation-2xx-response: off\n');
    const bin = join(process.cwd(), 'node_modules', '.bin', 'redocly');
    // A lint error makes redocly exit non-zero, which rejects here; the JSON report counts warnings too.
    const { stdout } = await run(bin, ['lint', '--config', config, '--format', 'json', file], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    const report = JSON.parse(stdout.slice(stdout.indexOf('{')));
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it('serves AsyncAPI 2.6 that @asyncapi/parser accepts without errors, one channel per event kind', async () => {
    const answer = await fetchDoc('asyncapi.json');
    expect(answer.status).toBe(200);
    const { document, diagnostics } = await new Parser().parse(answer.text);
    expect(diagnostics.filter((d) => d.severity === 0)).toEqual([]);
    expect(document?.version()).toBe('2.6.0');
    expect(
      document
        ?.channels()
        .all()
        .map((c) => c.address())
        .sort(),
    ).toEqual([...EVENT_KINDS].sort());
  });
});
