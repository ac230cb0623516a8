import { spawn } from 'node:child_process';

/** What a child process left: its exit code, output and how long it ran. */
export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs a Node script to its own exit with `env` added to (or, for an empty string, removed from)
 * the test's environment; kills it and rejects at `deadlineMs`, a bound on failure, not a timing.
 */
export function runChild(
  script: string,
  env: Record<string, string>,
  options: { args?: string[]; deadlineMs?: number } = {},
): Promise<ChildRun> {
  const deadlineMs = options.deadlineMs ?? 60_000;
  const childEnv: Record<string, string | undefined> = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === '') delete childEnv[name];
    else childEnv[name] = value;
  }
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [...(options.args ?? []), script], {
      env: childEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the child did not exit by itself within ${deadlineMs} ms; stderr: ${stderr}`));
    }, deadlineMs);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** The last line of a child's stdout, parsed as JSON. */
export function lastJsonLine<T>(stdout: string): T {
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as T;
}
