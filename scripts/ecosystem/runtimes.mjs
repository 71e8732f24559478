// How each runtime runs the shared scenario. Every runtime comes from npm: Node 22, 24 and 26 are
// installed on first use into .tmp/runtimes (as npm packages; not dev dependencies, whose `node`
// bin would replace Node 20 in every npm script), the others are dev dependencies.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { EdgeRuntime } from 'edge-runtime';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { nodeBinary, npm, root, run } from '../pack.mjs';
import { edgeLightBuild, workerdBuild } from './targets.mjs';

const bin = (name) => join(root, 'node_modules', '.bin', name);

// A process runtime: runs cli.mjs in the scratch project, the input as an argument.
function processCase(name, command, args) {
  return {
    name,
    version: () => run(command(), ['--version'], root).trim().split('\n')[0],
    // Asynchronous: the mock answers from this process's event loop meanwhile.
    async scenario(scratch, input) {
      const { stdout } = await promisify(execFile)(command(), [...args, JSON.stringify(input)], {
        cwd: scratch,
        timeout: 60_000,
      });
      return JSON.parse(stdout);
    },
  };
}

// Bundles an entry of the scratch project as a deployment tool would (wrangler, Next.js).
async function bundle(scratch, entry, options) {
  const result = await build({
    entryPoints: [join(scratch, entry)],
    absWorkingDir: scratch,
    bundle: true,
    write: false,
    minify: true,
    logLevel: 'silent',
    ...options,
  });
  return result.outputFiles[0].text;
}

const workerBundle = (scratch, nodeCompat) => bundle(scratch, 'worker.mjs', workerdBuild(nodeCompat));

function workerdCase(nodeCompat) {
  return {
    name: `Cloudflare Workers (workerd${nodeCompat ? ', nodejs_compat' : ', no nodejs_compat'})`,
    version: () =>
      `workerd ${run(bin('workerd'), ['--version'], root)
        .trim()
        .replace(/^workerd /, '')}`,
    async scenario(scratch, input) {
      const script = await workerBundle(scratch, nodeCompat);
      const mf = new Miniflare({
        modules: true,
        script,
        compatibilityDate: '2025-09-01',
        compatibilityFlags: nodeCompat ? ['nodejs_compat'] : [],
      });
      try {
        const res = await mf.dispatchFetch('http://worker.test/', {
          method: 'POST',
          body: JSON.stringify(input),
        });
        return await res.json();
      } finally {
        await mf.dispose();
      }
    },
  };
}

// As Next.js bundles an edge route, run by edge-runtime.
const edgeCase = {
  name: 'Vercel Edge (edge-runtime)',
  version: () =>
    `edge-runtime ${JSON.parse(run(npm, ['pkg', 'get', 'version'], join(root, 'node_modules', 'edge-runtime')))}`,
  async scenario(scratch, input) {
    const initialCode = await bundle(scratch, 'edge.mjs', edgeLightBuild());
    const runtime = new EdgeRuntime({ initialCode });
    const res = await runtime.dispatchFetch('http://edge.test/', {
      method: 'POST',
      body: JSON.stringify(input),
    });
    await res.waitUntil();
    return await res.json();
  },
};

/** Every runtime the suite covers, in the order it runs them. */
export const CASES = [
  processCase('Node 20', () => process.execPath, ['cli.mjs']),
  processCase('Node 22', () => nodeBinary(22), ['cli.mjs']),
  processCase('Node 24', () => nodeBinary(24), ['cli.mjs']),
  processCase('Node 26', () => nodeBinary(26), ['cli.mjs']),
  processCase('Bun', () => bin('bun'), ['cli.mjs']),
  // No --allow-env: a client given every option must not read the environment.
  processCase('Deno', () => bin('deno'), [
    'run',
    '--no-prompt',
    '--allow-net=127.0.0.1',
    '--allow-read',
    'cli.mjs',
  ]),
  workerdCase(true),
  workerdCase(false),
  edgeCase,
];
