import { type ChildProcess, spawn } from 'node:child_process';

/** How an app process ended, and what it wrote. */
export interface AppRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** `Date.now()` when the process was seen to end (taken in the exit handler, not after an `await`). */
  exitedAt: number;
}

/** An app process still running. */
export interface RunningApp {
  readonly child: ChildProcess;
  /** Resolves once `text` appears on stdout. */
  waitForOutput(text: string): Promise<void>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<AppRun>;
}

const running = new Set<ChildProcess>();

/**
 * Starts `node <args>` in `dir` with exactly `env` (nothing inherited but what is passed, so no
 * AQM_* variable of the test's own environment leaks in).
 *
 * @example
 * const app = startApp(dir, ['--import', '@aqm/auto/register', 'openai-app.mjs'], env);
 */
export function startApp(dir: string, args: string[], env: Record<string, string>): RunningApp {
  const child = spawn(process.execPath, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of waiters.filter((w) => stdout.includes(w.text))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<AppRun>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      const exitedAt = Date.now();
      running.delete(child);
      resolve({ code, signal, stdout, stderr, exitedAt });
    });
  });
  return {
    child,
    exited,
    waitForOutput(text) {
      if (stdout.includes(text)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        waiters.push({ text, resolve });
        // An app that dies first never prints it: fail with what it wrote instead of hanging.
        void exited.then((run) =>
          reject(
            new Error(`the app exited (${run.code ?? run.signal}) before printing "${text}": ${run.stderr}`),
          ),
        );
      });
    },
  };
}

/** Runs an app to its end. */
export function runApp(dir: string, args: string[], env: Record<string, string>): Promise<AppRun> {
  return startApp(dir, args, env).exited;
}

/** The JSON line an app printed last. */
export function lastJsonLine<T>(run: AppRun): T {
  const lines = run.stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? 'null') as T;
}

/** Time from the end of the app's own work (`doneAt`, printed by the app) to its exit. */
export function exitHoldMs(run: AppRun): number {
  return run.exitedAt - lastJsonLine<{ doneAt: number }>(run).doneAt;
}

/** Kills every app still running (after a failed test). */
export function killRunningApps(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}
