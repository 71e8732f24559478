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

/** Lower-case hex digits as char codes, and the 16 codes of a digest being written. */
const HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];
const CODES: number[] = new Array(16).fill(48);

/**
 * A 64-bit digest of a text given in parts (the digest of the parts joined, without joining them),
 * as 16 hex characters: two FNV-1a-style lanes in one pass, a quarter of {@link keyDigest}'s work.
 * For the intent fingerprint (run on every keyed call), where it only has to tell apart two sets of
 * params sent under one idempotency key. The hex is written as one string of char codes
 * (`toString(16)` and `padStart` per lane cost more than the hashing).
 */
export function textDigest(parts: readonly string[]): string {
  let a = 0x811c9dc5;
  let b = 0x9e3779b9;
  for (let p = 0; p < parts.length; p++) {
    const text = parts[p] as string;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x85ebca6b);
    }
  }
  for (let i = 0; i < 8; i++) {
    const shift = 28 - 4 * i;
    CODES[i] = HEX[(a >>> shift) & 15] as number;
    CODES[i + 8] = HEX[(b >>> shift) & 15] as number;
  }
  return String.fromCharCode.apply(null, CODES);
}
