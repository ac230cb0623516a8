import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The repository root. */
export const ROOT = join(import.meta.dirname, '..', '..', '..');

/** What a finished child process left behind. */
export interface NodeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Environment of the test process without any AQM or OpenAI setting, so an example run
 * "offline" really starts its own service and model, and a run "against" one uses only what
 * the test passes.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(AQM_|OPENAI_)/.test(key)) env[key] = value;
  }
  // No colour codes in what the assertions read, whatever the test runner's terminal is.
  return { ...env, NO_COLOR: '1', FORCE_COLOR: '0', ...extra };
}

/** Where and how long a child process runs. */
export interface RunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

/**
 * Runs `node <entry>` in `cwd` and resolves when it exits, with its output. The child is killed
 * after `timeoutMs` (then `code` is null and `signal` set), so a hanging example fails the test.
 */
export function runNode(entry: string, options: RunOptions): Promise<NodeRun> {
  return runCommand(process.execPath, [entry], options);
}

/** Runs any command as {@link runNode} runs node: output collected, killed after `timeoutMs`. */
export function runCommand(
  command: string,
  args: readonly string[],
  { cwd, env, timeoutMs }: RunOptions,
): Promise<NodeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A trace block as the examples print it (`formatTrace` of example-local-env). */
export interface PrintedTrace {
  traceId: string;
  facts: string;
  prompt: string;
  response: string;
  scores: string;
}

/** The trace blocks of an example's output. */
export function printedTraces(stdout: string): PrintedTrace[] {
  const block =
    /^trace ([0-9a-f]{32}) {2}(.*)\n {2}prompt: {3}(.*)\n {2}response: (.*)\n {2}scores: {3}(.*)$/gm;
  return [...stdout.matchAll(block)].map(([, traceId, facts, prompt, response, scores]) => ({
    traceId: traceId ?? '',
    facts: facts ?? '',
    prompt: prompt ?? '',
    response: response ?? '',
    scores: scores ?? '',
  }));
}

/** What the example said to the model and what came back, from its conversation lines. */
export function conversationLines(stdout: string): { sent: string[]; answered: string[] } {
  const sent = [...stdout.matchAll(/^(?:\[[^\]]+\] )?user: (.*)$/gm)].map((m) => m[1] ?? '');
  const answered = [...stdout.matchAll(/^(?:\[[^\]]+\] )?(?:assistant|agent): (.*)$/gm)].map(
    (m) => m[1] ?? '',
  );
  return { sent, answered };
}

/** Text on one line, as the examples print it. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
