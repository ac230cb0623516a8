import type { LlmLogRecord } from '@aqm/otel/pipeline';
import { anyValue, idHex, keyValues, str } from './otlp-values.js';

type Fields = Record<string, unknown>;

/** Why a log record was not joined to a trace. */
export type LogRecordOutcome = LlmLogRecord | 'not-llm' | 'no-span';

/**
 * The content record of an OTLP `LogRecord`, as `AqmLogRecordProcessor` hands it to the pipeline:
 * records whose event name (`event_name`, else attribute `event.name`) starts with `gen_ai.` and
 * that carry a trace and span id. Others are `'not-llm'` (accepted, nothing to do) or `'no-span'`
 * (an LLM event that cannot be joined: counted as rejected).
 *
 * @example
 * const log = toLlmLogRecord(record);
 */
export function toLlmLogRecord(record: unknown): LogRecordOutcome {
  if (typeof record !== 'object' || record === null) return 'not-llm';
  const fields = record as Fields;
  const attributes = keyValues(fields.attributes);
  const topLevel = str(fields.eventName);
  const named = topLevel !== '' ? topLevel : attributes['event.name'];
  if (typeof named !== 'string' || !named.startsWith('gen_ai.')) return 'not-llm';
  const traceId = idHex(fields.traceId, 16);
  const spanId = idHex(fields.spanId, 8);
  if (traceId === undefined || spanId === undefined) return 'no-span';
  return { traceId, spanId, eventName: named, body: anyValue(fields.body), attributes };
}
