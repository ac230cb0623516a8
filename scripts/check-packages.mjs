#!/usr/bin/env node
// Lints every publishable package the way a consumer would meet it: publint for the
// package.json/exports map, and are-the-types-wrong for ESM, CJS and node16 type resolution.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dirs = readdirSync('packages', { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => join('packages', d.name));
let failed = 0;
for (const dir of dirs) {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (pkg.private) continue;
  for (const [cmd, args] of [
    ['publint', ['run', '--strict', dir]],
    ['attw', ['--pack', dir, '--profile', 'node16', '--format', 'table-flipped']],
  ]) {
    const r = spawnSync(join('node_modules', '.bin', cmd), args, { encoding: 'utf8' });
    if (r.status !== 0) {
      failed++;
      console.error(`✗ ${cmd} ${pkg.name}\n${r.stdout}${r.stderr}`);
    } else {
      console.log(`✓ ${cmd} ${pkg.name}`);
    }
  }
}
process.exit(failed ? 1 : 0);
