// OTLP requests made ahead of time, as a Collector in front of the forwarder would send them: the
// bench workload's traces, ended by a real SDK tracer, serialized by the official OTLP serializer into
// ExportTraceServiceRequest protobuf bodies of `batch` traces each. And the few protobuf fields a
// sender reads back: google.rpc.RetryInfo in a gRPC refusal, partial_success in an answer.
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { endTrace } from './workload.mjs';

/**
 * Traces `from`..`from + count - 1` as requests of `batch` traces (the last one may hold fewer). The
 * spans of one trace go in the same request, the chat span before its root as the SDK ends them. Made
 * one request at a time, so only one batch of spans is alive at once: only the bodies are kept.
 * @returns {{ traces: number, spans: number, body: Buffer }[]}
 */
export function traceRequests(from, count, batch) {
  const finished = [];
  const collector = {
    onStart() {},
    onEnd(span) {
      finished.push(span);
    },
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const provider = new NodeTracerProvider({ spanProcessors: [collector] });
  const tracer = provider.getTracer('bench-forwarder-load');
  const requests = [];
  for (let first = 0; first < count; first += batch) {
    const traces = Math.min(batch, count - first);
    for (let i = 0; i < traces; i += 1) endTrace(tracer, from + first + i);
    const bytes = ProtobufTraceSerializer.serializeRequest(finished);
    requests.push({
      traces,
      spans: finished.length,
      body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    });
    finished.length = 0;
  }
  return requests;
}

/** The fields of a protobuf message: `[field number, wire type, value]` (a number or a Buffer). */
function* fields(buffer) {
  let at = 0;
  const varint = () => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (at >= buffer.length) throw new RangeError('truncated varint');
      const byte = buffer[at++];
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  while (at < buffer.length) {
    const key = varint();
    const type = key & 7;
    if (type === 0) yield [key >>> 3, type, varint()];
    else if (type === 2) {
      const length = varint();
      yield [key >>> 3, type, buffer.subarray(at, at + length)];
      at += length;
    } else if (type === 1 || type === 5) at += type === 1 ? 8 : 4;
    else throw new RangeError(`unexpected wire type ${type}`);
  }
}

/** The field `number` of a message (the last one, as protobuf reads it), or undefined. */
function field(buffer, number) {
  let found;
  for (const [n, , value] of fields(buffer)) if (n === number) found = value;
  return found;
}

const RETRY_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.RetryInfo';

/**
 * The delay (ms) a gRPC refusal asks for: `grpc-status-details-bin` is a google.rpc.Status whose
 * details (field 3, Any) may hold a RetryInfo { Duration retry_delay = 1 }. Undefined without one.
 */
export function retryInfoDelayMs(statusDetails) {
  if (!Buffer.isBuffer(statusDetails)) return undefined;
  try {
    for (const [n, type, any] of fields(statusDetails)) {
      if (n !== 3 || type !== 2) continue;
      if (field(any, 1)?.toString('utf8') !== RETRY_INFO_TYPE_URL) continue;
      const duration = field(field(any, 2) ?? Buffer.alloc(0), 1) ?? Buffer.alloc(0);
      return (field(duration, 1) ?? 0) * 1000 + (field(duration, 2) ?? 0) / 1e6;
    }
  } catch {
    // Not a well-formed Status: no delay to honour, the sender backs off by itself.
  }
  return undefined;
}

/**
 * The text of a refusal's body: a google.rpc.Status { int32 code = 1; string message = 2 } when
 * `contentType` is protobuf (as OTLP/HTTP protobuf answers errors), else the body as text.
 */
export function statusMessage(body, contentType = '') {
  if (contentType.includes('protobuf')) {
    try {
      const message = field(body, 2);
      if (Buffer.isBuffer(message)) return message.toString('utf8');
    } catch {
      // Not a Status after all: shown as text below.
    }
  }
  return body.toString('utf8');
}

/**
 * Spans an ExportTraceServiceResponse says were refused: partial_success (field 1) { int64
 * rejected_spans = 1; string error_message = 2 }. 0 for an empty answer.
 */
export function rejectedSpans(response) {
  if (!response || response.length === 0) return { spans: 0, message: '' };
  try {
    const partial = field(response, 1);
    if (!Buffer.isBuffer(partial)) return { spans: 0, message: '' };
    return { spans: field(partial, 1) ?? 0, message: field(partial, 2)?.toString('utf8') ?? '' };
  } catch {
    return { spans: 0, message: 'the answer is not an ExportTraceServiceResponse' };
  }
}
