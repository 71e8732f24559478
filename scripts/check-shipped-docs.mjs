// Shipped docs name only what ships: README.md, docs/ and examples/ as installed from the tarball
// must not send a reader to a file of the repository that the package lacks (src/..., test/...,
// bench/..., scripts/..., api/...) nor to one of its npm scripts (`npm run demo`, `npm test`).
// A mention is fine as a link into the repository, or inside a region marked
// `<!-- repository -->` ... `<!-- /repository -->` that itself links the repository (text for
// contributors working from a clone).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The repository's web address, from package.json (`https://github.com/owner/name`). */
export function repositoryUrl(pkgJson) {
  const url = typeof pkgJson.repository === 'string' ? pkgJson.repository : pkgJson.repository.url;
  return url.replace(/^git\+/, '').replace(/\.git$/, '');
}

/**
 * The repository-only mentions of one page's text.
 * @param {string} text
 * @param {{ root: string, pkg: string, repo: string, scripts: string[] }} where
 */
export function repositoryOnlyMentions(text, { root, pkg, repo, scripts }) {
  const found = [];
  let rest = text.replace(/<!-- repository -->([\s\S]*?)<!-- \/repository -->/g, (region) => {
    if (!region.includes(`](${repo}`))
      found.push('a <!-- repository --> region without a link to the repository');
    return '';
  });
  const escaped = repo.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  rest = rest
    .replace(new RegExp(`\\[[^\\]]*\\]\\(${escaped}[^)]*\\)`, 'g'), '') // a link into the repository
    .replace(/https?:\/\/[^\s)>]+/g, ''); // any other address is not a path of the package
  for (const [path] of rest.matchAll(/(?<![\w/.@-])(src|test|bench|scripts|api)\/[\w.*/-]*/g)) {
    const clean = path.replace(/[.,]+$/, '');
    const local = clean.includes('*') ? clean.slice(0, clean.indexOf('*')) : clean;
    if (existsSync(join(root, local)) && !existsSync(join(pkg, local))) found.push(clean);
  }
  for (const [command, name] of rest.matchAll(/\bnpm (?:run ([\w:-]+)|test\b)/g))
    if (!name || scripts.includes(name)) found.push(command);
  return found;
}

/** Every page of the installed package a reader opens: README, docs and examples. */
function pages(pkg) {
  const walk = (dir) =>
    readdirSync(join(pkg, dir)).flatMap((f) => {
      const path = `${dir}/${f}`;
      return statSync(join(pkg, path)).isDirectory() ? walk(path) : [path];
    });
  return ['README.md', ...walk('docs'), ...walk('examples')].filter((f) => /\.(md|ts|js|mjs)$/.test(f));
}

/** Fails when a shipped page names a repository-only path or script; `pkg` is the installed package. */
export function checkShippedDocs(pkg, root) {
  const pkgJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const where = { root, pkg, repo: repositoryUrl(pkgJson), scripts: Object.keys(pkgJson.scripts) };
  const problems = pages(pkg).flatMap((page) =>
    repositoryOnlyMentions(readFileSync(join(pkg, page), 'utf8'), where).map((m) => `${page}: ${m}`),
  );
  // The positive control: a planted path and a planted script in a README line are caught.
  const planted = repositoryOnlyMentions('See src/client.ts, then run `npm run demo`.', where);
  if (planted.length !== 2) problems.push(`the check missed a planted mention (found ${planted.join(', ')})`);
  if (problems.length)
    throw new Error(
      `shipped docs name what the package does not ship (link the repository instead):\n  ${problems.join('\n  ')}`,
    );
  console.log(
    `shipped docs: ${pages(pkg).length} pages name no repository-only path or script (a planted src/client.ts and npm run demo are caught)`,
  );
}
