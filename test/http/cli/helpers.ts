import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { AqmClient } from '@aqm/client';
import { type RunningServer, startServer } from '@aqm/server';
import { onTestFinished } from 'vitest';

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('@aqm/cli/package.json'));
const packageJson = require('@aqm/cli/package.json') as { bin: Record<string, string>; version: string };
/** The version @aqm/cli's manifest declares (what `aqm --version` must print). */
export const AQM_VERSION = packageJson.version;
/** The built bin, as npm would link it. */
export const AQM_BIN = join(packageDir, packageJson.bin.aqm as string);

/** The local service with one project, its key and a client to arrange and check data. */
export interface CliService {
  srv: RunningServer;
  client: AqmClient;
  apiKey: string;
  /** Environment for the bin: only what it needs, so the caller's colour settings do not leak in. */
  env: Record<string, string>;
  createApp(label: string): Promise<string>;
  close(): Promise<void>;
}

/** Starts the local service on a free loopback port. */
export async function startCliService(): Promise<CliService> {
  const apiKey = `cli-e2e-${randomUUID()}`;
  const srv = await startServer({ apiKeys: [{ key: apiKey, projectId: `cli-${randomUUID()}` }] });
  const client = new AqmClient({ apiKey, baseUrl: srv.url });
  return {
    srv,
    client,
    apiKey,
    env: {
      PATH: process.env.PATH ?? '',
      AQM_API_KEY: apiKey,
      AQM_BASE_URL: srv.url,
      TZ: 'UTC',
      // Node 22 reuses compiled code across the many start-ups of the bin (Node 20 ignores it).
      NODE_COMPILE_CACHE: join(tmpdir(), 'aqm-cli-test-compile-cache'),
    },
    createApp: async (label) => (await client.applications.create({ name: `${label}-${randomUUID()}` })).id,
    close: async () => {
      await client.close();
      await srv.close();
    },
  };
}

/** What a run of the bin produced. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built bin to completion. `env` replaces the whole environment; `input` goes to stdin. */
export function runAqm(
  args: string[],
  env: Record<string, string>,
  input?: string,
  cwd?: string,
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [AQM_BIN, ...args],
      { env, cwd, timeout: 20_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return reject(error);
        resolve({ code: child.exitCode, stdout, stderr });
      },
    );
    child.stdin?.end(input ?? '');
  });
}

/** A bin left running (`traces tail`), with its output so far and a way to wait for a condition. */
export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves once `check` holds on the output; rejects at the deadline with what was seen. */
  waitFor(check: (stdout: string, stderr: string) => boolean, timeoutMs?: number): Promise<void>;
  exit(): Promise<number | null>;
}

/** Starts the bin without waiting for it to end. */
export function spawnAqm(args: string[], env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [AQM_BIN, ...args], { env, stdio: 'pipe' });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    notify();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    notify();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitFor: (check, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const done = () => {
          if (!check(out, err)) return;
          listeners.delete(done);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          listeners.delete(done);
          reject(new Error(`condition not met in ${timeoutMs} ms; stdout: ${out}\nstderr: ${err}`));
        }, timeoutMs);
        listeners.add(done);
        child.once('exit', () => {
          done();
          if (listeners.has(done)) {
            listeners.delete(done);
            clearTimeout(timer);
            reject(new Error(`exited before the condition; stdout: ${out}\nstderr: ${err}`));
          }
        });
        done();
      }),
    exit: () => exited,
  };
}

/** A W3C trace id: 32 lowercase hex characters. */
export function newTraceId(): string {
  return randomUUID().replaceAll('-', '');
}

/** A trace to submit, ending now. */
export function sampleTrace(
  traceId: string,
  prompt: string,
  response: string,
  status: 'success' | 'error' = 'success',
) {
  const end = new Date();
  return {
    traceId,
    prompt,
    response,
    startTime: new Date(end.getTime() - 250).toISOString(),
    endTime: end.toISOString(),
    status,
  };
}

/**
 * Writes files into a fresh temporary directory and returns its path; the directory is removed
 * when the calling test finishes, so runs do not pile directories up in the system's temp folder.
 */
export function tempDirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'aqm-cli-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/**
 * Runs the built package's `runCli` in this process: the same code as the bin without the cost of
 * starting Node, for the many variations of one command. Output is plain (not a terminal).
 */
export async function runInProcess(
  args: string[],
  env: Record<string, string>,
  options: { input?: string; cwd?: string } = {},
): Promise<CliRun> {
  const { runCli } = await import('@aqm/cli');
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from([options.input ?? '']),
    env,
    cwd: options.cwd,
  });
  return { code, stdout, stderr };
}

/** Polls `check` until it holds, failing at the deadline: waits on a condition, never on a guess. */
export async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
