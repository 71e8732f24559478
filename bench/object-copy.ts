/**
 * A call's headers copied from the client's and then added to, three ways: object spread, then
 * `Object.assign({}, ...)` (what the core does), then an object literal for scale. The least time
 * per copy of five rounds of a million. On Node 20 (V8 11), a header added to an object spread from
 * another costs about a microsecond; on Node 22 and later all three cost tens of nanoseconds.
 *
 *   npx tsx bench/object-copy.ts
 */
const client: Record<string, string> = {
  accept: 'application/json',
  'user-agent': 'partner-payments/0.3.0 node/20',
};

const ways: Record<string, () => Record<string, string>> = {
  spread: () => {
    const headers = { ...client };
    headers['content-type'] = 'application/json';
    headers.authorization = 'Bearer token';
    return headers;
  },
  'Object.assign': () => {
    const headers: Record<string, string> = Object.assign({}, client);
    headers['content-type'] = 'application/json';
    headers.authorization = 'Bearer token';
    return headers;
  },
  literal: () => ({
    accept: client.accept as string,
    'user-agent': client['user-agent'] as string,
    'content-type': 'application/json',
    authorization: 'Bearer token',
  }),
};

let kept: unknown;
for (const [name, copy] of Object.entries(ways)) {
  let least = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    for (let i = 0; i < 1_000_000; i++) kept = copy();
    least = Math.min(least, ((performance.now() - t0) * 1e3) / 1e6);
  }
  console.log(`${name.padEnd(14)} ${(least * 1000).toFixed(0)} ns a copy (Node ${process.versions.node})`);
}
if (kept === undefined) throw new Error('unreachable');
