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
