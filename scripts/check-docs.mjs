// Type-checks every ```ts code block of README.md and docs/*.md against the sources, so the docs
// cannot drift from the API. Each block becomes a module; names a block uses without defining
// (client, orderId, req, ...) are declared by a prelude. The package check (scripts/run-docs.mjs)
// then runs every block not marked ```ts typecheck-only against the mock from the packed tarball,
// and type-checks the marked ones (they need the real service or a partner's framework) against
// the packed types.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(import.meta.dirname, '..');

// name -> declaration, used only when the block does not define the name itself.
export const prelude = {
  PaymentsClient: "import { PaymentsClient } from 'partner-payments';",
  PaymentsError: "import { PaymentsError } from 'partner-payments';",
  client: "declare const client: import('partner-payments').PaymentsClient;",
  orderId: 'declare const orderId: string;',
  paymentId: 'declare const paymentId: string;',
  locationId: 'declare const locationId: string;',
  partnerId: 'declare const partnerId: string;',
  returnUrl: 'declare const returnUrl: string;',
  sessionOrderId: 'declare const sessionOrderId: string;',
  rawBody: 'declare const rawBody: Buffer;',
  secret: 'declare const secret: string;',
  req: "declare const req: import('node:http').IncomingMessage & { body: Buffer; originalUrl: string };",
  res: 'declare const res: { status(code: number): { send(body?: unknown): void }; send(body?: unknown): void; redirect(url: string): void };',
  session: 'declare const session: { posAccessToken: string; getAccessToken(): Promise<string> };',
  controller: 'declare const controller: AbortController;',
  params: "declare const params: import('partner-payments').OrderCreateParams;",
  myOrderUuid: 'declare const myOrderUuid: string;',
  cartId: 'declare const cartId: string;',
  invoiceId: 'declare const invoiceId: string;',
  carts:
    'declare const carts: { get(id: string): Promise<{ id: string; locationId: string; totalCents: number }> };',
  traceId: 'declare const traceId: string;',
  baseUrl: 'declare const baseUrl: string;',
  clientId: 'declare const clientId: string;',
  clientSecret: 'declare const clientSecret: string;',
  metrics:
    'declare const metrics: { histogram(name: string, value: number, tags?: object): void; increment(name: string, tags?: object): void };',
  link: "declare const link: import('partner-payments').LaunchToken;",
  beforeAll: "import { beforeAll } from 'vitest';",
  afterEach: "import { afterEach } from 'vitest';",
  afterAll: "import { afterAll } from 'vitest';",
  createMockService: "import { createMockService } from 'partner-payments/testing';",
  mock: "declare const mock: import('partner-payments/testing').MockService;",
  // Deno's own types (lib.deno.ns): the HTTP client, and fetch's `client` option.
  Deno: 'declare const Deno: { createHttpClient(options: { proxy?: { url: string }; poolMaxIdlePerHost?: number }): { close(): void } }; declare global { interface RequestInit { client?: { close(): void } } }',
  app: 'declare const app: { get(path: string, handler: (req: any, res: any) => unknown): void; post(path: string, ...handlers: unknown[]): void };',
};

/** Whether a block defines `name` itself (then the prelude stays out of its way). */
const defines = (code, name) =>
  new RegExp(`(import[^;]*\\b${name}\\b|\\b(const|let|function|class)\\s+${name}\\b)`).test(code);
/** The prelude names a block uses without defining them. */
export const freeNames = (code) => {
  const uncommented = code.replace(/(^|[^:])\/\/.*$/gm, '$1'); // a name in a comment is not used
  return Object.keys(prelude).filter(
    (name) => new RegExp(`\\b${name}\\b`).test(uncommented) && !defines(code, name),
  );
};

/**
 * Every ```ts block of README.md and docs/*.md: its page, its number on the page, its code, and
 * whether it runs (`run`) or is only type-checked (```ts typecheck-only).
 * @param {string} base the folder holding README.md and docs/ (the repository, or the installed package)
 */
export function docBlocks(base = root) {
  const files = [
    'README.md',
    ...readdirSync(join(base, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  return files.flatMap((file) =>
    [...readFileSync(join(base, file), 'utf8').matchAll(/```ts( typecheck-only)?\n([\s\S]*?)```/g)].map(
      (m, i) => ({ file, index: i + 1, code: m[2], mode: m[1] ? 'typecheck' : 'run' }),
    ),
  );
}

/** Writes one module a block per file into `out`, with the prelude's declarations it needs. */
export function writeTypecheckModules(blocks, out) {
  for (const { file, index, code } of blocks) {
    const head = freeNames(code).map((name) => prelude[name]);
    const name = `${file.replace(/[/.]/g, '_')}_${index}.ts`;
    writeFileSync(join(out, name), `// ${file}, block ${index}\n${head.join('\n')}\n${code}\nexport {};\n`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const out = join(root, '.tmp', 'doc-snippets');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const blocks = docBlocks();
  writeTypecheckModules(blocks, out);
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../tsconfig.json',
      compilerOptions: {
        noEmit: true,
        noUnusedLocals: false,
        // A block is not a library: no declarations (their portability errors are not the docs' concern).
        declaration: false,
        declarationMap: false,
        paths: {
          'partner-payments': ['../../src/index.ts'],
          'partner-payments/webhooks': ['../../src/webhooks/index.ts'],
          'partner-payments/testing': ['../../src/testing/index.ts'],
          'partner-payments/stores': ['../../src/stores/index.ts'],
        },
      },
      include: ['./*.ts'],
    }),
  );
  try {
    execFileSync(
      process.execPath,
      [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(out, 'tsconfig.json')],
      { stdio: 'inherit' },
    );
  } catch {
    console.error(`docs: a code block does not compile (the files are in ${out})`);
    process.exit(1);
  }
  const running = blocks.filter((b) => b.mode === 'run').length;
  console.log(
    `docs: ${blocks.length} code blocks compile against the sources (${running} run from the packed package in test:package, ${blocks.length - running} typecheck-only)`,
  );
}
