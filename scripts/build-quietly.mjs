#!/usr/bin/env node
// `pnpm build` with its output held back: `pnpm start` and `pnpm demo` build first, and the
// ~250 lines tsup prints per run buried what those commands are for (the URL, the key, the
// tables). The output is printed only when the build fails, so a failure is never hidden.
import { spawn } from 'node:child_process';

// The pnpm that runs this script (npm_execpath), else the one on PATH.
const execPath = process.env.npm_execpath;
const [command, args] = execPath?.includes('pnpm')
  ? /\.[cm]?js$/.test(execPath)
    ? [process.execPath, [execPath, 'build']]
    : [execPath, ['build']]
  : ['pnpm', ['build']];

const started = performance.now();
const child = spawn(command, args, {
  stdio: ['ignore', 'pipe', 'pipe'],
  // Colours would be lost on the pipe anyway; keep the text plain for when it is shown.
  env: { ...process.env, FORCE_COLOR: '0' },
  shell: command === 'pnpm' && process.platform === 'win32',
});
const chunks = [];
child.stdout.on('data', (chunk) => chunks.push(chunk));
child.stderr.on('data', (chunk) => chunks.push(chunk));
child.on('error', (error) => {
  process.stderr.write(`Could not run the build (${command} build): ${error.message}\n`);
  process.exit(1);
});
child.on('close', (code, signal) => {
  if (code === 0) {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(`Built the packages (${seconds} s).\n`);
    return;
  }
  process.stderr.write(Buffer.concat(chunks));
  process.stderr.write(`\nThe build failed (exit ${code ?? signal}); its output is above.\n`);
  process.exit(code ?? 1);
});
