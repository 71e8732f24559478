// Docs that run: every ```ts block of the installed README.md and docs/*.md, and every example, from
// the packed tarball in its scratch project. Blocks and examples run with tsx against
// `npx partner-payments-mock` (the installed bin) or the embedded mock they start themselves; those
// marked typecheck-only (```ts typecheck-only, or a `// typecheck-only:` line in an example: they need
// the real service or a partner's framework) are type-checked against the packed types instead, and
// so is every block and example that runs. A block that stops running fails the package check.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { docBlocks, freeNames, prelude, writeTypecheckModules } from './check-docs.mjs';
import { root, run } from './pack.mjs';

const tsx = pathToFileURL(join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const TIMEOUT_MS = 30_000;

/** Runs `file` with tsx in `cwd`; resolves with its output, rejects on a failure or after 30 s. */
function runTs(file, cwd, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', tsx, file], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(out);
      else
        reject(
          new Error(
            `${file} ${signal ? `did not end within ${TIMEOUT_MS / 1000} s` : `exited ${code}`}:\n${out}`,
          ),
        );
    });
  });
}

/** Starts the installed mock bin and reads the variables a partner sets from its banner. */
export async function startMockBin(scratch, args = []) {
  const bin = join(scratch, 'node_modules', '.bin', 'partner-payments-mock');
  const child = spawn(bin, ['--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let stopping = false;
  // Both streams read to the end (a full pipe would stall the bin), and a bin that dies while the
  // blocks run says so with what it printed, rather than leaving them a refused connection.
  child.stderr.on('data', (chunk) => (out += chunk));
  child.once('exit', (code, signal) => {
    if (!stopping)
      console.error(`the mock bin exited (${code ?? signal}) while the docs ran:\n${out.slice(-4000)}`);
  });
  const text = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('Press Ctrl+C')) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`the mock bin exited with ${code}:\n${out}`)));
  });
  // Either `PAYMENTS_X=value` lines or the labelled banner.
  const value = (name, label) =>
    new RegExp(`${name}=(\\S+)`).exec(text)?.[1] ?? new RegExp(`${label}:\\s+(\\S+)`).exec(text)?.[1] ?? '';
  const env = {
    PAYMENTS_BASE_URL: value('PAYMENTS_BASE_URL', 'base URL'),
    PAYMENTS_AUTH_URL: value('PAYMENTS_AUTH_URL', 'auth URL'),
    PAYMENTS_CLIENT_ID: value('PAYMENTS_CLIENT_ID', 'client id'),
    PAYMENTS_CLIENT_SECRET: value('PAYMENTS_CLIENT_SECRET', 'client secret'),
    PAYMENTS_LOCATION_ID: value('PAYMENTS_LOCATION_ID', 'location \\(payments enabled\\)'),
  };
  const partnerId = value('PAYMENTS_PARTNER_ID', 'partner id');
  return {
    env,
    partnerId,
    stop: () => {
      stopping = true;
      child.kill('SIGTERM');
    },
  };
}

/** The example files and whether each runs (`// Run: npx tsx examples/...`) or is typecheck-only. */
function examples(pkg) {
  const walk = (dir) =>
    readdirSync(join(pkg, dir)).flatMap((f) =>
      statSync(join(pkg, dir, f)).isDirectory() ? walk(`${dir}/${f}`) : [`${dir}/${f}`],
    );
  return walk('examples')
    .filter((f) => f.endsWith('.ts'))
    .map((file) => {
      const text = readFileSync(join(pkg, file), 'utf8');
      const runs = /^\/\/ Run: npx tsx examples\//m.test(text);
      const marked = /^\/\/ typecheck-only: \S/m.test(text);
      if (!runs && !marked)
        throw new Error(
          `${file} neither runs ("// Run: npx tsx ${file}") nor says why not ("// typecheck-only: ...")`,
        );
      return { file, mode: runs ? 'run' : 'typecheck' };
    });
}

