#!/usr/bin/env node
// The consumer test: aqm-js as users get it. Every publishable package is published by the release
// tooling (`changeset publish`, so `pnpm publish`, `workspace:` ranges rewritten) to a local
// registry this test starts (registry.mjs: Verdaccio, @aqm/* local, the rest proxied to the npm
// registry). Then fresh projects run each README's install line with **npm**, by name
// (`npm install @aqm/otel ...`), in the combinations of test/consumer/combos.mjs, in parallel, with
// one shared npm cache. An install fails on ERESOLVE, on any npm warning about peers, on an engine
// warning for an @aqm package, on an @aqm package that is not this run's publish, on a second copy
// of @opentelemetry/api or api-logs, or on a package that must be absent. Each project then runs
// its README example (ESM and CommonJS, on Node 20 and on Node 22) against the local service, itself installed by name and
// started through its `aqm-server` bin, and the test checks that the service stored the example's
// trace.
//
//   node test/consumer/run.mjs [--json <file>] [--only <combo,...>] [--keep]
//
// `--json` writes vitest-like counts (numPassedTests, numFailedTests) for scripts/test-all.mjs.
// dist/ must be built first. AQM_CONSUMER_NPM_CACHE overrides the shared cache directory. The
// packages are republished at the same version every run: the registry's storage is new each run,
// and npm revalidates every packument (--prefer-online) and fetches tarballs by integrity, so a
// cached @aqm tarball of an earlier run cannot be installed (the lockfile check below proves it).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { COMBOS } from './combos.mjs';
import { npmInstall } from './packing.mjs';
import { pnpmBin, publishAll, startRegistry } from './registry.mjs';
import { findCopies, footprint, nodeBinDir, run, userEnv } from './tools.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values: flags } = parseArgs({
  options: { json: { type: 'string' }, only: { type: 'string' }, keep: { type: 'boolean' } },
});
const started = Date.now();
const work = mkdtempSync(join(tmpdir(), 'aqm-consumer-'));
const cache = process.env.AQM_CONSUMER_NPM_CACHE ?? join(tmpdir(), 'aqm-consumer-npm-cache');
// Removed however the run ends (a failed pack or install throws), unless --keep.
process.on('exit', () => {
  if (flags.keep) return console.log(`kept ${work}`);
  try {
    rmSync(work, { recursive: true, force: true, maxRetries: 3 });
  } catch (error) {
    console.error(`could not remove ${work}: ${error.message}`);
  }
});
const results = [];
const record = (name, error) => {
  results.push({ name, error });
  console.log(error ? `✗ ${name}\n${indent(error)}` : `✓ ${name}`);
};
const indent = (text) => String(text).replace(/^/gm, '    ');

// Killed by a signal, still run the exit handlers: they remove the work folder and kill the registry.
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
])
  process.on(signal, () => process.exit(code));
// Node 22 (Verdaccio's, and the Node 22 combinations') and the registry, while pnpm is found.
const [[node22, registry], bin] = await Promise.all([
  nodeBinDir(22).then(async (dir) => [dir, await startRegistry(join(work, 'registry'), dir)]),
  pnpmBin(join(work, 'bin')),
]);
const { published } = await publishAll(ROOT, registry, bin, join(work, 'published'));
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;
console.log(`  note: registry started, packages published: ${elapsed()}`);
record(`publish: every publishable package published by changeset publish to ${registry.url}`, undefined);
for (const [name, { manifest }] of Object.entries(published)) {
  const raw = JSON.stringify(manifest);
  record(`publish: ${name} manifest has no workspace: range`, raw.includes('workspace:') ? raw : undefined);
}

const combos = flags.only ? COMBOS.filter((c) => flags.only.split(',').includes(c.name)) : COMBOS;
// Every npm (and the apps) sees the local registry through a temp userconfig, never ~/.npmrc.
const envFor = (combo) => ({
  ...userEnv(),
  ...registry.env,
  ...(combo.node === 22 ? { PATH: `${node22}:${process.env.PATH}` } : {}),
});

