/**
 * `node --import @aqm/auto/register app.mjs`: starts `@aqm/auto` from the environment before the
 * app's first import, with the ESM loader hook. The top-level await lets the LangChain handler
 * (loaded with `import()`) be in place before the app runs. Worker threads inherit the flag: only
 * the main thread starts (call `startAuto()` in a worker to trace it).
 * @packageDocumentation
 */
import { isMainThread } from 'node:worker_threads';
import { startAuto } from './start-auto.js';

if (isMainThread) await startAuto(process.env, { esmLoaderHook: true }).instrumented;
