// UUID version 5 (RFC 9562 section 5.5): the SHA-1 of a namespace and a name, as a UUID. Written
// out (SHA-1 included) so that it is synchronous: Web Crypto's digest is asynchronous. The Node.js
// build derives order keys with it (src/core/call/order-key.fast.ts); the build for other runtimes
// hashes with Web Crypto instead (order-key.fast.web.ts), around the same v5Input and v5Uuid.

/** SHA-1 (FIPS 180-4) of `bytes`: 20 bytes. Not for secrets: here it only names a UUID. */
function sha1(bytes: Uint8Array): Uint8Array {
  const length = bytes.length;
  const blocks = ((length + 8) >>> 6) + 1;
  const words = new Uint32Array(blocks * 16);
  for (let i = 0; i < length; i++) words[i >>> 2]! |= bytes[i]! << (24 - (i % 4) * 8);
  words[length >>> 2]! |= 0x80 << (24 - (length % 4) * 8);
  words[blocks * 16 - 1] = length * 8;
  words[blocks * 16 - 2] = Math.floor((length * 8) / 2 ** 32);
  const w = new Uint32Array(80);
  let h0 = 0x67452301;
  let h1 = 0xefcdab89;
  let h2 = 0x98badcfe;
  let h3 = 0x10325476;
  let h4 = 0xc3d2e1f0;
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = words[block * 16 + t]!;
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!;
      w[t] = (x << 1) | (x >>> 31);
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    for (let t = 0; t < 80; t++) {
      const f =
        t < 20
          ? ((b & c) | (~b & d)) + 0x5a827999
          : t < 40
            ? (b ^ c ^ d) + 0x6ed9eba1
            : t < 60
              ? ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc
              : (b ^ c ^ d) + 0xca62c1d6;
      const next = (((a << 5) | (a >>> 27)) + f + e + w[t]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = next;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  const out = new Uint8Array(20);
  const view = new DataView(out.buffer);
  const words20 = [h0, h1, h2, h3, h4];
  for (let i = 0; i < 5; i++) view.setUint32(i * 4, words20[i]! >>> 0);
  return out;
}

/** What a UUID v5 hashes: the namespace's 16 bytes (a UUID), then `name`'s UTF-8 bytes. */
export function v5Input(name: string, namespace: string): Uint8Array {
  const ns = namespace.replace(/-/g, '');
  const text = new TextEncoder().encode(name);
  const bytes = new Uint8Array(16 + text.length);
  for (let i = 0; i < 16; i++) bytes[i] = Number.parseInt(ns.slice(i * 2, i * 2 + 2), 16);
  bytes.set(text, 16);
  return bytes;
}

/** The UUID v5 (lower-case) of a SHA-1 `digest`: its first 16 bytes, version and variant set. */
export function v5Uuid(digest: Uint8Array): string {
  const hash = digest.subarray(0, 16);
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The UUID version 5 of `name` (its UTF-8 bytes) in `namespace` (a UUID), lower-case. */
export function uuidV5(name: string, namespace: string): string {
  return v5Uuid(sha1(v5Input(name, namespace)));
}
