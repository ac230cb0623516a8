#!/usr/bin/env node
// Until the packages are on npm: puts them into a project of yours from this clone, in one command.
// Installs the workspace (if node_modules is missing) and builds (if a package's dist/ is missing
// or older than its src/), packs every publishable package with pnpm into <project>/aqm-packages/
// (as `pnpm publish` packs them), then runs `npm install` in <project> with the named @aqm packages
// and the @aqm packages they depend on taken from that folder; other names come from the registry.
//
//   npx -y pnpm@10 install-into <project-dir> @aqm/otel [@aqm/... | other packages...]
//
// The project's package.json then refers to ./aqm-packages/*.tgz: keep that folder with it (or
// rerun this after pulling the clone). A project directory without package.json gets one.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installSpecs, packAll } from '../test/consumer/packing.mjs';
import { pnpmCommand, run } from '../test/consumer/tools.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const [target, ...names] = process.argv.slice(2).filter((a) => a !== '--');
if (!target || !names.some((n) => n.startsWith('@aqm/'))) {
  console.error('usage: npx -y pnpm@10 install-into <project-dir> @aqm/<package> [more packages...]');
  process.exit(2);
}
// `pnpm <script>` runs in the workspace root: a relative path is the caller's (INIT_CWD).
const project = resolve(process.env.INIT_CWD ?? process.cwd(), target);

/** Runs a step with its output shown; stops on failure. */
async function step(label, cmd, args, opts = {}) {
  console.log(`▶ ${label}`);
  const r = await run(cmd, args, opts);
  if (r.code !== 0) {
    console.error(`${r.output}\n✗ ${label} failed (exit ${r.code})`);
    process.exit(1);
  }
  return r;
}

const newest = (dir) => {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) t = Math.max(t, statSync(join(e.parentPath, e.name)).mtimeMs);
  return t;
};

if (!existsSync(join(ROOT, 'node_modules'))) {
  await step('installing the workspace (pnpm install)', ...pnpmCommand(['install', '--frozen-lockfile']), {
    cwd: ROOT,
  });
}
const stale = readdirSync(join(ROOT, 'packages')).filter((d) => {
  const dist = newest(join(ROOT, 'packages', d, 'dist'));
  return dist === 0 || newest(join(ROOT, 'packages', d, 'src')) > dist;
});
if (stale.length)
  await step(`building (${stale.join(', ')} not built or changed)`, ...pnpmCommand(['build']), { cwd: ROOT });

const dest = join(project, 'aqm-packages');
console.log(`▶ packing every package into ${dest}`);
const packed = await packAll(ROOT, dest);
mkdirSync(project, { recursive: true });
if (!existsSync(join(project, 'package.json'))) {
  const pkg = {
    name: basename(project)
      .toLowerCase()
      .replace(/[^a-z0-9._-]/g, '-'),
    version: '1.0.0',
    private: true,
  };
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  console.log(`  (wrote ${join(project, 'package.json')})`);
}
const specs = installSpecs(names, packed).map((s) => (s.endsWith('.tgz') ? `./${relative(project, s)}` : s));
await step(`npm install ${specs.join(' ')}`, 'npm', ['install', ...specs], { cwd: project });
const deps = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).dependencies ?? {};
console.log(
  `✓ in ${project}: ${Object.keys(deps)
    .filter((n) => n.startsWith('@aqm/'))
    .join(', ')}`,
);
