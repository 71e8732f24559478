import { spawn } from 'node:child_process';
import { join } from 'node:path';

const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');

/** Starts the bin from source; `ready` resolves with its banner. */
export function startBin(args: string[]) {
  const child = spawn(tsx, ['src/cli/mock/bin.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('Press Ctrl+C')) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`bin exited with ${code} before ready: ${out}`)));
  });
  ready.catch(() => undefined);
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, ready, exited, output: () => out, errors: () => err };
}
