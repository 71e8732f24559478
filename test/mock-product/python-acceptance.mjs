// Runs test/mock-product/acceptance.py (Python's standard library, HTTP only) against the bin of a
// scratch project where the packed tarball is installed. Without python3 on the machine it is
// skipped with a message. Called by scripts/check-mock-product.mjs; runnable by hand:
//
//   node test/mock-product/python-acceptance.mjs <scratch project>
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';

/** python3's version, or null when this machine has none. */
function python() {
  try {
    return execFileSync('python3', ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}

/** Starts the installed bin, runs the Python script against it, stops the bin. Throws on a failure. */
export async function checkPythonAcceptance(scratch) {
  const version = python();
  if (!version) {
    console.log('python acceptance: skipped (no python3 on this machine)');
    return;
  }
  const bin = join(scratch, 'node_modules', '.bin', 'partner-payments-mock');
  const child = spawn(bin, ['--port', '0', '--no-auto'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  try {
    const base = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the bin did not start:\n${out}`)), 30_000);
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const match = /PAYMENTS_BASE_URL=(\S+)/.exec(out);
        if (match && out.includes('Press Ctrl+C')) {
          clearTimeout(timer);
          resolve(match[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`the bin exited with ${code}:\n${out}`)));
    });
    const script = join(import.meta.dirname, 'acceptance.py');
    const result = execFileSync('python3', [script, base], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    console.log(`${result.trim()} [${version}]`);
  } catch (error) {
    throw new Error(`python acceptance failed: ${error.stderr || error.message}`);
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv[1] === import.meta.filename) {
  const scratch = process.argv[2];
  if (!scratch) throw new Error('usage: node test/mock-product/python-acceptance.mjs <scratch project>');
  await checkPythonAcceptance(scratch);
}
