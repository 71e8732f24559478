// The built files as shipped (called by check-package.mjs with the installed package): a JavaScript
// file of dist/ names a source map at most once, in its last line, and only a map that ships. The
// package ships no maps now (tsup.config.ts: they pointed at sources it does not hold); tsup's
// tree-shaking pass once left two such comments at the end of every chunk.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const COMMENT = /^\/\/# sourceMappingURL=(.*)$/gm;

/** What is wrong with the source map comments of one file's text (empty when nothing is). */
export function sourceMapProblems(text, file) {
  const comments = [...text.matchAll(COMMENT)];
  if (comments.length === 0) return [];
  if (comments.length > 1)
    return [`${file} has ${comments.length} sourceMappingURL comments (at most 1 expected)`];
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
  // The positive controls: a file ending with its comment twice, as dist/webhooks.js did, and one
  // naming a map the package does not hold, are caught.
  const webhooks = join(dist, 'webhooks.js');
  const text = readFileSync(webhooks, 'utf8').trimEnd();
  const comment = '//# sourceMappingURL=webhooks.js.map';
  if (sourceMapProblems(`${text}\n${comment}\n${comment}\n`, webhooks).length === 0)
    throw new Error('build output: a doubled sourceMappingURL comment went unseen');
  if (sourceMapProblems(`${text}\n${comment}\n`, webhooks).length === 0)
    throw new Error('build output: a comment naming a map that does not ship went unseen');
  console.log(
    `build output: ok, none of ${files.length} files in ${relative(pkg, dist)}/ names a map twice or one that does not ship`,
  );
}
