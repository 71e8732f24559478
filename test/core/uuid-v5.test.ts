// The UUID v5 of an order key (api.md 19), against RFC 9562's example and node:crypto's SHA-1, for
// names around SHA-1's block edges and in several scripts (the key's UTF-8 bytes are hashed).
import { describe, expect, it } from 'vitest';
import { uuidV5 } from '../../src/internal/uuid-v5.js';
import { referenceUuidV5 } from '../helpers/uuid-v5.js';

const DNS = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';

describe('uuidV5', () => {
  it("gives RFC 9562's example: www.example.com in the DNS namespace", () => {
    expect(uuidV5('www.example.com', DNS)).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });
  it.each([
    '',
    'a',
    'x'.repeat(39),
    'y'.repeat(40),
    'z'.repeat(48),
    'w'.repeat(255),
    'é漢字🙂-cart'.repeat(20),
  ])('agrees with node:crypto for %#', (name) => {
    expect(uuidV5(name, DNS)).toBe(referenceUuidV5(name, DNS));
  });
});
