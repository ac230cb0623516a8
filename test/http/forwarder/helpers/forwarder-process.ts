import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { TestService } from '../../otel/helpers/service.js';
import { waitFor } from '../../otel/helpers/wait.js';

const BIN = fileURLToPath(new URL('../../../../packages/forwarder/bin/aqm-forwarder.js', import.meta.url));

/** An `aqm-forwarder` process (the bin) and what it has written so far. */
export interface ForwarderProcess {
  child: ChildProcess;
  output: { stdout: string; stderr: string };
}

/** A forwarder process that printed its start line: `url` is where it listens. */
export interface ListeningForwarder extends ForwarderProcess {
  url: string;
}

const running = new Set<ChildProcess>();

/**
 * Spawns the bin with `args` and exactly `env` (plus PATH: nothing of the test's own environment,
 * no AQM_* variable, leaks in). Does not wait: for a start that is meant to fail, or to be read.
 */
export function spawnForwarder(args: string[], env: Record<string, string>): ForwarderProcess {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk) => {
    output.stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output.stderr += chunk;
  });
  return { child, output };
}

/**
 * Resolves with the URL of the forwarder's start line (`… listening on <url>`); rejects with its
 * stderr when it exits first, or has not started after 15 s (a bound on failure, not a timing).
 */
export async function listeningUrl(forwarder: ForwarderProcess): Promise<string> {
  const { child, output } = forwarder;
  await waitFor(
    () => output.stdout.includes('listening on') || child.exitCode !== null,
    'the start line',
    15_000,
    () => output.stderr,
  );
  const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.stdout)?.[1];
  if (url === undefined) throw new Error(`the forwarder did not start: ${output.stderr}`);
  return url;
}

/** The bin's environment for the local `service` and one of its applications. */
export function serviceEnv(service: TestService, applicationId: string): Record<string, string> {
  return { AQM_API_KEY: service.apiKey, AQM_BASE_URL: service.srv.url, AQM_APPLICATION_ID: applicationId };
}

/** Spawns the bin (see {@link spawnForwarder}) and resolves once it listens. */
export async function startForwarderProcess(
  args: string[],
  env: Record<string, string>,
): Promise<ListeningForwarder> {
  const forwarder = spawnForwarder(args, env);
  return { ...forwarder, url: await listeningUrl(forwarder) };
}

/** Sends SIGTERM and resolves with the exit code once the process has exited. */
export async function stopForwarder(forwarder: ForwarderProcess): Promise<number | null> {
  forwarder.child.kill('SIGTERM');
  const [code] = await once(forwarder.child, 'exit');
  return code as number | null;
}

/** Kills (SIGKILL) every forwarder process still running: for an `afterEach`. */
export function killForwarderProcesses(): void {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  running.clear();
}
