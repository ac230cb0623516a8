import { AqmCallbackHandler, type AqmCallbackHandlerOptions } from '@aqm/langchain';
import { context, type Span, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

// A real context manager, as an app with OpenTelemetry set up has: without one there is no active span.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

/** A tracer provider whose ended spans are kept in memory, and a handler that reports to it. */
export function setupTracing(options: Omit<AqmCallbackHandlerOptions, 'tracer' | 'tracerProvider'> = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const handler = new AqmCallbackHandler({ ...options, tracerProvider: provider });
  const tracer = provider.getTracer('test');
  return {
    exporter,
    provider,
    handler,
    tracer,
    /** Ended spans, in end order. */
    spans: (): ReadableSpan[] => exporter.getFinishedSpans(),
    /** The one ended span with this name (fails when there is none or several). */
    span(name: string): ReadableSpan {
      const found = exporter.getFinishedSpans().filter((s) => s.name === name);
      if (found.length !== 1) {
        const names = exporter.getFinishedSpans().map((s) => s.name);
        throw new Error(
          `expected one span named "${name}", found ${found.length} among ${JSON.stringify(names)}`,
        );
      }
      return found[0] as ReadableSpan;
    },
    /** Runs `body` inside an active span named `name`, as a request handler would. */
    async withActiveSpan<T>(name: string, body: (span: Span) => Promise<T>): Promise<T> {
      return tracer.startActiveSpan(name, async (span) => {
        try {
          return await body(span);
        } finally {
          span.end();
        }
      });
    },
  };
}

/** The parent span id of a span (SDK 2.x keeps it in `parentSpanContext`). */
export function parentIdOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** A JSON-string attribute, parsed. */
export function jsonAttribute(span: ReadableSpan, key: string): unknown {
  const value = span.attributes[key];
  if (typeof value !== 'string')
    throw new Error(`attribute ${key} of "${span.name}" is ${typeof value}, not a JSON string`);
  return JSON.parse(value) as unknown;
}

export const ERROR = SpanStatusCode.ERROR;
