#!/usr/bin/env node
// Every check and every test, as CI runs them: build, lint/typecheck/package checks, the consumer
// test (every package published to a local registry, installed by name with npm into fresh projects,
// README examples run; once, test/consumer/run.mjs), then the whole vitest suite on Node 20 (this Node) and on Node 22 (from
// the npm registry). Ends on one line "tests: N passed, N failed" summing all runs, and exits
// non-zero on any failure.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const pnpm = process.env.npm_execpath?.includes('pnpm')
  ? [process.execPath, process.env.npm_execpath]
  : ['pnpm'];
function run(label, cmd, args) {
  console.log(`\n▶ ${label}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) {
    console.error(`✗ ${label} failed (exit ${r.status ?? r.signal})`);
    console.log('tests: 0 passed, 1 failed');
    process.exit(1);
  }
}
const pn = (args) => [pnpm[0], [...pnpm.slice(1), ...args]];

run('build', ...pn(['build']));
run('lint, typecheck, package checks', ...pn(['check']));

mkdirSync('.test-results', { recursive: true });
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedRuns = 0;
for (const [label, runner] of [
  ['consumer test (npm install by name)', [process.execPath, [join('test', 'consumer', 'run.mjs')]]],
  ['tests on Node 20', [process.execPath, [join('node_modules', 'vitest', 'vitest.mjs')]]],
  ['tests on Node 22', [process.execPath, [join('scripts', 'run-on-node22.mjs'), 'vitest']]],
]) {
  const out = join('.test-results', `${label.replace(/\W+/g, '-')}.json`);
  rmSync(out, { force: true }); // a run that writes nothing must not be counted from a stale file
  console.log(`\n▶ ${label}`);
  const consumer = runner[1][0].endsWith('run.mjs');
  const r = spawnSync(
    runner[0],
    consumer
      ? [...runner[1], '--json', out]
      : [...runner[1], 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`],
    {
      stdio: 'inherit',
    },
  );
  if (r.status !== 0) failedRuns++;
  try {
    const json = JSON.parse(readFileSync(out, 'utf8'));
    totals.passed += json.numPassedTests;
    totals.failed += json.numFailedTests;
    totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
  } catch {
    failedRuns++;
  }
}
console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedRuns || totals.failed ? 1 : 0);
