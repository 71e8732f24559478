// The built files as shipped (called by check-package.mjs with the installed package): every
// JavaScript file of dist/ names its source map once, in its last line, and that map ships. tsup's
// tree-shaking pass once left two such comments at the end of every chunk (see tsup.config.ts).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const COMMENT = /^\/\/# sourceMappingURL=(.*)$/gm;

/** What is wrong with the source map comments of one file's text (empty when nothing is). */
export function sourceMapProblems(text, file) {
  const comments = [...text.matchAll(COMMENT)];
  if (comments.length !== 1) return [`${file} has ${comments.length} sourceMappingURL comments (1 expected)`];
  const [comment] = comments;
  const problems = [];
  if (text.slice(comment.index + comment[0].length).trim() !== '')
    problems.push(`${file}: its sourceMappingURL comment is not at the end`);
  if (!existsSync(join(dirname(file), comment[1])))
    problems.push(`${file} names ${comment[1]}, which the package does not hold`);
  return problems;
}

/** Runs the check on the package installed at `pkg`, with its positive control. */
export function checkBuildOutput(pkg) {
  const dist = join(pkg, 'dist');
  const files = readdirSync(dist, { recursive: true })
    .filter((f) => /\.(js|cjs)$/.test(f))
    .map((f) => join(dist, f));
  const problems = files.flatMap((file) => sourceMapProblems(readFileSync(file, 'utf8'), file));
  if (problems.length)
    throw new Error(`build output:\n  ${problems.map((p) => p.replaceAll(`${pkg}/`, '')).join('\n  ')}`);
  // The positive control: a file ending with its comment twice, as dist/webhooks.js did, is caught.
  const webhooks = join(dist, 'webhooks.js');
  const text = readFileSync(webhooks, 'utf8');
  const doubled = `${text.trimEnd()}\n${text.trimEnd().split('\n').at(-1)}\n`;
  if (sourceMapProblems(doubled, webhooks).length === 0)
    throw new Error('build output: a doubled sourceMappingURL comment went unseen');
  console.log(
    `build output: ok, each of ${files.length} files in ${relative(pkg, dist)}/ names its map once`,
  );
}
