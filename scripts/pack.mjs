// Packs the package as npm would publish it and installs the tarball in a scratch project, with only
// the package's own dependencies (plus what the caller names). Used by check-package.mjs and the
// ecosystem suite.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const root = resolve(import.meta.dirname, '..');
export const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command and returns its stdout; a failure throws with its stderr. */
export const run = (cmd, args, cwd, options = {}) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options });

/**
 * Packs the package into a new scratch directory and installs the tarball there.
 * @param {{ prefix: string, extra?: string[] }} options `extra`: more packages to install beside it
 * @returns {{ scratch: string, files: string[], size: number }}
 */
export function packAndInstall({ prefix, extra = [] }) {
  const scratch = mkdtempSync(join(tmpdir(), prefix));
  const [packed] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', scratch], root));
  writeFileSync(
    join(scratch, 'package.json'),
    JSON.stringify({ name: 'scratch', private: true, type: 'module' }),
  );
  run(
    npm,
    ['install', '--no-audit', '--no-fund', '--prefer-offline', join(scratch, packed.filename), ...extra],
    scratch,
  );
  return { scratch, files: packed.files.map((f) => f.path), size: packed.size };
}

/** The `node` binary of a major version, installed from npm into .tmp/runtimes on first use
 * (npm packages; not dev dependencies, whose `node` bin would replace Node 20 in every npm script). */
export function nodeBinary(major) {
  const prefix = join(root, '.tmp', 'runtimes', `node${major}`);
  const path = join(prefix, 'node_modules', 'node', 'bin', 'node');
  if (!existsSync(path)) {
    mkdirSync(prefix, { recursive: true });
    run(npm, ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', prefix, `node@${major}`], root);
  }
  return path;
}
