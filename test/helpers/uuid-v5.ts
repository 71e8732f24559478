// UUID version 5 written independently of the SDK (node:crypto's SHA-1), per RFC 9562: what the
// order-key tests hold the SDK's own (pure JavaScript) derivation against.
import { createHash } from 'node:crypto';

export function referenceUuidV5(name: string, namespace: string): string {
  const hash = createHash('sha1')
    .update(Buffer.concat([Buffer.from(namespace.replace(/-/g, ''), 'hex'), Buffer.from(name, 'utf8')]))
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** RFC 9562's DNS namespace, and its example: `www.example.com` in it. */
export const DNS_NAMESPACE = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
export const RFC_EXAMPLE = { name: 'www.example.com', uuid: '2ed6657d-e927-568b-95e1-2665a8aea6a2' };

/** Names around SHA-1's block edges (55/56/64 bytes with the namespace) and in several scripts. */
export const V5_NAMES = [
  '',
  'a',
  'x'.repeat(39),
  'y'.repeat(40),
  'z'.repeat(48),
  'w'.repeat(255),
  'é漢字🙂-cart'.repeat(20),
];
