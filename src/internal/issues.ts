// `issueLine()`: the one-line form of a validation issue, shared by every message that lists issues.
/**
 * One line for a validation issue: `level3.line_items.0.quantity: must be greater than 0`, with
 * `root` standing for an issue about the whole value. Shared by every message that lists issues
 * (request validation, unreadable responses, webhook envelopes, the mock's error bodies).
 */
export function issueLine(issue: { path: readonly PropertyKey[]; message: string }, root: string): string {
  return `${issue.path.length ? issue.path.map(String).join('.') : root}: ${issue.message}`;
}
