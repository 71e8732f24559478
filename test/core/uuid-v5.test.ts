// The UUID v5 of an order key (api.md 19), against RFC 9562's example and node:crypto's SHA-1, for
// names around SHA-1's block edges and in several scripts (the key's UTF-8 bytes are hashed).
import { describe, expect, it } from 'vitest';
import { uuidV5 } from '../../src/internal/uuid-v5.js';
import { DNS_NAMESPACE as DNS, RFC_EXAMPLE, referenceUuidV5, V5_NAMES } from '../helpers/uuid-v5.js';

describe('uuidV5', () => {
  it("gives RFC 9562's example: www.example.com in the DNS namespace", () => {
    expect(uuidV5(RFC_EXAMPLE.name, DNS)).toBe(RFC_EXAMPLE.uuid);
  });
  it.each(V5_NAMES)('agrees with node:crypto for %#', (name) => {
    expect(uuidV5(name, DNS)).toBe(referenceUuidV5(name, DNS));
  });
});
