// `keyDigest()`, the short, runtime-neutral digest in the keys of shared stores (token, rate limit), and `textDigest()`, the cheaper one of intent fingerprints.
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

/**
 * A 64-bit digest of a text, as 16 hex characters: two FNV-1a-style lanes in one pass, a quarter of
 * {@link keyDigest}'s work. For the intent fingerprint (run on every keyed call), where it only has to
 * tell apart two sets of params sent under one idempotency key.
 */
export function textDigest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x85ebca6b);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}
