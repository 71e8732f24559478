// The main entry loads no zod: the client checks requests and responses with the checks compiled
// from the zod schemas (src/schemas/compiled/), so importing `partner-payments` costs no zod load
// and a bundle of the client holds none of it (bench/footprint.ts measures both).
import { relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runtimeGraph } from '../helpers/runtime-graph.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the partner-payments entry', () => {
  it('reaches no zod module and no zod schema file at run time', () => {
    const { files, packages } = runtimeGraph(resolve(root, 'src/index.ts'));
    expect([...packages].filter((p) => p === 'zod' || p.startsWith('zod/'))).toEqual([]);
    const reached = [...files].map((f) => relative(root, f));
    expect(reached.filter((f) => f.startsWith('src/schemas/zod/'))).toEqual([]);
    expect(reached).toContain('src/schemas/compiled/orders.ts');
  });

  it('the walk can fail: the zod schema files and the mock load zod', () => {
    expect(runtimeGraph(resolve(root, 'src/schemas/zod/orders.ts')).packages).toContain('zod');
    expect(runtimeGraph(resolve(root, 'src/testing/index.ts')).packages).toContain('zod');
  });
});
