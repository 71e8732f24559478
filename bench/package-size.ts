/**
 * What a production install carries: the tarball npm downloads, what it unpacks to, and the
 * installed tree with its dependencies (`npm install --omit=dev --omit=peer` in a scratch project),
 * for this package (packed from the build) and for stripe's SDK (the version in node_modules,
 * packed from its folder without its scripts, so the figures need no network beyond the install's cache).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** One package's sizes, in bytes. */
export interface PackageSize {
  name: string;
  version: string;
  /** The .tgz npm downloads. */
  tarball: number;
  /** The package's own files, unpacked. */
  unpacked: number;
  files: number;
  /** node_modules after installing the tarball with its dependencies (no dev, no optional peer). */
  installed: number;
  /** Packages in that node_modules, itself included. */
  packages: number;
  /** The part of `unpacked` that is source maps. */
  maps: number;
}

/** Bytes of every file under `dir` (links not followed). */
function du(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += du(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

/** Packs the package in `folder`, installs the tarball alone in a scratch project and measures both. */
export function packageSize(folder: string): PackageSize {
  const scratch = mkdtempSync(join(tmpdir(), 'package-size-'));
  try {
    const run = (args: string[], cwd: string) =>
      execFileSync(npm, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const [packed] = JSON.parse(
      run(['pack', folder, '--json', '--ignore-scripts', '--pack-destination', scratch], scratch),
    );
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
    const install = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--omit=dev', '--omit=peer'];
    run([...install, join(scratch, packed.filename)], scratch);
    const modules = join(scratch, 'node_modules');
    const packages = readdirSync(modules).flatMap((name) =>
      name.startsWith('@') ? readdirSync(join(modules, name)) : name.startsWith('.') ? [] : [name],
    ).length;
    return {
      name: packed.name,
      version: packed.version,
      tarball: packed.size,
      unpacked: packed.unpackedSize,
      files: packed.entryCount,
      installed: du(modules),
      packages,
      maps: packed.files
        .filter((f: { path: string }) => f.path.endsWith('.map'))
        .reduce((sum: number, f: { size: number }) => sum + f.size, 0),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** This package (from the build) beside stripe's. */
export function packageSizes(): PackageSize[] {
  return [packageSize(root), packageSize(join(root, 'node_modules', 'stripe'))];
}
