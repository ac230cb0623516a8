import protobuf from 'protobufjs/light.js';
import { OTLP_DESCRIPTOR } from '../../src/otlp/otlp-descriptor.js';

// Bodies a hostile or broken sender may send, built at the wire level (protobuf) or as text (JSON).

const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR);
const traceRequest = root.lookupType('opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest');

/** `bytes` of empty `ResourceSpans` (tag 0x0a, length 0): millions of messages once decoded. */
export function emptyResourceSpans(bytes: number): Buffer {
  const body = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 2) body[i] = 0x0a;
  return body;
}

const ids = { traceId: Buffer.alloc(16, 1), spanId: Buffer.alloc(8, 2) };

/** One span with `count` attributes (about 15 bytes each), encoded by protobufjs. */
export function manyAttributes(count: number): Buffer {
  const attributes = Array.from({ length: count }, (_, i) => ({ key: `k${i}`, value: { intValue: i } }));
  return encodeTraces([{ ...ids, name: 'many', attributes }]);
}

/** One span whose attribute value is an array nested `depth` levels deep. */
export function nestedArrayValue(depth: number): Buffer {
  let value: object = { stringValue: 'bottom' };
  for (let i = 1; i < depth; i += 1) value = { arrayValue: { values: [value] } };
  return encodeTraces([{ ...ids, name: 'deep', attributes: [{ key: 'deep', value }] }]);
}

/** An `ExportTraceServiceRequest` of these spans (protobufjs objects) under one resource and scope. */
export function encodeTraces(spans: object[]): Buffer {
  const request = traceRequest.fromObject({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
  return Buffer.from(traceRequest.encode(request).finish());
}

/** An OTLP/JSON traces request with one valid span whose attribute `bad` has `value`. */
export function jsonWithValue(value: unknown): string {
  return JSON.stringify({
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                traceId: '01'.repeat(16),
                spanId: '02'.repeat(8),
                name: 'span',
                attributes: [{ key: 'bad', value }],
              },
            ],
          },
        ],
      },
    ],
  });
}

/** `{"resourceSpans":[[[[...]]]]}`: arrays nested `depth` levels. */
export function jsonNestedArrays(depth: number): string {
  return `{"resourceSpans":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}
