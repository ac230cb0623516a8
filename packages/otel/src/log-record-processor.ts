import { type Context, isSpanContextValid, type SpanContext, TraceFlags, trace } from '@opentelemetry/api';
import { ACCEPT_LLM_LOG, isLlmLogSink, type LlmLogSink } from './export/llm-log-sink.js';
import type { AqmSpanExporter } from './exporter.js';
import { noteContentLogRecord } from './mapping/content-loss.js';
import { describeValue } from './option-checks.js';
import type { AqmSpanProcessor } from './processor.js';
import { AQM_LOG_PROCESSOR } from './setup/logger-provider.js';

/**
 * The part of an SDK log record this processor reads (structurally the `SdkLogRecord` of
 * `@opentelemetry/sdk-logs`, so no runtime dependency on it).
 */
export interface LlmLogRecordInput {
  spanContext?: SpanContext;
  eventName?: string;
  body?: unknown;
  attributes: Record<string, unknown>;
}

/**
 * A `LogRecordProcessor` (of `@opentelemetry/sdk-logs`) that joins `gen_ai.*` event records to
 * their span's trace. `@opentelemetry/instrumentation-openai` puts the prompt and response on such
 * records rather than on the span; without this processor they would be lost.
 *
 * @example
 * const processor = new AqmSpanProcessor();
 * const loggerProvider = new LoggerProvider({ processors: [new AqmLogRecordProcessor(processor)] });
 * logs.setGlobalLoggerProvider(loggerProvider);
 */
export class AqmLogRecordProcessor {
  readonly #target: LlmLogSink;
  /** Lets `registerAqm()` and the content-loss warning recognise it in a provider's processors. @internal */
  readonly [AQM_LOG_PROCESSOR] = true;

  /** @param target - the {@link AqmSpanProcessor} or {@link AqmSpanExporter} whose traces the records join. */
  constructor(target: AqmSpanProcessor | AqmSpanExporter) {
    if (!isLlmLogSink(target)) {
      throw new TypeError(
        `Expected \`target\` to be an AqmSpanProcessor or AqmSpanExporter, got ${describeValue(target)}`,
      );
    }
    this.#target = target;
  }

  /**
   * Forwards a record that carries a sampled span context and a `gen_ai.*` event name (top-level
   * `eventName` or attribute `event.name`); ignores the rest. Never throws.
   *
   * @example
   * logRecordProcessor.onEmit(logRecord);
   */
  onEmit(logRecord: LlmLogRecordInput, context?: Context): void {
    try {
      const attributes = logRecord.attributes ?? {};
      const named = logRecord.eventName ?? attributes['event.name'];
      if (typeof named !== 'string' || !named.startsWith('gen_ai.')) return;
      // Content reaches us: no need to warn that it is lost (mapping/content-loss.ts).
      noteContentLogRecord();
      const spanContext =
        logRecord.spanContext ?? (context === undefined ? undefined : trace.getSpanContext(context));
      if (spanContext === undefined || !isSpanContextValid(spanContext)) return;
      // An unsampled span never reaches the exporter, so its content would only wait in memory.
      if ((spanContext.traceFlags & TraceFlags.SAMPLED) === 0) return;
      this.#target[ACCEPT_LLM_LOG]({
        traceId: spanContext.traceId,
        spanId: spanContext.spanId,
        eventName: named,
        body: logRecord.body,
        attributes: { ...attributes },
      });
    } catch {
      // A malformed record must not break the app's logging.
    }
  }

  /**
   * Nothing is buffered here: records go straight to the target, which the tracer provider flushes.
   *
   * @example
   * await logRecordProcessor.forceFlush();
   */
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * The target belongs to the tracer provider, which shuts it down; nothing to do here.
   *
   * @example
   * await logRecordProcessor.shutdown();
   */
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}
