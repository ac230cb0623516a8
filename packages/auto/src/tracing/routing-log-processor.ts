import type { AqmLogRecordProcessor, LlmLogRecordInput } from '@aqm/otel';
import type { Context } from '@opentelemetry/api';

/**
 * The log record processor of the `LoggerProvider` that `@opentelemetry/instrumentation-openai`
 * writes message content to. It forwards to an {@link AqmLogRecordProcessor} that can be swapped:
 * when the app registers its own tracer provider after the preload, the content must join the
 * traces of the processor attached to that provider.
 */
export class RoutingLogRecordProcessor {
  /** Where records go; `undefined` drops them (before setup and after shutdown). */
  target: AqmLogRecordProcessor | undefined;

  /**
   * Forwards the record. Never throws (the target never does).
   *
   * @example
   * router.onEmit(logRecord);
   */
  onEmit(logRecord: LlmLogRecordInput, context?: Context): void {
    this.target?.onEmit(logRecord, context);
  }

  /**
   * Nothing is buffered here.
   *
   * @example
   * await router.forceFlush();
   */
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  /**
   * Stops forwarding.
   *
   * @example
   * await router.shutdown();
   */
  shutdown(): Promise<void> {
    this.target = undefined;
    return Promise.resolve();
  }
}
