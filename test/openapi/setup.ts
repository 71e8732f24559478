/**
 * Vitest setup (every test file): records each exchange of every mock and, after the file, validates
 * them all against the mock's own OpenAPI document, strictly (a field it does not declare is a
 * violation too). A violation fails the file.
 */
import { afterAll, beforeAll } from 'vitest';
import { buildOpenApiDocument } from '../../src/testing/documents/openapi.js';
import { type Exchange, exchangeObservers } from '../../src/testing/engine/exchanges.js';
import { createValidator } from './validate.js';

const recorded: Exchange[] = [];
// Exchanges shaped by an injected fault break the contract on purpose: the mock does not report them.
const record = (exchange: Exchange) => {
  recorded.push(exchange);
};

beforeAll(() => {
  exchangeObservers.add(record);
});

afterAll(async () => {
  exchangeObservers.delete(record);
  if (recorded.length === 0) return;
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
