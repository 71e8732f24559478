import { describe, expect, it } from 'vitest';
import { textDigest } from '../../src/internal/key-hash.js';

// Intent fingerprints are kept in shared stores (Redis, Postgres): the digest of a text must not
// change between releases, nor depend on how the text is split into parts.
describe('textDigest', () => {
  it('gives the digest of the parts joined, as 16 lower-case hex characters', () => {
    // Values of the first implementation (toString(16) per lane): the hex formatting may change, the digest not.
    expect(
      textDigest(['payment', '|', 'order-1', '|', '', '|', '{"method":"card","amount_cents":500}']),
    ).toBe('e45ca5a53aaf7bb9');
    expect(textDigest(['payment|order-1||{"method":"card","amount_cents":500}'])).toBe('e45ca5a53aaf7bb9');
    expect(textDigest(['refund|o|p|{}'])).toBe('5c0f1ace7da506ca');
    // Leading zeros are kept: the empty text gives each lane's offset.
    expect(textDigest([])).toBe('811c9dc59e3779b9');
    expect(textDigest(['a'])).toMatch(/^[0-9a-f]{16}$/);
  });
});