/** Links each package the blocks and examples in `types` import, and the package lacks, from the repository. */
function linkFrameworks(types, scratch) {
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? (e.name === 'node_modules' ? [] : walk(join(dir, e.name))) : [join(dir, e.name)],
    );
  const names = new Set();
  for (const file of walk(types).filter((f) => f.endsWith('.ts')))
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '([^.'][^']*)'/g)) {
      if (spec.startsWith('node:') || spec.startsWith('partner-payments')) continue;
      const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0];
      names.add(name);
      names.add(`@types/${name.replace('@', '').replace('/', '__')}`);
    }
  for (const name of names) {
    const from = join(root, 'node_modules', name);
    const to = join(types, 'node_modules', name);
    if (!existsSync(from) || existsSync(to) || existsSync(join(scratch, 'node_modules', name))) continue;
    mkdirSync(dirname(join(types, 'node_modules', name)), { recursive: true });
    symlinkSync(from, to);
  }
}

/** The runtime values of the prelude's names, for a block that runs (harness.ts in the scratch). */
const HARNESS = readFileSync(join(import.meta.dirname, 'doc-harness.ts'), 'utf8');

/**
 * Runs and type-checks the docs of the package installed in `scratch`; `only` narrows to blocks whose
 * page and number contain it (the planted-break control uses it).
 */
/**
 * The README's quick start (the block that calls `client.charge`) run three more times, each in a
 * process of its own, as a partner reruns it after a crash or a deploy: each process starts with an
 * empty intent store (the default, in memory), and each must answer the order and the payment of
 * the first run, the one payment on that order (api.md 22).
 */
async function rerunQuickStart(blocks, writeBlock, dir, env) {
  const quick = blocks.find(
    (b) => b.file === 'README.md' && b.mode === 'run' && b.code.includes('client.charge('),
  );
  if (!quick) throw new Error('docs: README.md has no quick start block calling client.charge');
  const seen = [];
  for (let i = 1; i <= 3; i++) {
    const file = `README_quick_start_rerun_${i}.ts`;
    writeBlock(
      quick,
      file,
      "console.log('RERUN ' + JSON.stringify({ order: order.order_id, payment: payment.payment_id, payments: (await client.orders.get(order.order_id)).payments.length }));",
    );
    const out = await runTs(file, dir, env);
    const line = out.split('\n').find((l) => l.startsWith('RERUN '));
    if (!line) throw new Error(`docs: the README quick start rerun ${i} printed no ids:\n${out}`);
    seen.push(JSON.parse(line.slice(6)));
  }
  const [first] = seen;
  if (seen.some((s) => s.order !== first.order || s.payment !== first.payment || s.payments !== 1))
    throw new Error(
      `docs: the README quick start rerun in three processes must answer one order and one payment: ${JSON.stringify(seen)}`,
    );
  console.log(
    `docs: the README quick start rerun in 3 processes: order ${first.order}, payment ${first.payment}, 1 payment on the order`,
  );
}

