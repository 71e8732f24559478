// Compiles the SDK's zod schemas (src/schemas/zod/, the source of truth) into src/schemas/compiled/:
// the same schemas built from the zod-free kit of src/schemas/check/, so that the main entry checks
// requests and responses without loading zod. It reads each schema's definition (`_zod.def`) and
// refuses anything the kit does not implement, so a schema can only change in a way the compiled
// copy follows. test/schemas/compiled.test.ts fails when a compiled file is out of date.
//
//   npm run gen:schemas          writes src/schemas/compiled/ (tsx scripts/compile-schemas.ts)
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as uuid from '../src/internal/uuid.js';
import * as common from '../src/schemas/common.js';
import * as envelope from '../src/schemas/event-envelope.js';
import * as level3Rules from '../src/schemas/rules/level3.js';
import * as metadataRules from '../src/schemas/rules/metadata.js';
import * as orderRules from '../src/schemas/rules/orders.js';
import * as events from '../src/schemas/zod/events.js';
import * as fields from '../src/schemas/zod/fields.js';
import * as launchTokens from '../src/schemas/zod/launch-tokens.js';
import * as level3 from '../src/schemas/zod/level3.js';
import * as locations from '../src/schemas/zod/locations.js';
import * as metadata from '../src/schemas/zod/metadata.js';
import * as oauth from '../src/schemas/zod/oauth.js';
import * as orders from '../src/schemas/zod/orders.js';
import * as payments from '../src/schemas/zod/payments.js';
import * as refunds from '../src/schemas/zod/refunds.js';
import * as specs from '../src/schemas/zod/specs.js';
import * as webhookEndpoints from '../src/schemas/zod/webhook-endpoints.js';
import { compileModule, isSchema, type Schema, sortedEntries } from './compile-module.js';

/** The zod modules, in an order where a module comes after those whose schemas it uses. */
export const MODULES: [name: string, exports: Record<string, unknown>][] = [
  ['fields', fields],
  ['level3', level3],
  ['metadata', metadata],
  ['payments', payments],
  ['orders', orders],
  ['refunds', refunds],
  ['locations', locations],
  ['launch-tokens', launchTokens],
  ['events', events],
  ['webhook-endpoints', webhookEndpoints],
  ['oauth', oauth],
  ['specs', specs],
];

/**
 * The zod-free values the compiled code may import (patterns, rules and value lists such as the
 * event kinds), by module path from compiled/.
 */
const VALUES: [path: string, exports: Record<string, unknown>][] = [
  ['../../internal/uuid.js', uuid],
  ['../event-envelope.js', envelope],
  ['../common.js', common],
  ['../rules/level3.js', level3Rules],
  ['../rules/metadata.js', metadataRules],
  ['../rules/orders.js', orderRules],
];

/** Compiles the modules (by default every zod module); returns the file name and text of each. */
export function compileModules(modules = MODULES): { file: string; text: string }[] {
  // Where each schema is exported (its home), and where each zod-free value comes from.
  const home = new Map<Schema, { module: string; name: string }>();
  for (const [module, exports] of [...MODULES, ...modules]) {
    for (const [name, value] of sortedEntries(exports))
      if (isSchema(value) && !home.has(value)) home.set(value, { module, name });
  }
  const values = new Map<unknown, { path: string; name: string }>();
  for (const [path, exports] of VALUES) {
    for (const [name, value] of sortedEntries(exports)) {
      const importable = typeof value === 'function' || value instanceof RegExp || Array.isArray(value);
      if (importable && !values.has(value)) values.set(value, { path, name });
    }
  }
  return modules.flatMap(([module, exports]) =>
    Object.entries(compileModule(module, exports, home, values)).map(([file, text]) => ({
      file,
      text: format(`src/schemas/compiled/${file}`, text),
    })),
  );
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The repository's formatter: biome's native binary when it is installed (fast), else through npx. */
const BIOME = (() => {
  try {
    return [createRequire(import.meta.url).resolve(`@biomejs/cli-${process.platform}-${process.arch}/biome`)];
  } catch {
    return ['npx', 'biome'];
  }
})();

/** The text as the repository's formatter and import sorter (biome) write it. */
function format(path: string, text: string): string {
  return execFileSync(BIOME[0]!, [...BIOME.slice(1), 'check', '--write', `--stdin-file-path=${path}`], {
    cwd: ROOT,
    input: text,
    encoding: 'utf8',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = new URL('../src/schemas/compiled/', import.meta.url);
  for (const { file, text } of compileModules()) writeFileSync(new URL(file, dir), text);
  console.log(`wrote ${MODULES.length} modules to src/schemas/compiled/`);
}
