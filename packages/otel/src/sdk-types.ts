import type { Context, HrTime, Span, SpanContext, SpanKind, SpanStatus } from '@opentelemetry/api';
import type { AqmExportResult } from './export/result-code.js';

// The SDK shapes this package reads or implements, declared here rather than imported from an SDK
// line: the 2.x line (`@opentelemetry/sdk-trace-base`, `@opentelemetry/api` < 1.10) and the 3.x
// line (`@opentelemetry/sdk-trace`, `@opentelemetry/api` 1.10) cannot be installed side by side
// as peers, and both lines' spans, processors and exporters fit these structurally.

/**
 * Attribute values as read here: `@opentelemetry/api` 1.10 widens them from primitives and arrays
 * of primitives to any value (maps, byte arrays, nested arrays), so nothing narrower is assumed.
 */
export type SpanAttributes = Readonly<Record<string, unknown>>;

/** An event of a finished span. */
export interface TimedEvent {
  readonly name: string;
  readonly time: HrTime;
  readonly attributes?: SpanAttributes | undefined;
}

/** A finished span, as both SDK lines hand it to processors and exporters (the parts read here). */
export interface ReadableSpan {
  readonly name: string;
  readonly kind: SpanKind;
  spanContext(): SpanContext;
  readonly parentSpanContext?: SpanContext | undefined;
  readonly startTime: HrTime;
  readonly endTime: HrTime;
  readonly status: SpanStatus;
  readonly attributes: SpanAttributes;
  readonly events: readonly TimedEvent[];
  readonly resource: { readonly attributes: SpanAttributes };
  readonly instrumentationScope: { readonly name: string; readonly version?: string | undefined };
}

/** What a tracer provider calls on its span processors. */
export interface SpanProcessor {
  onStart(span: Span, parentContext: Context): void;
  onEnd(span: ReadableSpan): void;
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

/** What a `BatchSpanProcessor` or `SimpleSpanProcessor` calls on its exporter. */
export interface SpanExporter {
  export(spans: ReadableSpan[], resultCallback: (result: AqmExportResult) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}
