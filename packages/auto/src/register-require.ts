/**
 * `node --require @aqm/auto/register app.cjs`: starts `@aqm/auto` from the environment before the
 * app's first `require` (the CommonJS build of `./register`). `require` is hooked without a
 * loader, so no ESM loader hook is registered here: on Node 20, `module.register()` from a
 * `--require` preload initialises the hook twice (and prints a warning). ESM apps use `--import`;
 * one started with `--require` would send nothing, so it gets a warning saying which flag to use.
 * Only the main thread starts: `--require` preloads also run in worker threads, Node's own ESM
 * loader thread included.
 * @packageDocumentation
 */
import { isMainThread } from 'node:worker_threads';
import { readAutoConfig } from './config/env-config.js';
import { esmMainWarning } from './runtime/entry-format.js';
import { startAuto } from './start-auto.js';
import { warn } from './warn.js';

if (isMainThread) {
  startAuto(process.env);
  // Only when tracing is on: switched off, or off with its one warning given, there is nothing to add.
  const esmWarning = esmMainWarning(process.argv[1]);
  if (esmWarning !== undefined && readAutoConfig(process.env).kind === 'enabled') warn(esmWarning);
}
