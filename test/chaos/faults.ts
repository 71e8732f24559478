/** Seeded choices of the chaos proxy: a generator per (seed, request) and the fault it draws. */
import { FAULTS, type Fault } from './types.js';

/** FNV-1a over `text`, then murmur3's finalizer so every output bit depends on every input bit. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Numbers in [0, 1) that depend only on `seed`, `key` and how many were drawn: no shared state. */
export function hashSeed(seed: number, key: string): () => number {
  let drawn = 0;
  return () => hash32(`${seed}:${key}:${drawn++}`) / 4_294_967_296;
}

/** A fault for a request, uniformly among `from` ({@link FAULTS} unless a self-test narrows it). */
export function pickFault(random: () => number, from: readonly Fault[] = FAULTS): Fault {
  return from[Math.floor(random() * from.length)] as Fault;
}
