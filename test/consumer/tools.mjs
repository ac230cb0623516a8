// Helpers of the consumer test and of scripts/install-footprint.mjs: processes, the pnpm and Node 22
// commands, and what an npm install left in node_modules.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Runs a command; resolves with its exit code and output (never rejects). */
export function run(cmd, args, { cwd, env, timeoutMs = 600_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, stdout, stderr, output: `${stdout}${stderr}${error.message}` });
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stdout, stderr, output: `${stdout}${stderr}` });
    });
  });
}

/** The file name `pnpm pack` gives a package's tarball: `@aqm/otel` 1.2.0 → `aqm-otel-1.2.0.tgz`. */
export function tarballName(pkg) {
  return `${pkg.name.replace('@', '').replace('/', '-')}-${pkg.version}.tgz`;
}

/** The package.json inside a package tarball, parsed. */
export function manifestInTarball(file) {
  return JSON.parse(spawnSync('tar', ['-xOzf', file, 'package/package.json'], { encoding: 'utf8' }).stdout);
}

/**
 * This process's environment as a user's fresh shell would have it: without the `npm_*` variables
 * that `npx` and `pnpm` set for the scripts they run (`npm_config_overrides` from the workspace,
 * `npm_config_omit_lockfile_registry_resolved`, ...), which npm in the fresh projects would obey.
 */
export function userEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

/** The pnpm that runs this script (under `pnpm test`), else pnpm 10 through npx. */
export function pnpmCommand(args) {
  const execPath = process.env.npm_execpath;
  if (execPath?.includes('pnpm')) return [process.execPath, [execPath, ...args]];
  return ['npx', ['-y', 'pnpm@10', ...args]];
}

/** The directory of a Node `major` binary from the npm registry (the `node` package), for PATH. */
export async function nodeBinDir(major) {
  const r = await run('npx', ['-y', '-p', `node@${major}`, '--', 'node', '-p', 'process.execPath']);
  if (r.code !== 0) throw new Error(`could not obtain Node ${major} from the npm registry:\n${r.output}`);
  return dirname(r.stdout.trim());
}

/** Every installed package directory under `dir`/node_modules, nested ones included. */
export function installedPackages(dir) {
  const found = [];
  const walk = (nodeModules) => {
    if (!existsSync(nodeModules)) return;
    for (const entry of readdirSync(nodeModules)) {
      if (entry.startsWith('.')) continue;
      const dirs = entry.startsWith('@')
        ? readdirSync(join(nodeModules, entry)).map((e) => join(nodeModules, entry, e))
        : [join(nodeModules, entry)];
      for (const pkgDir of dirs) {
        if (!existsSync(join(pkgDir, 'package.json'))) continue;
        found.push(pkgDir);
        walk(join(pkgDir, 'node_modules'));
      }
    }
  };
  walk(join(dir, 'node_modules'));
  return found;
}

/** Where `name` is installed under `dir` (more than one: duplicate copies). */
export function findCopies(dir, name) {
  return installedPackages(dir)
    .filter((p) => p.endsWith(join('node_modules', name)))
    .map((p) => p.slice(dir.length + 1));
}

/** Size of node_modules (`du -sb`) and the number of packages in it. */
export function footprint(dir) {
  const du = spawnSync('du', ['-sb', join(dir, 'node_modules')], { encoding: 'utf8' });
  return { bytes: Number.parseInt(du.stdout, 10) || 0, packages: installedPackages(dir).length };
}
