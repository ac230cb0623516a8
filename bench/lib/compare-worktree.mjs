// The builds `bench/compare.mjs` measures: one detached git worktree per commit, cached by its full
// sha under a folder outside the repository, installed and built once (a marker file says the build
// finished, so an interrupted build is redone, not trusted). The special side WORKTREE is the current
// checkout as it is, with its built dist.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';

const MARKER = '.bench-compare-built';
export const HARNESS = '.bench-harness';
/** What the harness's children import from the measured tree's node_modules, per variant. */
const NEEDS = {
  ours: ['@aqm/otel', '@opentelemetry/api', '@opentelemetry/sdk-trace-node'],
  bare: ['@opentelemetry/api', '@opentelemetry/sdk-trace-node'],
  otlp: [
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/sdk-trace-node',
  ],
  'otlp-noloss': [
    '@opentelemetry/exporter-trace-otlp-http',
    '@opentelemetry/sdk-trace-base',
    '@opentelemetry/sdk-trace-node',
  ],
  langfuse: ['@langfuse/otel', '@opentelemetry/sdk-trace-node'],
};

/** Runs git in `cwd`; its trimmed output, or throws with git's message. */
export function git(cwd, ...args) {
  const out = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (out.status !== 0)
    throw new Error(`git ${args.join(' ')}: ${out.stderr.trim() || `exit ${out.status}`}`);
  return out.stdout.trim();
}

/**
 * Runs a command with its output kept (not printed); on failure prints the output's tail and throws.
 * The npm_* variables npx or pnpm may have set (e.g. when run as a package script) are left out: they
 * would configure the install in the other tree.
 */
function quietly(cwd, command, args, log) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  const started = performance.now();
  const out = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  if (out.status !== 0) {
    const text = `${out.stdout ?? ''}${out.stderr ?? ''}`;
    console.error(text.slice(-6000));
    throw new Error(
      `${command} ${args.join(' ')} failed in ${cwd} (${out.error?.message ?? `exit ${out.status}`})`,
    );
  }
  log(`  ${command} ${args.join(' ')}: ${seconds} s`);
}

/**
 * Installs and builds the packages the bench imports in `dir`: @aqm/otel and the workspace packages it
 * depends on (`--filter @aqm/otel...`), or every package with `all`.
 */
function installAndBuild(dir, build, log) {
  quietly(dir, 'npx', ['-y', 'pnpm@10', 'install', '--frozen-lockfile', '--prefer-offline'], log);
  const args =
    build === 'all' ? ['-y', 'pnpm@10', 'build'] : ['-y', 'pnpm@10', '--filter', '@aqm/otel...', 'build'];
  quietly(dir, 'npx', args, log);
}

/**
 * A side to measure: `{ label, sha, dir, harness }` where `dir` is the tree whose build is measured and
 * `harness` the bench folder whose children run there.
 * @param {{ repo: string, bench: string, rev: string, cacheDir: string, build: 'otel' | 'all',
 *   log: (line: string) => void }} options `repo`: the current checkout's top; `bench`: its bench folder.
 */
export function prepareSide({ repo, bench, rev, cacheDir, build, log }) {
  if (rev === 'WORKTREE') {
    const head = git(repo, 'rev-parse', '--short', 'HEAD');
    const dirty = git(repo, 'status', '--porcelain', '--', 'packages') !== '';
    const label = `WORKTREE (${head}${dirty ? ' + uncommitted changes in packages/' : ''})`;
    if (!existsSync(join(repo, 'packages/otel/dist/index.js'))) {
      log(`${label}: packages/otel/dist is missing, building it`);
      installAndBuild(repo, build, log);
    } else warnIfStale(repo, log);
    return { label, sha: head, dir: repo, harness: bench };
  }
  let sha;
  try {
    sha = git(repo, 'rev-parse', '--verify', '--quiet', `${rev}^{commit}`);
  } catch {
    throw new Error(`${rev} is no commit git knows here (a sha, branch, tag or HEAD~n, or WORKTREE)`);
  }
  const short = sha.slice(0, 7);
  const subject = git(repo, 'log', '-1', '--format=%s', sha);
  const dir = join(cacheDir, sha);
  if (existsSync(dir)) {
    let at = '';
    try {
      at = git(dir, 'rev-parse', 'HEAD');
    } catch {}
    if (at !== sha) {
      throw new Error(
        `${dir} exists but is not a worktree at ${short}: remove it (git worktree remove --force ${dir})`,
      );
    }
  } else {
    mkdirSync(cacheDir, { recursive: true });
    log(`${short}: git worktree add --detach ${dir}`);
    git(repo, 'worktree', 'add', '--detach', dir, sha);
  }
  if (!existsSync(join(dir, MARKER)) || !existsSync(join(dir, 'packages/otel/dist'))) {
    log(
      `${short}: installing and building (${build === 'all' ? 'every package' : '@aqm/otel and its deps'})`,
    );
    rmSync(join(dir, MARKER), { force: true });
    installAndBuild(dir, build, log);
    writeFileSync(join(dir, MARKER), `${JSON.stringify({ sha, build, at: new Date().toISOString() })}\n`);
  }
  // The current bench code measures every side: a fresh copy each invocation, inside the tree so
  // that its imports resolve to that tree's node_modules (its @aqm/otel, its OpenTelemetry).
  const harness = join(dir, HARNESS);
  rmSync(harness, { recursive: true, force: true });
  cpSync(bench, harness, {
    recursive: true,
    filter: (source) => !source.startsWith(join(bench, 'profiles')),
  });
  return { label: `${short} ${subject.slice(0, 60)}`, sha, dir, harness };
}

/** The variants of `wanted` the side's tree cannot import (a package missing from its node_modules). */
export function missingPackages(dir, variant) {
  return (NEEDS[variant] ?? NEEDS.ours).filter(
    (name) => !existsSync(join(dir, 'node_modules', name, 'package.json')),
  );
}

/** Where the side's @aqm/otel really lives, for checking the child loaded that one. */
export function otelPackageDir(dir) {
  return realpathSync(join(dir, 'packages/otel'));
}

/** Says so when the current checkout's otel sources are newer than its dist (a rebuild is due). */
function warnIfStale(repo, log) {
  const dist = statSync(join(repo, 'packages/otel/dist/index.js')).mtimeMs;
  const newest = (folder) => {
    let latest = 0;
    for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
      if (entry.isFile())
        latest = Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
    }
    return latest;
  };
  const src = Math.max(...['otel', 'client', 'wire'].map((p) => newest(join(repo, 'packages', p, 'src'))));
  if (src > dist) {
    log(
      'WORKTREE: sources in packages/otel, client or wire are newer than packages/otel/dist: this measures',
    );
    log('  the old build; rebuild first (npx -y pnpm@10 --filter @aqm/otel... build)');
  }
}
