// The OpenAPI document as a product: a client generated from what the mock serves at
// /pos/v1/.well-known/openapi.json (openapi-typescript, as a partner in another team would) compiles
// under `tsc --strict` with skipLibCheck off, runs a partner's flow against the mock with
// openapi-fetch, and every answer of that flow fits the document strictly: each field declared with
// its type and format, each required field present, no field the document does not declare.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/testing/engine/exchanges.js';
import { loopbackMock } from '../helpers/loopback-mock.js';
import { createValidator } from './validate.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const out = join(root, '.tmp', 'openapi-client');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const PLANT = /total_cents: 1250,.*$/m;

// What a partner's project would set: strict, no unchecked index access, and the packages'
// declarations checked too (skipLibCheck off: the generated schema, openapi-fetch and its helpers),
// with the DOM's fetch types and no Node types. TypeScript's own lib files are not re-checked
// (skipDefaultLibCheck): that took 5 of the 8 s of each compile and says nothing about the document.
const tsconfig = (file: string) => ({
  compilerOptions: {
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    skipDefaultLibCheck: true,
    noEmit: true,
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    types: [],
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
  },
  files: ['schema.d.ts', file],
});

async function typecheck(project: string): Promise<{ ok: boolean; output: string }> {
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', join(out, project)], { cwd: out });
    return { ok: true, output: '' };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** Records every exchange of the flow at the client's fetch; `plant` may change one answer's body. */
function recordingFetch(exchanges: Exchange[], plant?: (url: URL, body: unknown) => unknown) {
  return async (request: Request): Promise<Response> => {
    const requestBody = await request.clone().text();
    let response = await fetch(request);
    if (plant && response.headers.get('content-type')?.includes('application/json')) {
      const body = plant(new URL(request.url), await response.clone().json());
      if (body !== undefined) {
        response = new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
      }
    }
    exchanges.push({ method: request.method, url: request.url, requestBody, response: response.clone() });
    return response;
  };
}

const loop = loopbackMock({}, { reset: false });
const { mock } = loop;
let document: OpenAPI3;
// The flow's signature, restated: importing typed-client/flow.ts would pull its generated schema into
// the repository's own compile, where it does not exist.
let runFlow: (options: {
  origin: string;
  clientId: string;
  clientSecret: string;
  fetch: (request: Request) => Promise<Response>;
}) => Promise<{ orderId: string; paymentId: string; replayedOrderId: string; paymentIds: string[] }>;
let compiled: { ok: boolean; output: string };
let planted: { ok: boolean; output: string };

beforeAll(async () => {
  // The document as a partner downloads it, not as the sources build it.
  document = (await (await fetch(`${loop.url}/pos/v1/.well-known/openapi.json`)).json()) as OpenAPI3;
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'schema.d.ts'), astToString(await openapiTS(document, { silent: true })));
  const flow = readFileSync(join(here, 'typed-client', 'flow.ts'), 'utf8');
  writeFileSync(join(out, 'flow.ts'), flow);
  // The positive control of the compile step: the same flow with a string where cents are integers.
  expect(flow).toMatch(PLANT);
  writeFileSync(join(out, 'flow.planted.ts'), flow.replace(PLANT, "total_cents: '12.50',"));
  writeFileSync(join(out, 'tsconfig.json'), JSON.stringify(tsconfig('flow.ts'), null, 2));
  writeFileSync(join(out, 'tsconfig.planted.json'), JSON.stringify(tsconfig('flow.planted.ts'), null, 2));
  [compiled, planted] = await Promise.all([typecheck('tsconfig.json'), typecheck('tsconfig.planted.json')]);
  ({ runFlow } = await import(join(out, 'flow.ts')));
}, 60_000);

async function run(plant?: (url: URL, body: unknown) => unknown) {
  const exchanges: Exchange[] = [];
  const result = await runFlow({
    origin: loop.url,
    ...mock.credentials,
    fetch: recordingFetch(exchanges, plant),
  });
  const validate = createValidator(document, { strict: true });
  const violations = (await Promise.all(exchanges.map(validate))).flat();
  return { result, exchanges, violations };
}

const UUID_IDS = ['order_id', 'payment_id', 'refund_id', 'location_id', 'organization_id', 'partner_id'];

/**
 * Where the document types a field otherwise than spec 2 (cents integers, ids UUIDs, times
 * date-times) in a response, and each 429 without its Retry-After: what a generated client in
 * another language would get wrong (Python models with float cents).
 */