// The service project and the combinations install at once (npm is mostly waiting on the network).
const serviceDir = join(work, 'service');
const [service, ...installs] = await Promise.all([
  npmInstall(serviceDir, ['@aqm/server', '@aqm/client'], { env: envFor({}), cache }),
  ...combos.map((combo) => npmInstall(join(work, combo.name), combo.install, { env: envFor(combo), cache })),
]);
service.problems.push(...notThisRun(serviceDir));
for (const [i, combo] of combos.entries()) installs[i].problems.push(...notThisRun(join(work, combo.name)));
if (service.notes.length) console.log(`  note: service: npm EBADENGINE for ${service.notes.join(', ')}`);
if (service.problems.length)
  throw new Error(`installing @aqm/server failed: ${service.problems.join('; ')}\n${service.output}`);

const apiKey = `consumer-${randomUUID()}`;
const server = spawn(
  join(serviceDir, 'node_modules', '.bin', 'aqm-server'),
  ['--port', '0', '--api-key', apiKey],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const baseUrl = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const m = /export AQM_BASE_URL=(\S+)/.exec(out);
    if (m) resolve(m[1]);
  });
  server.once('exit', (code) => reject(new Error(`aqm-server exited with ${code}: ${out}`)));
});
console.log(`  note: every project installed: ${elapsed()}`);
record('service: @aqm/server installed by name, started by its aqm-server bin', undefined);
const { AqmClient } = createRequire(join(serviceDir, 'package.json'))('@aqm/client');
const client = new AqmClient({ apiKey, baseUrl });

try {
  await Promise.all(
    combos.map(async (combo, i) => {
      const dir = join(work, combo.name);
      const { problems } = installs[i];
      let { output } = installs[i];
      if (combo.dedupe && problems.length === 0) {
        const deduped = await run(
          'npm',
          ['dedupe', '--no-audit', '--no-fund', '--prefer-online', '--cache', cache],
          {
            cwd: dir,
            env: envFor(combo),
          },
        );
        output += deduped.output;
        if (deduped.code !== 0) problems.push(`npm dedupe exited with ${deduped.code}`);
      }
      const sizes = footprint(dir);
      const copies = ['@opentelemetry/api', '@opentelemetry/api-logs'].map((n) => [n, findCopies(dir, n)]);
      for (const [n, all] of copies) {
        if (combo.duplicatesExpected?.includes(n)) {
          // The combination under test: the copies must be there, or it tests nothing.
          if (all.length < 2) problems.push(`expected several copies of ${n}, found ${all.join(', ')}`);
          continue;
        }
        const allowedUnder = combo.duplicatesUnder?.[n];
        const found = all.filter((p) => !allowedUnder || !p.includes(`node_modules/${allowedUnder}/`));
        if (found.length > 1) problems.push(`${found.length} copies of ${n}: ${found.join(', ')}`);
      }
      for (const n of combo.absent ?? [])
        if (existsSync(join(dir, 'node_modules', n))) problems.push(`${n} installed`);
      if (installs[i].notes.length)
        console.log(
          `  note: ${combo.name}: npm EBADENGINE on Node ${process.versions.node.split('.')[0]} for ${installs[i].notes.join(', ')}`,
        );
      record(
        `install ${combo.name} (npm install ${combo.install.join(' ')}): ${sizes.packages} packages, ${(sizes.bytes / 1e6).toFixed(1)} MB`,
        problems.length ? `${problems.join('\n')}\n${output}` : undefined,
      );
      if (problems.length) return;
      // Every file of the combination's folder: an app may require a helper beside it.
      cpSync(join(ROOT, 'test', 'consumer', 'apps', combo.name), dir, { recursive: true });
      // Each app on both supported Node lines (an install is the same for both: no native code),
      // except a combination that needs Node 22.
      const lines = combo.node === 22 ? [22] : [20, 22];
      for (const [line, app] of lines.flatMap((l) => combo.apps.map((a) => [l, a]))) {
        const {
          file,
          nodeArgs = [],
          env: appEnv = {},
          stderr,
        } = typeof app === 'string' ? { file: app } : app;
        const appName = `consumer-${combo.name}-${file}-node${line}-${randomUUID()}`;
        const application = await client.applications.create({ name: appName });
        const env = {
          ...envFor({ node: line }),
          AQM_API_KEY: apiKey,
          AQM_BASE_URL: baseUrl,
          AQM_APPLICATION_ID: application.id,
          OTEL_LOG_LEVEL: 'warn',
        };
        if (nodeArgs.length) {
          delete env.AQM_APPLICATION_ID; // @aqm/auto's README path: the application found by name
          env.AQM_APPLICATION_NAME = appName;
        }
        for (const [key, value] of Object.entries(appEnv)) {
          if (value === null) delete env[key];
          else env[key] = value;
        }
        const r = await run('node', [...nodeArgs, file], { cwd: dir, env, timeoutMs: 60_000 });
        record(
          `run ${combo.name}/${file} (Node ${line})`,
          checkStderr(r, stderr) ?? (await check(r, application.id)),
        );
      }
    }),
  );
} finally {
  await client.close();
  server.kill('SIGTERM');
  registry.stop();
}

