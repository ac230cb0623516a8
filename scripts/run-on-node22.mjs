#!/usr/bin/env node
// Runs a command from node_modules/.bin under Node 22, fetched from the npm registry
// (the `node` package), so CI covers both supported lines on a machine that has only Node 20.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const [tool, ...args] = process.argv.slice(2);
if (!tool) {
  console.error('usage: run-on-node22.mjs <bin> [args...]');
  process.exit(2);
}
const entry = {
  vitest: join('node_modules', 'vitest', 'vitest.mjs'),
}[tool];
if (!entry || !existsSync(entry)) {
  console.error(`run-on-node22: unknown or missing tool "${tool}"`);
  process.exit(2);
}
const version = spawnSync('npx', ['-y', '-p', 'node@22', '--', 'node', '--version'], { encoding: 'utf8' });
if (version.status !== 0) {
  console.error('run-on-node22: could not obtain Node 22 from the npm registry');
  console.error(version.stderr);
  process.exit(1);
}
console.log(`run-on-node22: using Node ${version.stdout.trim()}`);
const run = spawnSync('npx', ['-y', '-p', 'node@22', '--', 'node', entry, ...args], { stdio: 'inherit' });
process.exit(run.status ?? 1);
