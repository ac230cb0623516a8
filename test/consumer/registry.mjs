// The consumer test's local npm registry: Verdaccio (a root devDependency, run under Node 22) on a
// free loopback port with storage in the test's temp folder. @aqm/* are served only from it (never
// looked up upstream), published by the project's release tooling (`changeset publish`, which runs
// `pnpm publish` and so rewrites workspace: ranges); everything else is proxied to the npm registry.
// npm and pnpm get the registry and a token through a temp userconfig, so the user's ~/.npmrc is
// neither read nor written and nothing reaches the real registry's publish endpoint.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { manifestInTarball, pnpmCommand, run, tarballName } from './tools.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const UPSTREAM = 'https://registry.npmjs.org/';

/**
 * Starts Verdaccio under `node22Dir`/node with its config, storage and users in `dir`, and a user
 * of its own. Resolves once it answers, with `env` (npm_config_registry and npm_config_userconfig
 * for every npm and pnpm child) and `stop()`. The process is killed when this process exits, however.
 */
export async function startRegistry(dir, node22Dir) {
  mkdirSync(join(dir, 'storage'), { recursive: true });
  const config = {
    storage: join(dir, 'storage'),
    // sha1: bcrypt (the default) costs ~1 s of CPU per authenticated request, and this user is throwaway.
    auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 1, algorithm: 'sha1' } },
    // A failing upstream must not be marked offline for minutes in the middle of a run; its tarballs
    // pass through unstored (npm's cache keeps them across runs, by integrity).
    uplinks: {
      npmjs: { url: UPSTREAM, timeout: '60s', max_fails: 20, fail_timeout: '5s', cache: false },
    },
    packages: {
      '@aqm/*': { access: '$all', publish: '$authenticated', unpublish: '$authenticated' },
      '**': { access: '$all', publish: 'nobody', proxy: 'npmjs' },
    },
    web: { enable: false },
    max_body_size: '100mb',
    log: { type: 'stdout', format: 'json', level: 'warn' },
  };
  const configFile = join(dir, 'config.yaml');
  writeFileSync(configFile, JSON.stringify(config, null, 2)); // JSON is YAML
  const child = spawn(join(node22Dir, 'node'), [join(HERE, 'verdaccio.mjs'), configFile], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = () => child.exitCode === null && child.signalCode === null && child.kill('SIGKILL');
  process.prependListener('exit', kill); // before the handler that removes its storage folder
  let log = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Verdaccio did not start in 60 s:\n${log}`)), 60_000);
    child.stderr.on('data', (c) => (log += c));
    child.stdout.on('data', (c) => {
      log += c;
      const m = /listening (\S+)/.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`Verdaccio exited (${code ?? signal}):\n${log}`));
    });
  });
  const token = await addUser(url);
  const userconfig = join(dir, 'npmrc');
  writeFileSync(userconfig, `registry=${url}\n${url.replace(/^https?:/, '')}:_authToken=${token}\n`, {
    mode: 0o600,
  });
  return {
    url,
    env: { npm_config_registry: url, npm_config_userconfig: userconfig },
    log: () => log,
    stop: () => {
      kill();
      process.off('exit', kill);
    },
  };
}

/** Creates the registry's one user (htpasswd, in the temp folder); returns its token. */
async function addUser(url) {
  const name = 'aqm-consumer-test';
  const res = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: randomUUID(), type: 'user', roles: [] }),
  });
  const body = await res.json().catch(() => ({}));
  if (!res.ok || !body.token)
    throw new Error(`adding a user to Verdaccio: ${res.status} ${JSON.stringify(body)}`);
  return body.token;
}

/**
 * A folder holding a `pnpm` for changeset publish, which runs `pnpm --version` and `pnpm publish`
 * once per package: the pnpm running this test, else pnpm 10's bin found once through npx (an npx
 * per call costs seconds each). Resolves with the folder, to put first on PATH.
 */
export async function pnpmBin(dir) {
  mkdirSync(dir, { recursive: true });
  let [cmd, args] = pnpmCommand([]);
  if (cmd === 'npx') {
    const where = await run('npx', ['-y', '-p', 'pnpm@10', '--', 'sh', '-c', 'command -v pnpm']);
    if (where.code !== 0) throw new Error(`could not obtain pnpm 10 through npx:\n${where.output}`);
    [cmd, args] = [where.stdout.trim(), []];
  }
  const quote = (s) => `'${s.replaceAll("'", "'\\''")}'`;
  writeFileSync(join(dir, 'pnpm'), `#!/bin/sh\nexec ${[cmd, ...args].map(quote).join(' ')} "$@"\n`);
  chmodSync(join(dir, 'pnpm'), 0o755);
  return dir;
}

/**
 * Publishes every package of the workspace as a release would: `changeset publish` (no git tags),
 * with `bin` (pnpmBin) first on PATH. Then reads back what the registry serves for each publishable
 * package: name -> { manifest (the package.json inside the served tarball), integrity, tarball }.
 */
export async function publishAll(root, registry, bin, dir) {
  mkdirSync(dir, { recursive: true });
  const r = await run(
    process.execPath,
    [join(root, 'node_modules', '@changesets', 'cli', 'bin.js'), 'publish', '--no-git-tag'],
    { cwd: root, env: { ...process.env, ...registry.env, PATH: `${bin}:${process.env.PATH}` } },
  );
  if (r.code !== 0) throw new Error(`changeset publish failed (${r.code}):\n${r.output}`);

  const published = {};
  for (const d of readdirSync(join(root, 'packages'))) {
    const pkg = JSON.parse(readFileSync(join(root, 'packages', d, 'package.json'), 'utf8'));
    if (pkg.private) continue;
    const res = await fetch(`${registry.url}${pkg.name.replace('/', '%2f')}`);
    const version = res.ok ? (await res.json()).versions?.[pkg.version] : undefined;
    if (!version)
      throw new Error(
        `${pkg.name}@${pkg.version} is not on the local registry after publishing:\n${r.output}`,
      );
    const tgz = Buffer.from(await (await fetch(version.dist.tarball)).arrayBuffer());
    const file = join(dir, tarballName(pkg));
    writeFileSync(file, tgz);
    published[pkg.name] = {
      manifest: manifestInTarball(file),
      integrity: version.dist.integrity,
      tarball: version.dist.tarball,
    };
  }
  return { published, output: r.output };
}
