import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type SpanKind,
  type SpanStatus,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import type { AnyValueMap, LoggerProvider } from '@opentelemetry/api-logs';

/** A log record emitted in a span's context, as `@opentelemetry/instrumentation-openai` does. */
export interface LogSpec {
  /** Top-level event name (the Responses API's operation-details records). */
  eventName?: string;
  body?: unknown;
  attributes: AnyValueMap;
}

/** A span to create: attributes exactly as an instrumentation sets them, its events and children. */
export interface SpanSpec {
  name: string;
  kind?: SpanKind;
  /** Instrumentation scope (tracer name). */
  scope: string;
  attributes?: Attributes;
  events?: Array<{ name: string; attributes?: Attributes }>;
  status?: SpanStatus;
  /** Recorded with `span.recordException`. */
  exception?: Error;
  /** Log records emitted while the span is open. */
  logs?: LogSpec[];
  children?: SpanSpec[];
}

/** How many spans a tree holds. */
export function spanCount(spec: SpanSpec): number {
  return 1 + (spec.children ?? []).reduce((sum, child) => sum + spanCount(child), 0);
}

/**
 * Creates the spans of `spec` with real tracers of `tracerProvider` (children end before their
 * parent, as in real code) and emits its log records through `loggerProvider`. Returns the trace id.
 */
export function emitTrace(
  spec: SpanSpec,
  tracerProvider: TracerProvider,
  loggerProvider?: LoggerProvider,
): string {
  const create = (node: SpanSpec, parent: Context): string => {
    const span = tracerProvider
      .getTracer(node.scope)
      .startSpan(node.name, { kind: node.kind, attributes: node.attributes }, parent);
    const context = trace.setSpan(parent, span);
    for (const log of node.logs ?? []) {
      if (loggerProvider === undefined)
        throw new Error(`${node.name} has log records but no logger provider`);
      loggerProvider.getLogger(node.scope).emit({
        context,
        eventName: log.eventName,
        body: log.body as AnyValueMap,
        attributes: log.attributes,
      });
    }
    for (const child of node.children ?? []) create(child, context);
    for (const event of node.events ?? []) span.addEvent(event.name, event.attributes);
    if (node.exception !== undefined) span.recordException(node.exception);
    if (node.status !== undefined) span.setStatus(node.status);
    span.end();
    return span.spanContext().traceId;
  };
  return create(spec, ROOT_CONTEXT);
}
