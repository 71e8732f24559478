/**
 * Vitest setup (every test file): records each exchange of every mock and, after the file, validates
 * them all against the mock's own OpenAPI document, strictly (a field it does not declare is a
 * violation too). A violation fails the file.
 *
 * `PARTNER_PAYMENTS_OPENAPI_CHECK=off` leaves it out: `test:matrix --lean` sets it on the lines other
 * than the running one, where the same exchanges meet the same document in the same JavaScript (the
 * running line checks them); loading the document and its validator in every file was a fifth of
 * such a line's time.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Exchange } from '../../src/testing/engine/exchanges.js';

if (process.env.PARTNER_PAYMENTS_OPENAPI_CHECK !== 'off') {
  const recorded: Exchange[] = [];
  // Exchanges shaped by an injected fault break the contract on purpose: the mock does not report them.
  const record = (exchange: Exchange) => {
    recorded.push(exchange);
  };
  const observers = import('../../src/testing/engine/exchanges.js').then((m) => m.exchangeObservers);

  beforeAll(async () => {
    (await observers).add(record);
  });

  afterAll(async () => {
    (await observers).delete(record);
    if (recorded.length === 0) return;
    const [{ buildOpenApiDocument }, { createValidator }] = await Promise.all([
      import('../../src/testing/documents/openapi.js'),
      import('./validate.js'),
    ]);
    // Strict: a field the mock answers without the document declaring it is a violation too.
    const validate = createValidator(buildOpenApiDocument(), { strict: true });
    const violations = (await Promise.all(recorded.splice(0).map(validate))).flat();
    if (violations.length > 0) {
      const lines = violations.slice(0, 20).map((v) => `  ${v.exchange}: ${v.problem}`);
      throw new Error(
        `${violations.length} exchange(s) do not match the mock's OpenAPI document:\n${lines.join('\n')}`,
      );
    }
  });
}
