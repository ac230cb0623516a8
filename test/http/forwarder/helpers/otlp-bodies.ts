import { gzipSync } from 'node:zlib';
import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { endChatSpan } from '../../otel/helpers/llm-trace.js';

/**
 * Real SDK spans of one LLM trace, in the order they ended: a `chat` span, an `agent` span
 * around it, and the root request span. Made by the SDK (not by hand), so the bodies built from
 * them are what an app's exporter sends.
 */
export function llmTraceSpans(prompt: string, response: string): { traceId: string; spans: ReadableSpan[] } {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('forwarder-test');
  const root = tracer.startSpan('POST /ask', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  const agent = tracer.startSpan('agent', {}, trace.setSpan(ROOT_CONTEXT, root));
  endChatSpan(tracer, agent, prompt, response);
  agent.end();
  root.end();
  return { traceId: root.spanContext().traceId, spans: exporter.getFinishedSpans() };
}

/** An `ExportTraceServiceRequest` in protobuf, as `@opentelemetry/exporter-trace-otlp-proto` sends it. */
export function protoBody(spans: ReadableSpan[]): Buffer {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array);
}

/** The same request in OTLP/JSON, as `@opentelemetry/exporter-trace-otlp-http` sends it. */
export function jsonBody(spans: ReadableSpan[]): Buffer {
  return Buffer.from(JsonTraceSerializer.serializeRequest(spans) as Uint8Array);
}

/** An answer: status, headers and body bytes. */
export interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
  text: string;
}

/** Options of {@link postOtlp}. */
export interface PostOptions {
  contentType?: string;
  gzip?: boolean;
  /** Extra headers, e.g. authorization. */
  headers?: Record<string, string>;
  path?: '/v1/traces' | '/v1/logs' | string;
}

/** POSTs an OTLP body to the forwarder. */
export async function postOtlp(baseUrl: string, body: Buffer, options: PostOptions = {}): Promise<Answer> {
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? 'application/x-protobuf',
    ...options.headers,
  };
  let payload = body;
  if (options.gzip === true) {
    payload = gzipSync(body);
    headers['content-encoding'] = 'gzip';
  }
  const response = await fetch(`${baseUrl}${options.path ?? '/v1/traces'}`, {
    method: 'POST',
    headers,
    body: payload,
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, body: bytes, text: bytes.toString('utf8') };
}
