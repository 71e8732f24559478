// Type-checks every ```ts code block of README.md and docs/*.md against the sources, so the docs
// cannot drift from the API. Each block becomes a module; names a block uses without defining
// (client, orderId, req, ...) are declared by a prelude.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const out = join(root, '.tmp', 'doc-snippets');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// name -> declaration, used only when the block does not define the name itself.
const prelude = {
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

const files = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];
let count = 0;
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  const blocks = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]);
  blocks.forEach((code, i) => {
    const defines = (name) =>
      new RegExp(`(import[^;]*\\b${name}\\b|\\b(const|let|function|class)\\s+${name}\\b)`).test(code);
    const uses = (name) => new RegExp(`\\b${name}\\b`).test(code);
    const head = Object.entries(prelude)
      .filter(([name]) => uses(name) && !defines(name))
      .map(([, decl]) => decl);
    const name = `${file.replace(/[/.]/g, '_')}_${i + 1}.ts`;
    writeFileSync(join(out, name), `// ${file}, block ${i + 1}\n${head.join('\n')}\n${code}\nexport {};\n`);
    count++;
  });
}

writeFileSync(
  join(out, 'tsconfig.json'),
  JSON.stringify({
    extends: '../../tsconfig.json',
    compilerOptions: {
      noEmit: true,
      noUnusedLocals: false,
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
    {
      stdio: 'inherit',
    },
  );
} catch {
  console.error(`docs: a code block does not compile (the files are in ${out})`);
  process.exit(1);
}
console.log(`docs: ${count} code blocks from ${files.length} files compile`);
