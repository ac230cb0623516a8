/**
 * `node --require @aqm/auto/register app.cjs`: starts `@aqm/auto` from the environment before the
 * app's first `require` (the CommonJS build of `./register`). `require` is hooked without a
 * loader, so no ESM loader hook is registered here: on Node 20, `module.register()` from a
 * `--require` preload initialises the hook twice (and prints a warning). ESM apps use `--import`.
 * Only the main thread starts: `--require` preloads also run in worker threads, Node's own ESM
 * loader thread included.
 * @packageDocumentation
 */
import { isMainThread } from 'node:worker_threads';
import { startAuto } from './start-auto.js';

if (isMainThread) startAuto(process.env);