/**
 * Problems with the @aqm packages npm installed in `dir`: each must come from the local registry
 * with the integrity of this run's publish (not a cached tarball of an earlier run).
 */
function notThisRun(dir) {
  const lockFile = join(dir, 'package-lock.json');
  if (!existsSync(lockFile)) return ['no package-lock.json'];
  const problems = [];
  for (const [path, entry] of Object.entries(JSON.parse(readFileSync(lockFile, 'utf8')).packages)) {
    const name = /node_modules\/(@aqm\/[^/]+)$/.exec(path)?.[1];
    if (!name) continue;
    const p = published[name];
    if (!p) problems.push(`${path}: ${name} is not a published package`);
    else if (entry.resolved !== p.tarball || entry.integrity !== p.integrity)
      problems.push(
        `${path}: ${entry.resolved} ${entry.integrity}, not this run's ${p.tarball} ${p.integrity}`,
      );
  }
  return problems;
}

/**
 * Undefined when the app's stderr is what its combination expects: `[]` nothing, else each listed
 * text on some line. No expectation (`undefined`): anything goes.
 */
function checkStderr(r, expected) {
  if (expected === undefined) return undefined;
  if (expected.length === 0) return r.stderr === '' ? undefined : `expected nothing on stderr\n${r.output}`;
  const missing = expected.filter((text) => !r.stderr.includes(text));
  return missing.length === 0 ? undefined : `stderr lacks ${JSON.stringify(missing)}\n${r.output}`;
}

/**
 * Undefined when the app succeeded and the service holds a trace with the prompt it printed. An
 * empty prompt says the app's setup loses the content: then every trace must have an empty prompt.
 */
async function check(r, applicationId) {
  if (r.code !== 0) return `exit ${r.code}\n${r.output}`;
  const line = r.stdout.trim().split('\n').at(-1);
  let printed;
  try {
    printed = JSON.parse(line);
  } catch {
    return `no JSON line at the end of the output\n${r.output}`;
  }
  const appId = printed.applicationId ?? applicationId;
  const { data } = await client.traces.list(appId, { limit: 10 });
  if (printed.prompt === '' && data.some((t) => t.prompt !== '')) {
    return `expected only traces with an empty prompt, got ${JSON.stringify(data.map((t) => t.prompt))}\n${r.output}`;
  }
  const matching = data.filter((t) => typeof t.prompt === 'string' && t.prompt.includes(printed.prompt));
  if (matching.length === 0) {
    return `no trace with prompt ${JSON.stringify(printed.prompt)} in the service (got ${JSON.stringify(data.map((t) => t.prompt))})\n${r.output}`;
  }
  // Apps that say how many traces their prompt makes: one interaction seen twice is a duplicate.
  if (printed.traces !== undefined && matching.length !== printed.traces) {
    return `${matching.length} traces with prompt ${JSON.stringify(printed.prompt)}, expected ${printed.traces}\n${r.output}`;
  }
  return undefined;
}

const failed = results.filter((r) => r.error).length;
const seconds = ((Date.now() - started) / 1000).toFixed(0);
console.log(`consumer test: ${results.length - failed} passed, ${failed} failed in ${seconds} s`);
if (flags.json) {
  writeFileSync(
    flags.json,
    JSON.stringify({ numPassedTests: results.length - failed, numFailedTests: failed }),
  );
}
process.exit(failed ? 1 : 0);
