// The public API report: one file per entry of package.json "exports" under api/, made by
// @microsoft/api-extractor from the built declarations (dist/*.d.ts, so run `npm run build` first).
// `npm test` runs it in check mode (`npm run check:api`): any change to what partners can import
// fails until the report is accepted with `npm run api:update` and committed, so the change shows
// in review as a diff of api/*.api.md. Two more checks run on the same build: the main entry
// names at most MAX_NAMES.partner-payments exports (a partner reads the surface it learns), and no
// declaration tagged @internal reaches a shipped .d.ts (tsup.config.ts builds them with
// `stripInternal`; a build that lost the option would ship the intent runner's hooks again).
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';
import ts from 'typescript';

const repoRoot = resolve(import.meta.dirname, '..');

/**
 * The most names each report may list, by report name. 0.4.0 took the main entry from 182 names to
 * 150 by leaving out the core's plumbing; a name added past the limit means another goes, or the
 * limit is raised here on purpose, in review.
 */
export const MAX_NAMES = { 'partner-payments': 150 };

/** The names an API report exports, each once (a class or const and its type of one name count once). */
export function exportedNames(report) {
  const names = new Set();
  const declaration =
    /^export (?:declare )?(?:abstract )?(?:class|interface|type|function|const|let|var|enum|namespace) ([\w$]+)/gm;
  for (const match of report.matchAll(declaration)) names.add(match[1]);
  return [...names].sort();
}

/** The reports of the package at `root` that list more names than MAX_NAMES allows. */
export function overLimit(root = repoRoot, limits = MAX_NAMES) {
  const over = [];
  for (const [report, max] of Object.entries(limits)) {
    const path = resolve(root, 'api', `${report}.api.md`);
    if (!existsSync(path)) continue;
    const count = exportedNames(readFileSync(path, 'utf8')).length;
    if (count > max) over.push({ report, count, max });
  }
  return over;
}

/**
 * Each declaration of a .d.ts text whose doc comment carries an `@internal` tag, as
 * `Container.member` (or the top-level name), with its line. TypeScript's own JSDoc parser reads the
 * tags; like `stripInternal`, which drops any declaration whose doc comment holds the text
 * `@internal`, it takes the tag wherever it stands in the comment.
 */
export function internalLeaks(text, fileName = 'input.d.ts') {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const seen = new Set();
  const leaks = [];
  const nameOf = (node) => {
    if (ts.isVariableStatement(node)) node = node.declarationList.declarations[0] ?? node;
    const own = node.name && ts.isIdentifier(node.name) ? node.name.text : node.name?.getText(source);
    const parent = node.parent && (ts.isClassLike(node.parent) || ts.isInterfaceDeclaration(node.parent));
    return parent && node.parent.name ? `${node.parent.name.text}.${own}` : (own ?? ts.SyntaxKind[node.kind]);
  };
  const visit = (node) => {
    for (const tag of ts.getJSDocTags(node)) {
      if (tag.tagName.text !== 'internal' || seen.has(tag.pos)) continue;
      seen.add(tag.pos);
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      leaks.push({ name: nameOf(node), line: line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return leaks;
}

/** Every @internal declaration in the .d.ts and .d.cts files under `dir` (dist/ by default). */
export function shippedInternals(dir = resolve(repoRoot, 'dist')) {
  const leaks = [];
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.d\.c?ts$/.test(entry.name))
        for (const leak of internalLeaks(readFileSync(path, 'utf8'), path))
          leaks.push({ file: relative(dir, path), ...leak });
    }
  };
  walk(dir);
  return leaks;
}

/** Each entry of "exports" of the package at `root`, with its ESM declaration file and report name. */
export function entries(root = repoRoot) {
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));
  return Object.entries(pkg.exports)
    .filter(([subpath]) => subpath !== './package.json')
    .map(([subpath, conditions]) => ({
      subpath,
      dts: resolve(root, conditions.import.types),
      // `.` is reported as the package's own name; `./webhooks` as webhooks.api.md, and so on.
      report: subpath === '.' ? pkg.name : subpath.slice(2).replaceAll('/', '-'),
    }));
}

// Messages that are noise for a package that does not use release tags or api-extractor's doc model.
const off = { logLevel: 'none' };
const messages = {
  compilerMessageReporting: { default: { logLevel: 'warning' } },
  extractorMessageReporting: {
    default: { logLevel: 'warning' },
    // No @public/@beta tags on every export: everything exported is public.
    'ae-missing-release-tag': off,
    // Members tagged @internal (left out of typedoc's reference) keep their plain names.
    'ae-internal-missing-underscore': off,
    'ae-undocumented': off,
    // {@link} targets are checked by typedoc (`npm run docs:api`, invalidLink), against the sources.
    'ae-unresolved-link': off,
    // A type reachable only through an exported one is still written into the report
    // (includeForgottenExports below); the warning itself would name tsup's hashed chunk files and
    // their line numbers, which change with every unrelated edit.
    'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: false },
    'ae-wrong-input-file-type': { logLevel: 'error' },
  },
  // TSDoc syntax is checked by typedoc (`npm run docs:api`), not here.
  tsdocMessageReporting: { default: { logLevel: 'none' } },
};

