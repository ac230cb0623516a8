/**
 * Zero-code start: `node --import @aqm/auto/register app.mjs` (or `--require` for CommonJS) sends
 * every LLM interaction of the app (OpenAI, Anthropic, LangChain, and the Vercel AI SDK's own
 * telemetry) to the AQM service, configured from environment variables alone.
 * @packageDocumentation
 */
// Who a trace is for, given in code: re-exported so that an app preloading @aqm/auto needs no other import.
export { type AqmAttributes, withAqmAttributes } from '@aqm/otel';
export { startAuto } from './start-auto.js';
export type { AutoHandle, AutoStatus, StartAutoOptions } from './types.js';
export { AUTO_VERSION } from './version.js';
