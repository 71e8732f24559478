// One version: package.json's "version", VERSION (src/version.ts, sent in the User-Agent) and the
// CHANGELOG's top entry name the same version. The rule: package.json carries the version in
// development, so a build of the branch says what it will ship as; its CHANGELOG entry is
// "Unreleased" until it is published, and every entry below it carries the date it shipped
// (YYYY-MM-DD), newest first. `--release` (prepublishOnly) also refuses an "Unreleased" top entry:
// the date is written when the version ships.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The problems of one package.json version, VERSION source and CHANGELOG text (none: `[]`).
 * @param {{ pkg: string, version: string, changelog: string, release?: boolean }} input
 * @returns {string[]}
 */
export function versionProblems({ pkg, version, changelog, release = false }) {
  const problems = [];
  const source = /export const VERSION = '([^']+)'/.exec(version)?.[1];
  const entries = [...changelog.matchAll(/^## \[([^\]]+)\](?: - (.+))?$/gm)].map((m) => ({
    version: m[1],
    date: m[2]?.trim(),
  }));
  const [top, ...shipped] = entries;
  if (!source) problems.push('src/version.ts: no `export const VERSION = "..."` found');
  else if (source !== pkg) problems.push(`VERSION is ${source}, package.json says ${pkg}`);
  if (!top) return [...problems, 'CHANGELOG.md: no "## [x.y.z] - date" entry'];
  if (top.version !== pkg)
    problems.push(`the CHANGELOG's top entry is ${top.version}, package.json says ${pkg}`);
  const dated = (d) => /^\d{4}-\d{2}-\d{2}$/.test(d ?? '');
  if (!dated(top.date) && top.date !== 'Unreleased')
    problems.push(`[${top.version}] must be dated (YYYY-MM-DD) or "Unreleased", not "${top.date ?? ''}"`);
  if (release && top.date === 'Unreleased')
    problems.push(`[${top.version}] is "Unreleased": date it before publishing`);
  for (const entry of shipped)
    if (!dated(entry.date))
      problems.push(
        `[${entry.version}] is below the top entry, so it shipped: give it its date, not "${entry.date ?? ''}"`,
      );
  const order = entries.map((e) => e.version.split('.').map(Number));
  for (let i = 1; i < order.length; i++) {
    const [a, b] = [order[i - 1], order[i]];
    const newer = a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
    if (!(newer > 0))
      problems.push(`[${entries[i - 1].version}] is listed above [${entries[i].version}]: newest first`);
  }
  for (let i = 1; i < shipped.length; i++)
    if (shipped[i - 1].date < shipped[i].date)
      problems.push(`[${shipped[i - 1].version}] is dated before [${shipped[i].version}], which it follows`);
  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = resolve(import.meta.dirname, '..');
  const read = (file) => readFileSync(join(root, file), 'utf8');
  const pkg = JSON.parse(read('package.json')).version;
  const problems = versionProblems({
    pkg,
    version: read('src/version.ts'),
    changelog: read('CHANGELOG.md'),
    release: process.argv.includes('--release'),
  });
  // The positive control: the same check catches a planted disagreement.
  const planted = versionProblems({
    pkg,
    version: "export const VERSION = '0.0.1';",
    changelog: read('CHANGELOG.md'),
  });
  if (!planted.some((p) => p.includes('VERSION is 0.0.1')))
    problems.push('the check missed a planted VERSION 0.0.1');
  if (problems.length) {
    console.error(`version: package.json, VERSION and CHANGELOG.md disagree:\n  ${problems.join('\n  ')}`);
    process.exit(1);
  }
  console.log(
    `version: ${pkg} in package.json, VERSION and the CHANGELOG's top entry (a planted VERSION 0.0.1 is caught)`,
  );
}