const quietIds = new Set([
  'console-api-report-not-copied',
  'console-api-report-copied',
  'console-api-report-created',
]);

/** The api-extractor configuration of one entry (shared by all, but for the entry and report). */
function configFor(root, entry) {
  return {
    projectFolder: root,
    mainEntryPointFilePath: entry.dts,
    bundledPackages: [],
    newlineKind: 'lf',
    enumMemberOrder: 'by-name',
    compiler: {
      // Only the built declarations: not the repo's tsconfig, which takes in src/, test/ and more.
      overrideTsconfig: {
        compilerOptions: {
          target: 'ES2022',
          // No DOM: @types/node has the fetch globals, and DOM's global `Location` would rename ours.
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          types: ['node'],
          strict: true,
          skipLibCheck: true,
        },
        files: [entry.dts],
      },
      skipLibCheck: true,
    },
    apiReport: {
      enabled: true,
      reportFileName: entry.report,
      reportFolder: resolve(root, 'api'),
      // Ignored by git (.gitignore has .tmp/): the fresh report, compared with the committed one.
      reportTempFolder: resolve(root, '.tmp/api-report'),
      includeForgottenExports: true,
    },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages,
  };
}

/**
 * Writes (local) or checks (not local) the report of every entry of the package at `root`. Returns the
 * entries whose report changed and whether every run succeeded (in check mode: and none changed).
 */
export function runReports({ root = repoRoot, local = false, quiet = false } = {}) {
  const all = entries(root);
  const missing = all.filter((entry) => !existsSync(entry.dts));
  if (missing.length > 0) {
    throw new Error(
      `api-report: ${missing.map((e) => e.dts).join(', ')} missing: run \`npm run build\` first`,
    );
  }
  const configs = all.map((entry) =>
    ExtractorConfig.prepare({
      configObject: configFor(root, entry),
      configObjectFullPath: undefined,
      packageJsonFullPath: resolve(root, 'package.json'),
    }),
  );
  // One TypeScript program for all four entries: most of the run is building it.
  const compilerState = CompilerState.create(configs[0], {
    additionalEntryPoints: all.map((entry) => entry.dts),
  });
  if (local) mkdirSync(resolve(root, 'api'), { recursive: true });
  const changed = [];
  let ok = true;
  for (const [i, config] of configs.entries()) {
    const result = Extractor.invoke(config, {
      localBuild: local,
      compilerState,
      // In check mode, the diff of each changed report is printed (as a warning).
      printApiReportDiff: !local && !quiet,
      messageCallback: (message) => {
        // api-extractor's own advice ("copy the file ... or perform a local build") and its notes on
        // updating: the summary printed below says what to run instead.
        if (quietIds.has(message.messageId) || quiet) message.handled = true;
        if (message.logLevel === 'info' || message.logLevel === 'verbose') message.handled = true;
      },
    });
    if (result.apiReportChanged) changed.push(all[i]);
    if (!result.succeeded) ok = false;
  }
  return { changed, ok: ok && (local || changed.length === 0) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const local = process.argv.includes('--local');
  const started = performance.now();
  const { changed, ok: reportsOk } = runReports({ local });
  let ok = reportsOk;
  const took = `${Math.round(performance.now() - started)} ms`;
  if (local) {
    const what = changed.map((entry) => `api/${entry.report}.api.md`).join(', ') || 'nothing changed';
    console.log(`api-report: updated (${what}) in ${took}; commit api/ with the change.`);
  } else if (changed.length > 0) {
    console.error('api-report: the public API changed:');
    for (const entry of changed) {
      console.error(
        `  ${entry.subpath} -> api/${entry.report}.api.md (new: .tmp/api-report/${entry.report}.api.md)`,
      );
    }
    console.error('If the change is meant, accept it with `npm run api:update` (after `npm run build`) and');
    console.error('commit api/*.api.md, listing removed or renamed exports in CHANGELOG.md.');
  } else if (ok) {
    console.log(`api-report: the ${entries().length} entries match api/*.api.md (${took})`);
  }
  for (const { report, count, max } of overLimit()) {
    console.error(
      `api-report: api/${report}.api.md lists ${count} names, more than ${max} (MAX_NAMES in scripts/api-report.mjs): leave internal building blocks out of the entry`,
    );
    ok = false;
  }
  const leaks = shippedInternals();
  if (leaks.length > 0) {
    console.error('api-report: declarations tagged @internal reach the shipped types:');
    for (const leak of leaks) console.error(`  dist/${leak.file}:${leak.line} ${leak.name}`);
    console.error('The declaration build strips them (`stripInternal` in tsup.config.ts): is it still set?');
    ok = false;
  }
  if (!ok) process.exit(1);
}