function wireProblems(doc: OpenAPI3): string[] {
  const problems: string[] = [];
  const walk = (node: unknown, at: string, name: string) => {
    if (!node || typeof node !== 'object') return;
    const s = node as Record<string, unknown>;
    const types = ([] as unknown[]).concat(s.type ?? []);
    if (name.endsWith('_cents') && types.length > 0 && !types.includes('integer'))
      problems.push(`${at}: ${types}`);
    if (types.includes('string') && UUID_IDS.includes(name) && s.format !== 'uuid')
      problems.push(`${at}: no uuid`);
    if (types.includes('string') && name.endsWith('_at') && s.format !== 'date-time')
      problems.push(`${at}: no date-time`);
    for (const [key, value] of Object.entries(s)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const [prop, sub] of Object.entries(value)) walk(sub, `${at}.${prop}`, prop);
      } else if (value && typeof value === 'object') walk(value, `${at}/${key}`, '');
    }
  };
  const responses = Object.keys(doc.components?.schemas ?? {}).filter((n) => !n.endsWith('Params'));
  for (const name of responses) walk(doc.components!.schemas![name], name, '');
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(
      item as Record<string, { responses?: Record<string, unknown> }>,
    )) {
      const tooMany = op.responses?.['429'] as { headers?: Record<string, unknown> } | undefined;
      if (tooMany && !tooMany.headers?.['Retry-After'])
        problems.push(`${method} ${path} 429: no Retry-After`);
    }
  }
  return problems;
}

describe('the wire types of the document the mock serves', () => {
  it('cents are integers, ids uuid, times date-time in every response; Retry-After on every 429', () => {
    expect(wireProblems(document)).toEqual([]);
    const typed = JSON.stringify(document);
    expect(typed.match(/"format":"uuid"/g)?.length).toBeGreaterThan(20);
    expect(typed.match(/"format":"date-time"/g)?.length).toBeGreaterThanOrEqual(13);
  });

  it('the control: a planted `number` for cents, a lost format and a lost Retry-After are each caught', () => {
    const planted = JSON.parse(JSON.stringify(document)) as OpenAPI3;
    const schemas = planted.components!.schemas! as Record<
      string,
      { properties: Record<string, Record<string, unknown>> }
    >;
    schemas.Payment!.properties.amount_cents!.type = 'number';
    delete schemas.Refund!.properties.refund_id!.format;
    delete schemas.Order!.properties.created_at!.format;
    const create = (
      planted.paths!['/pos/v1/orders'] as { post: { responses: Record<string, { headers?: object }> } }
    ).post;
    delete create.responses['429']!.headers;
    expect(wireProblems(planted)).toEqual([
      'Order.created_at: no date-time',
      'Payment.amount_cents: number',
      'Refund.refund_id: no uuid',
      'post /pos/v1/orders 429: no Retry-After',
    ]);
  });
});

describe('a client generated from the OpenAPI document the mock serves', () => {
  it('compiles under tsc --strict with skipLibCheck off; a planted type error does not', () => {
    expect(compiled.output).toBe('');
    expect(compiled.ok).toBe(true);
    expect(planted.ok).toBe(false);
    expect(planted.output).toMatch(
      /flow\.planted\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable/,
    );
  });

  it('runs token, locations, an idempotent order, a payment and the reads, every answer fitting strictly', async () => {
    const { result, exchanges, violations } = await run();
    expect(violations).toEqual([]);
    const route = (e: Exchange) =>
      `${e.method} ${new URL(e.url).pathname.replace(/[0-9a-f-]{36}/g, '{id}')} ${e.response.status}`;
    // Deduplicated: the flow reads locations until one takes payments.
    expect([...new Set(exchanges.map(route))]).toEqual([
      'POST /oauth2/token 200',
      'GET /pos/v1/locations 200',
      'GET /pos/v1/locations/{id} 200',
      'POST /pos/v1/orders 201',
      'POST /pos/v1/orders/{id}/payments 201',
      'GET /pos/v1/orders/{id}/payments/{id} 200',
      'GET /pos/v1/orders/{id} 200',
    ]);
    expect(exchanges.filter((e) => route(e) === 'POST /pos/v1/orders 201')).toHaveLength(2);
    expect(result.replayedOrderId).toBe(result.orderId);
    expect(result.paymentIds).toEqual([result.paymentId]);
  });

  it('reports a field the mock would add without declaring it (positive control)', async () => {
    const { violations } = await run((url, body) =>
      /\/orders\/[^/]+$/.test(url.pathname) ? { ...(body as object), extra_field: 1 } : undefined,
    );
    expect(violations).toEqual([
      {
        exchange: expect.stringMatching(/^GET \/pos\/v1\/orders\/[^/]+ -> 200$/),
        problem: 'body: data must NOT have additional properties (extra_field)',
      },
    ]);
  });
});
