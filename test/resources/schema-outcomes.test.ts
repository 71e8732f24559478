// The outcome of every schema the SDK runs (the checks compiled from the zod schemas) on thousands of
// inputs (test/helpers/schema-cases.ts), recorded in test/fixtures/schema-outcomes.json: for a request
// body, the issues of the RequestValidationError (path, message, code) or a hash of the JSON that
// would be sent (key order included); for a response, the issues of the InvalidResponseError or a hash
// of the parsed value. The file was recorded from the zod schemas themselves; a change in how schemas
// are built or checked must leave every outcome as recorded. `UPDATE_OUTCOMES=1` rewrites the file
// (only for a deliberate change of a rule, reviewed in the diff).
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { caseGroupsOf, SUBJECTS } from '../helpers/schema-cases.js';
import { outcome } from '../helpers/schema-outcome.js';

const FILE = new URL('../fixtures/schema-outcomes.json', import.meta.url);
/** Every distinct outcome once, and per subject and group of cases the index of each case's outcome. */
interface Recorded {
  outcomes: string[];
  subjects: Record<string, Record<string, number[]>>;
}

/** Every case's outcome now, by the compiled checks (or by the zod schemas): subject, group, case, outcome. */
function current(by: 'compiled' | 'schema') {
  return SUBJECTS.map((subject) => ({
    subject: subject.name,
    groups: Object.entries(caseGroupsOf(subject)).map(([group, cases]) => ({
      group,
      cases: cases.map((c) => ({ name: c.name, outcome: outcome(subject, subject[by], c.input()) })),
    })),
  }));
}

function write(now: ReturnType<typeof current>) {
  const outcomes: string[] = [];
  const index = new Map<string, number>();
  const id = (o: string) => {
    if (!index.has(o)) index.set(o, outcomes.push(o) - 1);
    return index.get(o)!;
  };
  // One group per line, so that a deliberate change reads as a small diff.
  const subjects = now.map(
    (s) =>
      `    ${JSON.stringify(s.subject)}: {\n${s.groups
        .map((g) => `      ${JSON.stringify(g.group)}: ${JSON.stringify(g.cases.map((c) => id(c.outcome)))}`)
        .join(',\n')}\n    }`,
  );
  const text = `{\n  "subjects": {\n${subjects.join(',\n')}\n  },\n  "outcomes": [\n${outcomes
    .map((o) => `    ${JSON.stringify(o)}`)
    .join(',\n')}\n  ]\n}\n`;
  writeFileSync(FILE, text);
}

describe('every schema gives the recorded outcome on every case', () => {
  // Recorded from the zod schemas, the source of truth; what the SDK runs must give the same.
  if (process.env.UPDATE_OUTCOMES === '1') write(current('schema'));
  const now = current('compiled');
  const recorded = JSON.parse(readFileSync(FILE, 'utf8')) as Recorded;

  it('covers thousands of cases, refused and accepted alike', () => {
    const all = now.flatMap((s) => s.groups.flatMap((g) => g.cases.map((c) => c.outcome)));
    expect(all.length).toBeGreaterThan(10_000);
    expect(all.filter((o) => o.startsWith('refused')).length).toBeGreaterThan(3_000);
    expect(all.filter((o) => o.startsWith('sent')).length).toBeGreaterThan(500);
    expect(all.filter((o) => o.startsWith('invalid')).length).toBeGreaterThan(2_000);
  });

  it.each(now.map((s) => [s.subject, s] as const))('%s', (name, s) => {
    const rows = recorded.subjects[name]!;
    const differences: string[] = [];
    for (const g of s.groups) {
      g.cases.forEach((c, i) => {
        const was = recorded.outcomes[rows[g.group]?.[i] ?? -1];
        if (was !== c.outcome)
          differences.push(`${c.name}\n    recorded: ${was}\n    now:      ${c.outcome}`);
      });
    }
    expect(differences.slice(0, 20).join('\n')).toBe('');
    expect(Object.keys(rows)).toEqual(s.groups.map((g) => g.group));
  });
});
