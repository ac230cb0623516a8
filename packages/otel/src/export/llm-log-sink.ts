import type { LlmLogRecord } from '../mapping/llm-log-record.js';

/**
 * The key of the method by which {@link AqmLogRecordProcessor} hands content log records to an
 * exporter or processor. A registered symbol keeps it off the documented surface and still matches
 * across the ESM and CJS builds of this package.
 */
export const ACCEPT_LLM_LOG: unique symbol = Symbol.for('@aqm/otel.acceptLlmLog');

/** Something that joins `gen_ai.*` log records to the traces it assembles. */
export interface LlmLogSink {
  [ACCEPT_LLM_LOG](log: LlmLogRecord): void;
}

/** Whether `value` can take log records (an AqmSpanProcessor or AqmSpanExporter). */
export function isLlmLogSink(value: unknown): value is LlmLogSink {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Record<typeof ACCEPT_LLM_LOG, unknown>>)[ACCEPT_LLM_LOG] === 'function'
  );
}
