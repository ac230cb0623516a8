import {
  type Attributes,
  type Context,
  ROOT_CONTEXT,
  type SpanKind,
  type SpanStatus,
  trace,
} from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { LlmLogRecord } from '../../src/mapping/llm-log-record.js';

/** A span to create: attributes exactly as an instrumentation sets them, and its children. */
export interface SpanSpec {
  name: string;
  kind?: SpanKind;
  /** Instrumentation scope (tracer name). */
  scope?: string;
  attributes?: Attributes;
  events?: Array<{ name: string; attributes?: Attributes }>;
  status?: SpanStatus;
  /** Recorded with `span.recordException`. */
  exception?: Error;
  children?: SpanSpec[];
  /** Log records emitted in this span's context (as `@opentelemetry/instrumentation-openai` does). */
  logs?: Array<Omit<LlmLogRecord, 'traceId' | 'spanId'>>;
}

/** What {@link buildTrace} returns: the ended spans (in end order, as exporters get them), the logs, spans by name. */
export interface BuiltTrace {
  spans: ReadableSpan[];
  logs: LlmLogRecord[];
  byName: (name: string) => ReadableSpan;
  traceId: string;
}

/** Options of {@link buildTrace}. */
export interface BuildOptions {
  resource?: Attributes;
  /** Start the root under a remote parent (a span context from another process). */
  remoteParent?: boolean;
  /** Epoch ms of the first start; each start and end advances a 10 ms step. */
  baseMs?: number;
}

/**
 * Creates real spans with the SDK (`BasicTracerProvider` + `SimpleSpanProcessor` +
 * `InMemorySpanExporter`), parents and children as in `spec`, on a deterministic clock. An array
 * of specs makes sibling roots, one after the other (with `remoteParent`, one trace).
 */
export function buildTrace(spec: SpanSpec | SpanSpec[], options: BuildOptions = {}): BuiltTrace {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes(options.resource ?? { 'service.name': 'test-service' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  let clock = options.baseMs ?? Date.UTC(2026, 0, 31, 12, 0, 0);
  const tick = () => {
    clock += 10;
    return clock;
  };
  const logs: LlmLogRecord[] = [];
  let parentContext: Context = ROOT_CONTEXT;
  if (options.remoteParent === true) {
    parentContext = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 1,
      isRemote: true,
    });
  }
  const create = (node: SpanSpec, context: Context): void => {
    const tracer = provider.getTracer(node.scope ?? 'test-instrumentation');
    const span = tracer.startSpan(
      node.name,
      { kind: node.kind, attributes: node.attributes, startTime: tick() },
      context,
    );
    const spanContext = span.spanContext();
    for (const log of node.logs ?? []) {
      logs.push({ ...log, traceId: spanContext.traceId, spanId: spanContext.spanId });
    }
    const childContext = trace.setSpan(context, span);
    for (const child of node.children ?? []) create(child, childContext);
    for (const event of node.events ?? []) span.addEvent(event.name, event.attributes, tick());
    if (node.exception !== undefined) span.recordException(node.exception, tick());
    if (node.status !== undefined) span.setStatus(node.status);
    span.end(tick());
  };
  // Several specs: sibling roots under the same parent (a remote one, with `remoteParent`).
  for (const root of Array.isArray(spec) ? spec : [spec]) create(root, parentContext);
  const spans = exporter.getFinishedSpans();
  const byName = (name: string): ReadableSpan => {
    const found = spans.find((span) => span.name === name);
    if (found === undefined) throw new Error(`no span named ${name}`);
    return found;
  };
  return { spans, logs, byName, traceId: spans[0]!.spanContext().traceId };
}

/** A log record of `@opentelemetry/instrumentation-openai` (event name in the `event.name` attribute). */
export function openAiLog(eventName: string, body: unknown): Omit<LlmLogRecord, 'traceId' | 'spanId'> {
  return { eventName, body, attributes: { 'event.name': eventName, 'gen_ai.system': 'openai' } };
}

/** JSON text, as instrumentations store structured values on span attributes. */
export function json(value: unknown): string {
  return JSON.stringify(value);
}
