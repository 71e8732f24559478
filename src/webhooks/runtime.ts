// What the webhooks entry takes from its runtime, looked up on first use rather than imported: the
// entry then loads on Cloudflare Workers without `nodejs_compat`, Vercel Edge and browsers, where
// `node:crypto` does not exist, and costs nothing at import time anywhere.
import type * as NodeBufferModule from 'node:buffer';
import type * as NodeCryptoModule from 'node:crypto';

/** The two Node.js modules the synchronous path uses. */
export interface NodeApis {
  readonly crypto: typeof NodeCryptoModule;
  readonly buffer: typeof NodeBufferModule;
}

let node: NodeApis | null | undefined;

/**
 * `node:crypto` and `node:buffer` where the runtime has them (Node.js, Bun, Deno, Workers with
 * `nodejs_compat`), through `process.getBuiltinModule` (Node.js 20.16+), else null. Looked up once.
 */
export function nodeApis(): NodeApis | null {
  if (node !== undefined) return node;
  node = null;
  try {
    const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process
      ?.getBuiltinModule;
    if (typeof get === 'function') {
      const crypto = get('node:crypto') as NodeApis['crypto'] | undefined;
      const buffer = get('node:buffer') as NodeApis['buffer'] | undefined;
      if (typeof crypto?.createHmac === 'function' && typeof buffer?.Buffer === 'function') {
        node = { crypto, buffer };
      }
    }
  } catch {
    // A runtime that refuses the lookup has no synchronous HMAC: the Web Crypto path remains.
  }
  return node;
}

let encoder: InstanceType<typeof TextEncoder> | undefined;
let decoder: InstanceType<typeof TextDecoder> | undefined;

/** The UTF-8 bytes of `text` (a lone surrogate becomes U+FFFD, as in `Buffer.from`). */
export function utf8Bytes(text: string): Uint8Array {
  encoder ??= new TextEncoder();
  return encoder.encode(text);
}

/**
 * The text of UTF-8 `bytes`; throws on a malformed sequence. A byte order mark is kept (JSON.parse then
 * refuses it), the same on both paths.
 */
export function utf8Text(bytes: Uint8Array): string {
  const apis = nodeApis();
  if (apis && typeof apis.buffer.isUtf8 === 'function') {
    const { Buffer, isUtf8 } = apis.buffer;
    const buffer =
      bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const text = buffer.toString('utf8');
    // Decoding turns every malformed sequence into U+FFFD, so text without one came from valid UTF-8
    // (and for an ASCII body the search is immediate); with one, the bytes decide.
    if (text.includes('\uFFFD') && !isUtf8(bytes)) throw new TypeError('The body is not valid UTF-8.');
    return text;
  }
  decoder ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  return decoder.decode(bytes);
}

/** Bytes of a string of lowercase hexadecimal digits (already checked by the caller). */
export function hexBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length >> 1);
  for (let i = 0; i < out.length; i++)
    out[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  return out;
}

/** The value of one lowercase hexadecimal digit's character code. */
const nibble = (c: number): number => (c <= 57 ? c - 48 : c - 87);
