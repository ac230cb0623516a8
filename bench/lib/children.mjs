// Both sides of a measured child process. Each variant runs alone in its own process so that
// process.cpuUsage(), RSS and the event-loop delay are its own and nothing else's; the parent (which
// also runs the sinks) talks to it over the IPC channel of fork().
import { fork } from 'node:child_process';

/**
 * Parent side: runs `script` to its own exit and resolves with its messages. Kills it (by its pid) at
 * `deadlineMs`, so a stuck child cannot hang the benchmark.
 * @param {string} script
 * @param {{ config: object, env?: Record<string, string>, execArgv?: string[], deadlineMs: number,
 *   onMessage?: (message: any, child: import('node:child_process').ChildProcess) => void }} options
 */
export function runChild(script, { config, env = {}, execArgv = [], deadlineMs, onMessage }) {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], {
      env: { ...process.env, ...env, BENCH_CONFIG: JSON.stringify(config) },
      execArgv,
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    const messages = [];
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString();
    });
    child.on('message', (message) => {
      messages.push(message);
      onMessage?.(message, child);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not exit within ${deadlineMs} ms; stderr: ${stderr.slice(-2000)}`));
    }, deadlineMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const result = messages.findLast((m) => m.type === 'result');
      if (code !== 0 || result === undefined) {
        reject(new Error(`${script} exited with ${code ?? signal}; stderr: ${stderr.slice(-2000)}`));
      } else resolve({ result, messages, stderr });
    });
  });
}

/** Child side: the configuration the parent passed. */
export function childConfig() {
  const text = process.env.BENCH_CONFIG;
  if (text === undefined || typeof process.send !== 'function') {
    throw new Error('run this file through bench/run.mjs or bench/soak.mjs, not directly');
  }
  return JSON.parse(text);
}

/** Child side: sends a message to the parent. */
export function send(message) {
  return new Promise((resolve, reject) => {
    process.send(message, (error) => (error ? reject(error) : resolve()));
  });
}

/** Child side: sends the result and closes the channel, so the child can exit by itself. */
export async function finish(result) {
  await send({ ...result, type: 'result' });
  process.disconnect();
}

/** Child side: resolves with the first message of `type` from the parent (keeps the process alive meanwhile). */
export function nextMessage(type) {
  return new Promise((resolve) => {
    const listener = (message) => {
      if (message?.type !== type) return;
      process.off('message', listener);
      resolve(message);
    };
    process.on('message', listener);
  });
}

/**
 * Child side: exits with code 3 if the child is still alive after `ms` (an unref'd timer: it never
 * keeps the process alive itself, but fires if something else does).
 */
export function watchdog(ms, what) {
  setTimeout(() => {
    process.stderr.write(`${what}: still running after ${ms} ms, giving up\n`);
    process.exit(3);
  }, ms).unref();
}
