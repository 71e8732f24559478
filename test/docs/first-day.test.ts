/**
 * Issue 53, items 8 and "Prove it": the README's quick start says how its variables are loaded and
 * that the block is an ES module, the entry tables list every entry that ships, and the first-day
 * docs say what the package does. Each check is a function of the text, run on the shipped text and
 * once on a planted defect (its positive control).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const pkg = JSON.parse(read('package.json')) as { version: string; exports: Record<string, unknown> };
/** The entries that ship: `partner-payments`, `partner-payments/webhooks`, ... */
const ENTRIES = Object.keys(pkg.exports)
  .filter((k) => k !== './package.json')
  .map((k) => (k === '.' ? 'partner-payments' : `partner-payments/${k.slice(2)}`));
const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six'];
/** The PAYMENTS_* lines the mock bin prints (its source: `PAYMENTS_X=${...}`). */
const BIN_PRINTS = [...read('src/cli/mock/serve.ts').matchAll(/`(PAYMENTS_[A-Z_]+)=\$\{/g)].map((m) => m[1]!);

/** The README's quick start: the section up to the next heading, and its charge block. */
function quickStart(readme: string) {
  const section = readme.slice(
    readme.indexOf('## Quick start'),
    readme.indexOf('\n## ', readme.indexOf('## Quick start') + 5),
  );
  const block = [...section.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((b) => b.includes('client.charge('));
  return { section, block: block ?? '' };
}

function quickStartProblems(readme: string): string[] {
  const { section, block } = quickStart(readme);
  const problems: string[] = [];
  if (!block) problems.push('no quick start block calling client.charge');
  if (!/node --env-file=\.env \S+/.test(section)) problems.push('does not say `node --env-file=.env <file>`');
  if (!/ES module/.test(section)) problems.push('does not say the block is an ES module');
  if (/^\s*(const|let) \w+ = require\(/m.test(block)) problems.push('the block uses require');
  const read = new Set([...block.matchAll(/PAYMENTS_[A-Z_]+/g)].map((m) => m[0]));
  for (const name of read) if (!BIN_PRINTS.includes(name)) problems.push(`the bin does not print ${name}`);
  const five = /prints the (\w+) variables/.exec(section)?.[1];
  const printed = BIN_PRINTS.filter((n) => n !== 'PAYMENTS_WEBHOOK_SECRET').length;
  if (five !== WORDS[printed]) problems.push(`says the bin prints ${five} variables, it prints ${printed}`);
  return problems;
}

function entryTableProblems(gettingStarted: string, readme: string, typedoc: string): string[] {
  const problems: string[] = [];
  const rows = [...gettingStarted.matchAll(/^\| `(partner-payments[\w/-]*)` \|/gm)].map((m) => m[1]!);
  if ([...rows].sort().join() !== [...ENTRIES].sort().join())
    problems.push(`getting-started lists ${rows.join(', ')}`);
  const reference = /Every export of the (\w+) entries \(([^)]*)\)/.exec(readme);
  if (reference?.[1] !== WORDS[ENTRIES.length]) problems.push(`the README says ${reference?.[1]} entries`);
  const named = [...(reference?.[2] ?? '').matchAll(/`(partner-payments[\w/-]*)`/g)].map((m) => m[1]);
  if ([...named].sort().join() !== [...ENTRIES].sort().join())
    problems.push(`the README names ${named.join(', ')}`);
  const subpaths = /The subpath entries \(([^)]*)\)/.exec(readme)?.[1] ?? '';
  for (const entry of ENTRIES.slice(1))
    if (!subpaths.includes(`\`${entry}\``)) problems.push(`subpaths lack ${entry}`);
  const points = (JSON.parse(typedoc) as { entryPoints: string[] }).entryPoints.length;
  if (points !== ENTRIES.length) problems.push(`typedoc documents ${points} entries`);
  return problems;
}

describe("the README's quick start", () => {
  it('says how .env is loaded (node --env-file=.env) and that the block is an ES module; the bin prints what it reads', () => {
    expect(quickStartProblems(read('README.md'))).toEqual([]);
  });

  it('the control: a quick start without --env-file, ESM or with an unprinted variable is caught', () => {
    const readme = read('README.md');
    const planted = readme
      .replace(/node --env-file=\.env/g, 'node')
      .replace(/ES module/g, 'module')
      .replace('process.env.PAYMENTS_LOCATION_ID!', 'process.env.PAYMENTS_STORE_ID!');
    expect(quickStartProblems(planted)).toEqual([
      'does not say `node --env-file=.env <file>`',
      'does not say the block is an ES module',
      'the bin does not print PAYMENTS_STORE_ID',
    ]);
  });
});

