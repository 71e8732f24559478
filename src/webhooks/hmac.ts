// HMAC-SHA256 (RFC 2104) for the synchronous path, on node:crypto's one-shot `hash()` where the
// runtime has it: two one-shot digests over precomputed key pads cost less than building an `Hmac`
// object per delivery (the object, and OpenSSL's MAC context behind it, dominate a 1 KB body). The
// result is the same digest as `createHmac('sha256', secret)`; test/webhooks/hmac.test.ts holds the
// two equal, and the known vectors of test/webhooks/vectors.test.ts pass through it.
import type { NodeApis } from './runtime.js';

/** SHA-256 processes 64-byte blocks; the key pads are one block each. */
const BLOCK = 64;
/** A SHA-256 digest is 32 bytes. */
const DIGEST = 32;
/**
 * The largest body hashed in one shot, in the scratch space below: 4,096 bytes less one block. A
 * literal, so that a bundle that leaves this module's functions out (a Worker's) leaves it out too.
 */
const MAX_ONE_SHOT = 4032;

interface Pads {
  /** The key XOR 0x36, one block: prefixed to the message for the inner digest. */
  readonly inner: Uint8Array;
  /** The key XOR 0x5c, one block, then room for the inner digest: the whole input of the outer digest. */
  readonly outer: Uint8Array;
}

/**
 * Key pads by secret, so that a receiver derives them once. Module-private (never exposed or logged),
 * and bounded: a receiver has one secret, two during a rotation.
 */
const cache = new Map<string, Pads>();
const MAX_SECRETS = 8;

type OneShotHash = (algorithm: string, data: Uint8Array, encoding: 'buffer') => Uint8Array;

function padsOf(apis: NodeApis, secret: string): Pads {
  const cached = cache.get(secret);
  if (cached) return cached;
  let key: Uint8Array = apis.buffer.Buffer.from(secret, 'utf8');
  // A key longer than a block is replaced by its digest (RFC 2104, as createHmac does).
  if (key.length > BLOCK) key = apis.crypto.createHash('sha256').update(key).digest();
  const inner = new Uint8Array(BLOCK);
  const outer = new Uint8Array(BLOCK + DIGEST);
  for (let i = 0; i < BLOCK; i++) {
    const k = i < key.length ? key[i]! : 0;
    inner[i] = k ^ 0x36;
    outer[i] = k ^ 0x5c;
  }
  if (cache.size >= MAX_SECRETS) cache.delete(cache.keys().next().value!);
  const pads = { inner, outer };
  cache.set(secret, pads);
  return pads;
}

/**
 * The HMAC-SHA256 of `body` (a string as its UTF-8 bytes) keyed with `secret`'s UTF-8 bytes: what
 * `createHmac('sha256', secret).update(body).digest()` gives, which it falls back to on a runtime
 * without `crypto.hash` (Node.js before 20.12, some other runtimes' node:crypto).
 */
export function hmacSha256(apis: NodeApis, body: string | Uint8Array, secret: string): Uint8Array {
  const { crypto } = apis;
  const hash = (crypto as { hash?: OneShotHash }).hash;
  const { Buffer } = apis.buffer;
  const length = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
  // Past a few KB the digest itself dominates the cost, and the Hmac object is as cheap.
  if (typeof hash !== 'function' || length > MAX_ONE_SHOT) {
    return crypto.createHmac('sha256', secret).update(body).digest();
  }
  const pads = padsOf(apis, secret);
  // Module-private scratch space for the inner message (this function is synchronous, so no other
  // call writes to it in between); a view of the exact length is what gets hashed.
  scratch ??= new Uint8Array(BLOCK + MAX_ONE_SHOT);
  scratch.set(pads.inner, 0);
  if (typeof body === 'string') apis.buffer.Buffer.from(scratch.buffer).write(body, BLOCK, 'utf8');
  else scratch.set(body, BLOCK);
  pads.outer.set(hash('sha256', scratch.subarray(0, BLOCK + length), 'buffer'), BLOCK);
  return hash('sha256', pads.outer, 'buffer');
}

let scratch: Uint8Array | undefined;
