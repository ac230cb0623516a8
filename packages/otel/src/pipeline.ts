/**
 * The pipeline behind {@link AqmSpanProcessor} and {@link AqmSpanExporter}, for other ingest paths
 * of this toolkit (`@aqm/forwarder` feeds it spans decoded from OTLP): assembly, mapping, masking,
 * sampling, the bounded queue and the sender, exactly as in-process; and the exit flush
 * `registerAqm()` and `@aqm/auto` install. Not for apps: they use the processor or the exporter.
 * @packageDocumentation
 */

export { type DebugSource, debugSource } from './debug/debug-env.js';
export type { DebugSink } from './debug/debug-switch.js';
export { describeApiKey, describeUrl } from './debug/redact.js';
export { emptyStats } from './export/pipeline-types.js';
export type { DeliveryOutcome } from './export/queued-trace.js';
export { shutDownWithin } from './export/shutdown-within.js';
export { type AqmStats, type PipelineInternals, TracePipeline } from './export/trace-pipeline.js';
export { DEFAULT_FLUSH_TIMEOUT_MS } from './flush-options.js';
export { noteContentLogRecord } from './mapping/content-loss.js';
export type { LlmLogRecord } from './mapping/llm-log-record.js';
export {
  type ApplicationIdLookup,
  type AqmOtelOptions,
  type ResolvedOptions,
  resolveOptions,
} from './options.js';
export type { ReadableSpan, SpanAttributes, TimedEvent } from './sdk-types.js';
export { EnvValueError, expectationOf, flagValue, readEnv } from './setup/env-values.js';
export {
  ENV_VARIABLES,
  type EnvCheck,
  type EnvPackage,
  type EnvVariable,
  envVariable,
} from './setup/env-variables.js';
export { type ExitFlushSettings, type ExitProcess, installExitFlush } from './setup/exit-flush.js';
export { readRegularFile, unreadable } from './spill/spill-paths.js';