describe('the entry tables', () => {
  it('list the entries package.json exports, /stores included', () => {
    expect([...ENTRIES].sort()).toEqual([
      'partner-payments',
      'partner-payments/stores',
      'partner-payments/testing',
      'partner-payments/webhooks',
    ]);
    expect(
      entryTableProblems(read('docs/getting-started.md'), read('README.md'), read('typedoc.json')),
    ).toEqual([]);
  });

  it('the control: a table without /stores and "three entries" are caught', () => {
    const gs = read('docs/getting-started.md').replace(/^\| `partner-payments\/stores` \|.*\n/m, '');
    const readme = read('README.md').replace('the four entries', 'the three entries');
    expect(entryTableProblems(gs, readme, read('typedoc.json'))).toEqual([
      expect.stringMatching(/^getting-started lists /),
      'the README says three entries',
    ]);
  });
});

/** JSDoc blocks of the sources (what ships in the .d.ts files) that cite api.md, which does not ship. */
function apiMdCitations(files: Record<string, string>): string[] {
  return Object.entries(files).flatMap(([file, text]) =>
    [...text.matchAll(/\/\*\*[\s\S]*?\*\//g)].filter((m) => m[0].includes('api.md')).map(() => file),
  );
}

describe('the TSDoc that ships', () => {
  const sources = () => {
    const out: Record<string, string> = {};
    const walk = (dir: string) => {
      for (const f of readdirSync(new URL(`../../${dir}`, import.meta.url))) {
        const path = `${dir}/${f}`;
        if (statSync(new URL(`../../${path}`, import.meta.url)).isDirectory()) walk(path);
        else if (path.endsWith('.ts')) out[path] = read(path);
      }
    };
    walk('src');
    return out;
  };

  it('cites no api.md (it does not ship); the control: a planted citation is found', () => {
    const files = sources();
    expect(apiMdCitations(files)).toEqual([]);
    expect(apiMdCitations({ 'x.ts': '/** See api.md 19. */' })).toEqual(['x.ts']);
  });

  it("payments.create's example keys by a value of the caller's (not the order id) and speaks of the deadline", () => {
    const text = read('src/resources/payments.ts');
    const doc = /\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\s*create\(/.exec(text)?.[1] ?? '';
    expect(doc).toContain('@example');
    expect(doc).not.toMatch(/idempotencyKey: `[^`]*order\.order_id/);
    expect(doc).toMatch(/deadlineMs/);
    expect(doc).toMatch(/outcomeUnknown/);
  });
});

describe('the first-day docs say what ships', () => {
  it("docs/testing.md quotes the bin's PAYMENTS_WEBHOOK_SECRET= line, not a label it never prints", () => {
    const testing = read('docs/testing.md');
    expect(BIN_PRINTS).toContain('PAYMENTS_WEBHOOK_SECRET');
    expect(testing).toContain('PAYMENTS_WEBHOOK_SECRET=whsec_');
    expect(testing).not.toContain('webhook signing secret:');
  });

  it("docs/cli.md's samples show this version", () => {
    const versions = [
      ...read('docs/cli.md').matchAll(
        /partner-payments (?:doctor \(partner-payments |verify )(\d+\.\d+\.\d+)|SDK \((\d+\.\d+\.\d+)\)/g,
      ),
    ].map((m) => m[1] ?? m[2]);
    expect(versions.length).toBeGreaterThanOrEqual(3);
    expect(new Set(versions)).toEqual(new Set([pkg.version]));
  });

  it('docs/agents.md never has npx fetch the package by name (-y -p partner-payments)', () => {
    const fetchesByName = (text: string) =>
      /npx -y (-p )?partner-payments|"-y",\s*"-p",\s*"partner-payments"/.test(text);
    expect(fetchesByName(read('docs/agents.md'))).toBe(false);
    expect(fetchesByName('`"args": ["-y", "-p", "partner-payments", "partner-payments", "mcp"]`')).toBe(true);
    expect(read('docs/agents.md')).toContain('npx partner-payments mcp');
  });

  it("docs/webhooks.md tells of the mock bin's --forward-to", () => {
    expect(read('docs/webhooks.md')).toMatch(/npx partner-payments-mock --forward-to http:\/\/127\.0\.0\.1/);
  });
});
