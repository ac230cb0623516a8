import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { caller } from './helpers.js';

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('@aqm/server/package.json'));
const packageJson = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
};
const bin = join(packageDir, packageJson.bin['aqm-server'] as string);

interface Started {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  url: string;
  key: string | undefined;
}

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Runs the bin and resolves once it has printed its base URL (and a key, when it made one). */
function startCli(args: string[]): Promise<Started> {
  const child = spawn(bin, ['--port', '0', ...args], { stdio: 'pipe' });
  children.push(child);
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /export AQM_BASE_URL=(\S+)/.exec(out)?.[1];
      if (url !== undefined && out.includes('Press Ctrl-C')) {
        resolve({ child, stdout: () => out, url, key: /export AQM_API_KEY=(\S+)/.exec(out)?.[1] });
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) =>
      reject(new Error(`aqm-server exited with ${code} before listening: ${err}`)),
    );
  });
}

function exitOf(child: ChildProcessWithoutNullStreams): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once('exit', (code) => resolve(code));
  });
}

// Each test spawns a Node process; allow for slow machines.
describe('aqm-server command line', { timeout: 20_000 }, () => {
  it('is an executable file with a node shebang', () => {
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(() => accessSync(bin, constants.X_OK)).not.toThrow();
  });

  it('without a key, makes and prints a development key and the base URL; SIGTERM exits 0', async () => {
    const { child, url, key } = await startCli([]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
    expect(key).toMatch(/^aqm_dev_[0-9a-f]{32}$/);
    const call = caller(url, key as string);
    expect((await call('GET', '/applications')).status).toBe(200);
    expect((await call('GET', '/applications', { key: 'other' })).status).toBe(401);
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  });

  it('with --application, prints last the lines to paste: URL, key and the id, found again on a second run', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'aqm-server-cli-'));
    try {
      const ids: string[] = [];
      for (const run of ['Created', 'Found']) {
        const { child, url, key, stdout } = await startCli([
          '--data-dir',
          dataDir,
          '--application',
          'support-bot',
        ]);
        // The id line is printed with the others, in one write: it is there once the URL is.
        const lines = stdout().trimEnd().split('\n');
        expect(lines.slice(-3).map((line) => line.replace(/=.*/, ''))).toEqual([
          'export AQM_BASE_URL',
          'export AQM_API_KEY',
          'export AQM_APPLICATION_ID',
        ]);
        expect(stdout()).toContain(`${run} the application "support-bot".`);
        const id = /^export AQM_APPLICATION_ID=(\S+)$/m.exec(stdout())?.[1] as string;
        const app = await caller(url, key as string)('GET', `/applications/${id}`);
        expect(app.status).toBe(200);
        expect(app.body.data.name).toBe('support-bot');
        ids.push(id);
        child.kill('SIGTERM');
        expect(await exitOf(child)).toBe(0);
      }
      expect(ids[1]).toBe(ids[0]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('makes a different key each run', async () => {
    const first = await startCli([]);
    const second = await startCli([]);
    expect(first.key).not.toBe(second.key);
    first.child.kill('SIGINT');
    second.child.kill('SIGINT');
    expect(await exitOf(first.child)).toBe(0);
    expect(await exitOf(second.child)).toBe(0);
  });

  it('uses the --api-key keys given (KEY:PROJECT), never prints them, and honours --prefix', async () => {
    const { child, url, key, stdout } = await startCli([
      '--api-key',
      'secret-one:alpha',
      '--api-key',
      'secret-two:beta',
      '--prefix',
      '/v2',
    ]);
    expect(key).toBeUndefined();
    expect(stdout()).not.toContain('secret-one');
    expect(stdout()).not.toContain('secret-two');
    expect(url).toMatch(/\/v2$/);
    const alpha = caller(url, 'secret-one');
    const beta = caller(url, 'secret-two');
    const app = (await alpha('POST', '/applications', { json: { name: 'cli-app' } })).body.data;
    expect((await beta('GET', `/applications/${app.id}`)).status).toBe(404);
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  });

  it('applies --fault-* flags', async () => {
    const { child, url, key } = await startCli([
      '--fault-route',
      'widgets.list',
      '--fault-status',
      '429',
      '--fault-retry-after',
      '3',
    ]);
    const call = caller(url, key as string);
    const faulted = await call('GET', '/widgets');
    expect(faulted.status).toBe(429);
    expect(faulted.headers.get('retry-after')).toBe('3');
    expect((await call('GET', '/metrics/eval')).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exitOf(child)).toBe(0);
  });

  it('prints the usage for --help and exits 0', async () => {
    const { stdout } = await promisify(execFile)(bin, ['--help']);
    expect(stdout).toContain('Usage: aqm-server');
    expect(stdout).toContain('--fault-status');
  });

  it.each([
    [['--port', 'eighty'], /--port must be an integer, got "eighty"/],
    [['--frobnicate'], /Unknown option '--frobnicate'/],
    [['--fault-rate', '2', '--fault-status', '500'], /--fault-rate must be a number from 0 to 1, got 2/],
    [['--api-key', ':project'], /--api-key #1 must be KEY or KEY:PROJECT/],
    [['--application', ' '], /--application must be a name of 1 to 100 characters/],
  ])('refuses %j with a clear message and exit code 2 or 1', async (args, message) => {
    const error = await promisify(execFile)(bin, args).catch((e: { code: number; stderr: string }) => e);
    expect(error).toMatchObject({ stderr: expect.stringMatching(message) });
    expect([1, 2]).toContain((error as { code: number }).code);
  });

  it('names the flag behind a failure to start, and exits 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aqm-cli-start-'));
    try {
      const file = join(dir, 'a-file');
      writeFileSync(file, 'x');
      const cases: Array<[string[], RegExp]> = [
        // .invalid never resolves (RFC 2606); without DNS at all the code is EAI_AGAIN: the same message.
        [
          ['--host', 'bogus.invalid'],
          /^aqm-server: --host bogus\.invalid: cannot listen there \(getaddrinfo /,
        ],
        [
          ['--data-dir', join(file, 'sub')],
          /^aqm-server: --data-dir .*a-file.sub: cannot keep the data there \(ENOTDIR/,
        ],
        [['--data-dir', file], /^aqm-server: --data-dir .*a-file: cannot keep the data there \(EEXIST/],
      ];
      for (const [args, message] of cases) {
        const error = await promisify(execFile)(bin, ['--port', '0', ...args]).catch(
          (e: { code: number; stderr: string }) => e,
        );
        expect(error).toMatchObject({ code: 1, stderr: expect.stringMatching(message) });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
