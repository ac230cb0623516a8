#!/usr/bin/env node
// Lints every publishable package the way a consumer would meet it: publint for the
// package.json/exports map, are-the-types-wrong for ESM, CJS and node16 type resolution, and the
// manifest rules below (scripts/package-rules.mjs), on the package.json and on the manifest
// `pnpm pack` makes of it (as `pnpm publish` would publish it).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { manifestProblems, packedProblems } from './package-rules.mjs';

const pnpm = process.env.npm_execpath?.includes('pnpm')
  ? [process.execPath, process.env.npm_execpath]
  : ['npx', '-y', 'pnpm@10'];
const dirs = readdirSync('packages', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => join('packages', d.name));
const packDir = mkdtempSync(join(tmpdir(), 'aqm-check-packages-'));
let failed = 0;
const report = (label, problems) => {
  if (problems.length) {
    failed++;
    console.error(`✗ ${label}\n${problems.map((p) => `    ${p}`).join('\n')}`);
  } else {
    console.log(`✓ ${label}`);
  }
};
try {
  for (const dir of dirs) {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    if (pkg.private) continue;
    for (const [cmd, args] of [
      ['publint', ['run', '--strict', dir]],
      ['attw', ['--pack', dir, '--profile', 'node16', '--format', 'table-flipped']],
    ]) {
      const r = spawnSync(join('node_modules', '.bin', cmd), args, { encoding: 'utf8' });
      report(`${cmd} ${pkg.name}`, r.status !== 0 ? [`${r.stdout}${r.stderr}`] : []);
    }
    report(`manifest rules ${pkg.name}`, manifestProblems(dir, pkg));
    const r = spawnSync(pnpm[0], [...pnpm.slice(1), 'pack', '--pack-destination', packDir], {
      cwd: dir,
      encoding: 'utf8',
    });
    const tarball = r.stdout.trim().split('\n').at(-1);
    const packed =
      r.status === 0 ? spawnSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }) : r;
    report(
      `packed manifest ${pkg.name}`,
      packed.status === 0 ? packedProblems(JSON.parse(packed.stdout)) : [`pnpm pack failed: ${r.stderr}`],
    );
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
