// Matching request paths against the route table: patterns with `:name` segments, compiled once
// and grouped by segment count, with the lookups of recent paths remembered.
import { MockApiError } from './respond.js';

/** Matches a pathname against a route pattern; returns the params or null. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  return matchSegments(pattern.split('/'), splitPath(pathname));
}

/** A path's segments, without trailing slashes. */
function splitPath(pathname: string): string[] {
  let end = pathname.length;
  while (end > 1 && pathname.charCodeAt(end - 1) === 47) end--;
  return (end === pathname.length ? pathname : pathname.slice(0, end)).split('/');
}

function matchSegments(want: readonly string[], got: readonly string[]): Record<string, string> | null {
  if (want.length !== got.length) return null;
  let params: Record<string, string> | null = null;
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.charCodeAt(0) === 58 /* : */) {
      if (!g) return null;
      params ??= {};
      params[w.slice(1)] = decodeSegment(g);
    } else if (w !== g) return null;
  }
  return params ?? {};
}

/** A malformed escape (`%E0%A4%A`) is the caller's mistake: 400, not a 500 from a URIError. */
function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new MockApiError(400, 'invalid_request', 'The path has a malformed percent-escape');
  }
}

/** A lookup's result: the route with its params, or none and the methods the path allows. */
export type Found<R> =
  | { route: R; params: Readonly<Record<string, string>>; allowed: readonly string[] }
  | { route: undefined; params: undefined; allowed: readonly string[] };

/** How many lookups `compileRoutes()` remembers (a load test reads the same few paths over and over). */
const FOUND_LIMIT = 1_000;

/** The route table grouped by the number of path segments, each pattern split once. */
export function compileRoutes<R extends { method: string; pattern: string }>(routes: readonly R[]) {
  const bySize = new Map<number, { route: R; segments: string[] }[]>();
  for (const route of routes) {
    const segments = route.pattern.split('/');
    const list = bySize.get(segments.length) ?? [];
    list.push({ route, segments });
    bySize.set(segments.length, list);
  }
  /** The route of this method and path with its params; or the methods the path allows. */
  const find = (method: string, pathname: string): Found<R> => {
    const got = splitPath(pathname);
    const allowed: string[] = [];
    for (const { route, segments } of bySize.get(got.length) ?? []) {
      const params = matchSegments(segments, got);
      if (!params) continue;
      if (route.method === method) return { route, params: Object.freeze(params), allowed };
      allowed.push(route.method);
    }
    return { route: undefined, params: undefined, allowed: Object.freeze(allowed) };
  };
  // Lookups are remembered (params frozen, since requests of one path share them), forgotten all
  // at once past FOUND_LIMIT.
  const found = new Map<string, Found<R>>();
  return (method: string, pathname: string): Found<R> => {
    const key = `${method} ${pathname}`;
    let hit = found.get(key);
    if (hit === undefined) {
      hit = find(method, pathname);
      if (found.size >= FOUND_LIMIT) found.clear();
      found.set(key, hit);
    }
    return hit;
  };
}
