/**
 * Content from an OTel log record (e.g. `@opentelemetry/instrumentation-openai`'s `gen_ai.*`
 * events), joined to its span by `spanId`.
 */
export interface LlmLogRecord {
  traceId: string;
  spanId: string;
  /** `record.eventName`, else `attributes['event.name']`. */
  eventName: string;
  /** AnyValue: string | object | array. */
  body: unknown;
  attributes: Record<string, unknown>;
}
