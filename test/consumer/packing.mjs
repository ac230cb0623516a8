// Packing and installing as users get the packages: npm installs into fresh projects (the consumer
// test's, by name from its local registry), and tarballs from `pnpm pack` (as `pnpm publish` packs
// them) for scripts/install-footprint.mjs.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { manifestInTarball, pnpmCommand, run, tarballName } from './tools.mjs';

/** Packs every publishable package with pnpm; returns name -> { tarball, manifest }. */
export async function packAll(root, dest) {
  mkdirSync(dest, { recursive: true });
  const dirs = readdirSync(join(root, 'packages')).map((d) => join(root, 'packages', d));
  const packed = {};
  await Promise.all(
    dirs.map(async (dir) => {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      if (pkg.private) return;
      const [cmd, args] = pnpmCommand(['pack', '--pack-destination', dest]);
      const r = await run(cmd, args, { cwd: dir });
      if (r.code !== 0) throw new Error(`pnpm pack ${pkg.name} failed:\n${r.output}`);
      const tarball = join(dest, tarballName(pkg));
      packed[pkg.name] = { tarball, manifest: manifestInTarball(tarball) };
    }),
  );
  return packed;
}

/** The install specs for a README's package list: @aqm names become tarballs, with their @aqm deps. */
export function installSpecs(names, packed) {
  const specs = new Set();
  const addAqm = (name) => {
    const p = packed[name];
    if (!p) throw new Error(`${name} is not a packed package`);
    if (specs.has(p.tarball)) return;
    specs.add(p.tarball);
    for (const dep of Object.keys(p.manifest.dependencies ?? {})) if (dep.startsWith('@aqm/')) addAqm(dep);
  };
  for (const name of names) name.startsWith('@aqm/') ? addAqm(name) : specs.add(name);
  return [...specs];
}

/**
 * npm install into a fresh project. Returns the problems found (empty when clean), npm's output, and
 * notes: engine warnings for third-party packages, shown but not failing.
 */
export async function npmInstall(dir, specs, { env = process.env, cache }) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'consumer', version: '1.0.0', private: true })}\n`,
  );
  // --prefer-online: every packument is revalidated, so a cached one of an earlier run (the consumer
  // test republishes the same versions to a new local registry each run) is never used.
  const r = await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-online', '--cache', cache, ...specs],
    { cwd: dir, env },
  );
  const problems = [];
  if (r.code !== 0) problems.push(`npm install exited with ${r.code}`);
  if (/ERESOLVE/.test(r.output)) problems.push('ERESOLVE');
  const warnings = r.output.split('\n').filter((l) => /^npm warn/i.test(l));
  const peerWarnings = warnings.filter((l) => /peer|ERESOLVE|override/i.test(l));
  if (peerWarnings.length) problems.push(`npm warnings about peers:\n${peerWarnings.join('\n')}`);
  // An engine warning for one of ours fails; one for a third-party package is shown (see notes).
  if (/EBADENGINE\s+package: '@aqm\//.test(r.output)) problems.push('npm EBADENGINE for an @aqm package');
  const notes = [
    ...new Set(
      warnings
        .filter((l) => /EBADENGINE\s+package:/.test(l))
        .map((l) => l.replace(/^npm warn EBADENGINE\s+/i, '')),
    ),
  ];
  return { problems, output: r.output, notes };
}
