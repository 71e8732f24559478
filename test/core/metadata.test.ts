// Issue 10, violation 3: metadata values are JSON values, sent exactly as given. Anything JSON would
// change, drop or crash on is a RequestValidationError naming its path, and nothing is sent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PaymentsClient } from '../../src/client.js';
import { RequestValidationError } from '../../src/core/errors/api-errors.js';
import { METADATA_LIMITS } from '../../src/schemas/metadata.js';
import { LOCATION_ID, orderCreatedBody } from '../helpers/fixtures.js';

function recordingClient() {
  const bodies: string[] = [];
  const client = new PaymentsClient({
    accessToken: 'tok_test',
    baseUrl: 'https://payments.test',
    maxRetries: 0,
    fetch: async (_url, init) => {
      bodies.push(String(init?.body));
      return new Response(JSON.stringify(orderCreatedBody), {
        status: 201,
        headers: { 'content-type': 'application/json' },
      });
    },
  });
  return { client, bodies };
}
const order = (metadata: unknown) =>
  ({ location_id: LOCATION_ID, total_cents: 12_500, metadata }) as Parameters<
    PaymentsClient['orders']['create']
  >[0];

class Ticket {
  id = 7;
}
function circular() {
  const value: Record<string, unknown> = { a: { b: 1 } };
  (value.a as Record<string, unknown>).back = value;
  return value;
}
function nested(levels: number) {
  const root: Record<string, unknown> = {};
  let node = root;
  for (let i = 1; i < levels; i++) {
    node.x = {};
    node = node.x as Record<string, unknown>;
  }
  return root;
}
function sparse() {
  const a = [1];
  a[2] = 3;
  return { a };
}
const withSymbolKey = () => ({ [Symbol('hidden')]: 1, shown: 2 });
const withGetter = () => Object.defineProperty({}, 'now', { get: () => Date.now(), enumerable: true });
const withHidden = () => Object.defineProperty({ a: 1 }, 'hidden', { value: 2, enumerable: false });

const refused: [string, () => unknown, string][] = [
  ['a BigInt', () => ({ n: 10n }), 'metadata.n'],
  ['a circular object', circular, 'metadata.a.back'],
  ['nesting 20,000 deep', () => nested(20_000), `metadata${'.x'.repeat(METADATA_LIMITS.maxDepth)}`],
  ['a Date', () => ({ at: new Date(0) }), 'metadata.at'],
  ['a function', () => ({ f: () => 1 }), 'metadata.f'],
  ['undefined', () => ({ u: undefined }), 'metadata.u'],
  ['a symbol', () => ({ s: Symbol('s') }), 'metadata.s'],
  ['a class instance', () => ({ ticket: new Ticket() }), 'metadata.ticket'],
  ['a Map', () => ({ m: new Map([[1, 2]]) }), 'metadata.m'],
  ['a boxed string', () => ({ s: new String('x') }), 'metadata.s'],
  ['NaN', () => ({ n: Number.NaN }), 'metadata.n'],
  ['Infinity deep in an array', () => ({ list: [1, [2, Number.POSITIVE_INFINITY]] }), 'metadata.list.1.1'],
  ['-0', () => ({ z: -0 }), 'metadata.z'],
  ['a sparse array', sparse, 'metadata.a'],
  ['an own __proto__ key', () => JSON.parse('{"__proto__": {"admin": true}, "ok": 1}'), 'metadata.__proto__'],
  ['a symbol key', withSymbolKey, 'metadata'],
  ['a getter', withGetter, 'metadata'],
  ['a non-enumerable property', withHidden, 'metadata'],
  ['an array as metadata', () => [1, 2], 'metadata'],
  ['a string as metadata', () => 'x', 'metadata'],
  ['over the size limit', () => ({ big: 'x'.repeat(METADATA_LIMITS.maxBytes) }), 'metadata'],
];

describe('metadata that JSON would change is refused, naming the path, and nothing is sent', () => {
  it('positive control: valid metadata is sent (the recorder sees requests)', async () => {
    const { client, bodies } = recordingClient();
    await client.orders.create(order({ ticket: 42, tags: ['rush', null], nested: { ok: true } }));
    expect(bodies).toHaveLength(1);
  });

  it.each(refused)('%s', async (_name, make, path) => {
    const { client, bodies } = recordingClient();
    const error = await client.orders.create(order(make())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    const issues = (error as RequestValidationError).issues;
    expect(issues.length).toBeGreaterThan(0);
    expect((error as Error).message).toContain(`${path}:`);
    expect(bodies).toHaveLength(0);
  });

  it('at the depth limit, an object is accepted and sent as it is', async () => {
    const { client, bodies } = recordingClient();
    const value = nested(METADATA_LIMITS.maxDepth);
    await client.orders.create(order(value));
    expect(JSON.parse(bodies[0] ?? '').metadata).toEqual(value);
  });
});

describe('a body JSON cannot carry, through client.request', () => {
  it('is a RequestValidationError, not a bare TypeError, and nothing is sent', async () => {
    const { client, bodies } = recordingClient();
    const error = await client
      .request({
        method: 'POST',
        path: '/pos/v1/custom',
        retry: 'safe',
        body: { n: 1n },
        response: z.unknown(),
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(bodies).toHaveLength(0);
  });
});

describe('accepted metadata is sent exactly as given (property)', () => {
  it('JSON values: accepted and equal on the wire, or refused before sending', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 5 })), async (metadata) => {
        const { client, bodies } = recordingClient();
        const outcome = await client.orders.create(order(metadata)).then(
          () => 'sent',
          (error: unknown) => error,
        );
        if (outcome === 'sent') {
          expect(bodies).toHaveLength(1);
          expect(JSON.parse(bodies[0] ?? '').metadata).toStrictEqual(JSON.parse(JSON.stringify(metadata)));
          expect(JSON.parse(bodies[0] ?? '').metadata).toEqual(metadata);
        } else {
          // Only a key JSON.parse would treat specially, or a size or depth limit, is refused.
          expect(outcome).toBeInstanceOf(RequestValidationError);
          expect((outcome as Error).message).toMatch(/__proto__|bytes of JSON|deeper than/);
          expect(bodies).toHaveLength(0);
        }
      }),
      { numRuns: 300, seed: 10 },
    );
  });

  it('any value at all: sent unchanged, or a RequestValidationError and nothing sent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          fc.string(),
          fc.anything({
            withDate: true,
            withMap: true,
            withSet: true,
            withBigInt: true,
            withTypedArray: true,
            withSparseArray: true,
            withNullPrototype: true,
            withBoxedValues: true,
          }),
        ),
        async (metadata) => {
          const { client, bodies } = recordingClient();
          const outcome = await client.orders.create(order(metadata)).then(
            () => 'sent',
            (error: unknown) => error,
          );
          if (outcome === 'sent') expect(JSON.parse(bodies[0] ?? '').metadata).toEqual(metadata);
          else {
            expect(outcome).toBeInstanceOf(RequestValidationError);
            expect(bodies).toHaveLength(0);
          }
        },
      ),
      { numRuns: 500, seed: 10 },
    );
  });
});
