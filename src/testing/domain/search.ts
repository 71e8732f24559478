/**
 * The fuzzy location search of spec 4.8, typo tolerant. The rule:
 * - the query and the name are split into words (letters and digits), compared case-insensitively;
 * - every query word must match some word of the name: as that word or a part of it (cost 0), or as
 *   the whole word within {@link allowedTypos} edits (insert, delete, substitute, swap two
 *   neighbours; cost = edits);
 * - matches rank by total cost (a query word found inside a name word rather than at its start costs
 *   0.5 more), then keep the partner's order.
 */

/** Edits a query word of this length may carry: none up to 3 letters, 1 up to 6, 2 beyond. */
export function allowedTypos(length: number): number {
  if (length <= 3) return 0;
  return length <= 6 ? 1 : 2;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      }
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/** The cost of one query word against one name word, or null when it does not match. */
function wordCost(query: string, word: string): number | null {
  if (word.includes(query)) return 0;
  const allowed = allowedTypos(query.length);
  if (allowed === 0) return null;
  const cost = editDistance(query, word);
  return cost <= allowed ? cost : null;
}

/** How well a name matches a query: null for no match, else a cost (lower is better). */
export function searchScore(name: string, query: string): number | null {
  const nameWords = words(name);
  let total = 0;
  for (const q of words(query)) {
    let best: number | null = null;
    for (const w of nameWords) {
      const cost = wordCost(q, w);
      // A start-of-word hit ranks a little before a match inside a word.
      const ranked = cost === null ? null : cost + (w.startsWith(q) ? 0 : 0.5);
      if (ranked !== null && (best === null || ranked < best)) best = ranked;
    }
    if (best === null) return null;
    total += best;
  }
  return total;
}

/** The items whose name matches the query, best first (stable for equal scores). */
export function fuzzySearch<T>(items: readonly T[], query: string, name: (item: T) => string): T[] {
  if (words(query).length === 0) return [...items];
  return items
    .map((item, index) => ({ item, index, score: searchScore(name(item), query) }))
    .filter((x): x is { item: T; index: number; score: number } => x.score !== null)
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .map((x) => x.item);
}
