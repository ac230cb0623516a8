/**
 * OpenTelemetry integration of the AQM service: LLM spans of any common convention become
 * prompt/response traces, sent through a bounded retrying queue that never slows or crashes the app.
 * @packageDocumentation
 */
export type { DeliveryOutcome, DropReason } from './export/queued-trace.js';
export { type AqmExportResult, ExportResultCode } from './export/result-code.js';
export type { AqmStats } from './export/trace-pipeline.js';
export { AqmSpanExporter } from './exporter.js';
export { AqmLogRecordProcessor, type LlmLogRecordInput } from './log-record-processor.js';
export type { LlmLogRecord } from './mapping/llm-log-record.js';
export type { ApplicationIdLookup, AqmOtelOptions } from './options.js';
export { type MaskFunction, maskPII } from './privacy/mask.js';
export { AqmSpanProcessor } from './processor.js';
export {
  type AqmRegistration,
  type LogsSetup,
  type RegisterAqmOptions,
  registerAqm,
  type TracingSetup,
} from './register.js';
export type { DiskStats } from './spill/spill-ledger.js';
export type { AqmAttributes } from './trace-attributes/check.js';
export type { AqmMetadataValue } from './trace-attributes/names.js';
export { withAqmAttributes } from './trace-attributes/scope.js';
export { type Flushable, withAqmFlush } from './with-aqm-flush.js';
export {
  type LlmPromptMessage,
  type LlmSpan,
  type LlmSpanOptions,
  type LlmUsage,
  withLlmSpan,
} from './with-llm-span.js';
