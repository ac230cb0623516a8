#!/usr/bin/env node
import { runCli } from './run-cli.js';

/** The `aqm` bin: process streams and environment in, exit code out; Ctrl-C aborts the run. */
const controller = new AbortController();
const onSigint = () => controller.abort();
process.once('SIGINT', onSigint);
// A closed pipe (`aqm traces list | head`) is not an error worth a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  signal: controller.signal,
}).then((code) => {
  process.off('SIGINT', onSigint);
  process.exitCode = code;
});
