// What the core asks of the JavaScript runtime it runs in. Nothing here touches `process`, `Buffer`
// or a `node:*` module unless it exists: the same code loads on Node.js, Bun, Deno, Cloudflare
// Workers (with or without `nodejs_compat`) and Vercel's Edge runtime.
import { VERSION } from '../../version.js';

interface ProcessLike {
  env?: Record<string, string | undefined>;
  versions?: Record<string, string | undefined>;
}

const g = globalThis as {
  process?: ProcessLike;
  Deno?: { version?: { deno?: string } };
  Bun?: unknown;
  EdgeRuntime?: unknown;
  navigator?: { userAgent?: string };
};

/** The runtime's name and version, e.g. `node/20.20.2`, `bun/1.2.0`, `deno/2.1.0`, `workerd`. */
export function runtimeName(): string {
  const versions = g.process?.versions;
  if (g.Deno) return `deno/${g.Deno.version?.deno ?? 'unknown'}`;
  if (g.Bun) return `bun/${versions?.bun ?? 'unknown'}`;
  if (typeof g.EdgeRuntime === 'string') return 'edge-light';
  if (g.navigator?.userAgent === 'Cloudflare-Workers') return 'workerd';
  if (versions?.node) return `node/${versions.node}`;
  return 'unknown';
}

/** Whether this is Node.js itself, where undici is the default transport (not its emulations). */
export function isNode(): boolean {
  return runtimeName().startsWith('node/');
}

/** The `User-Agent` header: the SDK's version and the runtime's (no `process.versions` off Node). */
export function userAgent(): string {
  return `partner-payments/${VERSION} ${runtimeName()}`;
}

/** `process.env` where it exists (Node.js, Bun, Deno, Workers with `nodejs_compat`), else nothing. */
export function processEnv(): Record<string, string | undefined> {
  return g.process?.env ?? {};
}
