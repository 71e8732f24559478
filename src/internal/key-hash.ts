// `keyDigest()`: the short, runtime-neutral digest in the keys of shared stores (token, rate limit).
/**
 * A 128-bit digest of a store key's parts, as 32 hex characters: four FNV-1a passes with different
 * offsets. Synchronous and runtime-neutral (no `node:crypto`, which Workers without `nodejs_compat`
 * lack). The parts are configuration (URLs, client ids, scopes), never a secret, so the digest only
 * has to keep keys short and distinct, not to resist an attacker.
 */
export function keyDigest(parts: readonly unknown[] | string): string {
  const text = typeof parts === 'string' ? parts : JSON.stringify(parts);
  let out = '';
  for (const offset of [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b]) {
    let h = offset;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    out += (h >>> 0).toString(16).padStart(8, '0');
  }
  return out;
}