export async function runDocs(scratch, { only } = {}) {
  const pkg = join(scratch, 'node_modules', 'partner-payments');
  const blocks = docBlocks(pkg).filter((b) => !only || `${b.file}#${b.index}`.includes(only));
  const dir = join(scratch, 'docs-run');
  const types = join(scratch, 'docs-typecheck');
  mkdirSync(dir, { recursive: true });
  mkdirSync(types, { recursive: true });
  writeFileSync(join(dir, 'harness.ts'), HARNESS);
  writeTypecheckModules(blocks, types);
  const exampleFiles = only ? [] : examples(pkg);
  // The examples are type-checked from a copy beside the blocks, so that both see the partner's
  // frameworks and test runners (express, msw, vitest, ...): linked from the repository's dev
  // dependencies into docs-typecheck/node_modules, never into the scratch project's own.
  for (const { file } of exampleFiles) {
    mkdirSync(dirname(join(types, file)), { recursive: true });
    copyFileSync(join(pkg, file), join(types, file));
  }
  linkFrameworks(types, scratch);
  // Type-check every block and every example against the packed types, strict, with no skipLibCheck
  // on the package's own declarations being the other helper's concern (skipLibCheck stays on here).
  writeFileSync(
    join(types, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        skipLibCheck: true,
        typeRoots: [join(root, 'node_modules', '@types')],
        types: ['node'],
      },
      include: ['./*.ts', 'examples/**/*.ts'],
    }),
  );
  try {
    run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', types], scratch);
  } catch (error) {
    throw new Error(`docs: a block or example does not compile against the packed types:\n${error.stdout}`);
  }

  const bin = await startMockBin(scratch, ['--rate-limit', 'off']);
  const env = {
    ...process.env,
    ...bin.env,
    PAYMENTS_PARTNER_ID: bin.partnerId,
    PAYMENTS_WEBHOOK_SECRET: 'whsec_docs',
  };
  let ran = 0;
  const failures = [];
  /** Writes `block` as a module of the run (its imports, the harness's values), with `tail` after it. */
  const writeBlock = (block, file, tail = '') => {
    const names = freeNames(block.code);
    const ours = (n) => prelude[n].includes("from 'partner-payments");
    const imports = names.filter(ours).map((n) => prelude[n]);
    const values = names.filter((n) => !ours(n));
    writeFileSync(
      join(dir, file),
      [
        `// ${block.file}, block ${block.index}`,
        ...imports,
        `import { setup, finish } from './harness.ts';`,
        values.length
          ? `const { ${values.join(', ')} } = await setup(${JSON.stringify(values)}, ${JSON.stringify(block.code)});`
          : '',
        block.code,
        tail,
        'await finish();',
        'export {};',
      ].join('\n'),
    );
  };
  try {
    for (const block of blocks.filter((b) => b.mode === 'run')) {
      const file = `${block.file.replace(/[/.]/g, '_')}_${block.index}.ts`;
      writeBlock(block, file);
      await runTs(file, dir, env).then(
        () => ran++,
        (e) => failures.push(`${block.file} block ${block.index} does not run as written:\n${e.message}`),
      );
    }
    if (!only) await rerunQuickStart(blocks, writeBlock, dir, env).catch((e) => failures.push(e.message));
  } finally {
    bin.stop();
  }
  // The examples start their own embedded mock when PAYMENTS_BASE_URL is not set.
  const exampleEnv = { ...process.env };
  for (const name of Object.keys(bin.env)) delete exampleEnv[name];
  for (const example of exampleFiles.filter((e) => e.mode === 'run')) {
    await runTs(join(pkg, example.file), pkg, exampleEnv).catch((e) =>
      failures.push(`${example.file} does not run as written:\n${e.message}`),
    );
  }
  if (failures.length) throw new Error(`docs: ${failures.join('\n\n')}`);
  const counts = {
    blocksRun: ran,
    blocksTypecheck: blocks.filter((b) => b.mode === 'typecheck').length,
    examplesRun: exampleFiles.filter((e) => e.mode === 'run').length,
    examplesTypecheck: exampleFiles.filter((e) => e.mode === 'typecheck').length,
  };
  return counts;
}

/**
 * The package check's docs step: first the positive control (README's quick start with the
 * location id it had in 0.3.0, which the mock does not know, must fail the run), then every block
 * and example; prints the counts.
 */
export async function checkDocsFromPackage(scratch) {
  const readme = join(scratch, 'node_modules', 'partner-payments', 'README.md');
  const text = readFileSync(readme, 'utf8');
  const planted = text.replace('process.env.PAYMENTS_LOCATION_ID!', "'6f1c1d3e-8c1a-4f7e-9d55-2b1f0d9a7c11'");
  if (planted === text)
    throw new Error('docs: the control found no PAYMENTS_LOCATION_ID in the README quick start');
  writeFileSync(readme, planted);
  const caught = await runDocs(scratch, { only: 'README.md#1' }).then(
    () => false,
    (e) => /location_not_found/.test(e.message),
  );
  writeFileSync(readme, text);
  if (!caught)
    throw new Error(
      'docs: a README quick start with an unknown location id still ran: the run proves nothing',
    );
  const c = await runDocs(scratch);
  console.log(
    `docs: ${c.blocksRun} blocks of README.md and docs/ run against the packed mock, ${c.blocksTypecheck} typecheck-only; ` +
      `${c.examplesRun} examples run, ${c.examplesTypecheck} typecheck-only; all compile against the packed types ` +
      '(a planted unknown location id in the README quick start fails the run)',
  );
}
