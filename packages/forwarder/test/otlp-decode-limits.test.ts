import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { OtlpDecodeError } from '../src/otlp/decode-error.js';
import { DECODE_LIMITS } from '../src/otlp/decode-limits.js';
import { checkRequestPrefix, decodeRequest } from '../src/otlp/otlp-codec.js';
import {
  emptyResourceSpans,
  encodeTraces,
  jsonNestedArrays,
  jsonWithValue,
  manyAttributes,
  nestedArrayValue,
} from './helpers/hostile-otlp.js';

function refusal(run: () => unknown): OtlpDecodeError {
  try {
    run();
  } catch (error) {
    if (error instanceof OtlpDecodeError) return error;
    throw error;
  }
  throw new Error('expected an OtlpDecodeError, the body decoded');
}

const proto = (body: Buffer) => () => decodeRequest('traces', 'protobuf', body);
const json = (text: string) => () => decodeRequest('traces', 'json', Buffer.from(text));

/** Spans as a real SDK batch holds them: 512 spans of 128 attributes and 4 events each. */
function fullSdkBatch() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    spanLimits: { attributeCountLimit: 128 },
  });
  const tracer = provider.getTracer('limits');
  for (let i = 0; i < 512; i += 1) {
    const span = tracer.startSpan(`span ${i}`);
    for (let a = 0; a < 128; a += 1)
      span.setAttribute(`attribute.${a}`, a % 2 === 0 ? `value ${a}` : [a, a + 1]);
    for (let e = 0; e < 4; e += 1) span.addEvent('event', { 'event.index': e, 'event.text': 'x' });
    span.end();
  }
  return exporter.getFinishedSpans();
}

describe('decode limits (issue 26: bounded decode work per request)', () => {
  it('refuses 8 MB of empty messages with 413 at the resource limit, before decoding them', () => {
    const error = refusal(proto(emptyResourceSpans(8 * 1024 * 1024)));
    expect(error.statusCode).toBe(413);
    expect(error.message).toContain(`more than ${DECODE_LIMITS.resources} resource entries`);
    expect(error.message).toContain('DECODE_LIMITS.resources');
  });

  it('refuses 200,000 attributes with 413 naming the attribute limit and its value', () => {
    const error = refusal(proto(manyAttributes(200_000)));
    expect(error.statusCode).toBe(413);
    expect(error.message).toContain(`more than ${DECODE_LIMITS.attributes} attributes`);
    expect(error.message).toContain('DECODE_LIMITS.attributes');
  });

  it('refuses AnyValues nested past the depth limit with 400, in protobuf and in JSON', () => {
    const depth = DECODE_LIMITS.anyValueDepth + 1;
    const error = refusal(proto(nestedArrayValue(depth)));
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain('DECODE_LIMITS.anyValueDepth');
    expect(() => proto(nestedArrayValue(depth - 1))()).not.toThrow();

    let value: object = { stringValue: 'bottom' };
    for (let i = 1; i < depth; i += 1) value = { arrayValue: { values: [value] } };
    expect(refusal(json(jsonWithValue(value))).message).toContain('DECODE_LIMITS.anyValueDepth');
  });

  it('refuses JSON nested past its depth limit before parsing it, and JSON with too many values', () => {
    const deep = refusal(json(jsonNestedArrays(100_000)));
    expect(deep.statusCode).toBe(400);
    expect(deep.message).toContain(`deeper than ${DECODE_LIMITS.jsonDepth} levels`);
    const many = refusal(json(`{"resourceSpans":[${'{},'.repeat(DECODE_LIMITS.jsonValues)}{}]}`));
    expect(many.statusCode).toBe(413);
    expect(many.message).toContain('DECODE_LIMITS.jsonValues');
    // Brackets inside strings are not nesting.
    expect(() => json(jsonWithValue({ stringValue: '['.repeat(1000) + '\\"{' }))()).not.toThrow();
  });

  it('counts spans and events across resources and scopes, for logs too', () => {
    const spans = Array.from({ length: DECODE_LIMITS.items + 1 }, () => ({ name: 's' }));
    const error = refusal(proto(encodeTraces(spans)));
    expect(error.statusCode).toBe(413);
    expect(error.message).toContain(`more than ${DECODE_LIMITS.items} spans`);
    const records = JSON.stringify({
      resourceLogs: [
        { scopeLogs: [{ logRecords: Array.from({ length: DECODE_LIMITS.items + 1 }, () => ({})) }] },
      ],
    });
    expect(refusal(() => decodeRequest('logs', 'json', Buffer.from(records))).message).toContain(
      `more than ${DECODE_LIMITS.items} log records`,
    );
  });

  it('refuses wire data protobufjs would read differently from the walk (400, not a decode)', () => {
    // ExportTraceServiceRequest field 1 (resourceSpans, a message) sent as a varint.
    expect(refusal(proto(Buffer.from([0x08, 0x01]))).statusCode).toBe(400);
    // A group (wire type 3), and a length past the end.
    expect(refusal(proto(Buffer.from([0x0b, 0x0c]))).statusCode).toBe(400);
    expect(refusal(proto(Buffer.from([0x0a, 0x05, 0x00]))).statusCode).toBe(400);
    // Span.kind (int32) as a 7-byte varint: protobufjs would read 10 bytes.
    const span = Buffer.from([0x30, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00]);
    const scope = Buffer.concat([Buffer.from([0x12, span.length]), span]);
    const resource = Buffer.concat([Buffer.from([0x12, scope.length]), scope]);
    expect(refusal(proto(Buffer.concat([Buffer.from([0x0a, resource.length]), resource]))).statusCode).toBe(
      400,
    );
  });

  it('refuses a hostile body from its first bytes, and never a valid body cut anywhere', () => {
    const empty = refusal(() => checkRequestPrefix('traces', 'protobuf', emptyResourceSpans(256 * 1024)));
    expect(empty.statusCode).toBe(413);
    const attributes = manyAttributes(200_000);
    expect(
      refusal(() => checkRequestPrefix('traces', 'protobuf', attributes.subarray(0, 3 << 20))).statusCode,
    ).toBe(413);
    expect(
      refusal(() =>
        checkRequestPrefix('traces', 'json', Buffer.from(jsonNestedArrays(1000)).subarray(0, 300)),
      ).statusCode,
    ).toBe(400);

    const spans = fullSdkBatch().slice(0, 64);
    const bodies = {
      protobuf: Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array),
      json: Buffer.from(JsonTraceSerializer.serializeRequest(spans) as Uint8Array),
    };
    for (const [format, body] of Object.entries(bodies) as ['protobuf' | 'json', Buffer][]) {
      for (let cut = 0; cut <= body.length; cut += 997) {
        expect(
          () => checkRequestPrefix('traces', format, body.subarray(0, cut)),
          `${format} cut at ${cut}`,
        ).not.toThrow();
      }
    }
  });

  it('takes a full SDK batch (512 spans x 128 attributes, events) in protobuf and JSON', () => {
    const spans = fullSdkBatch();
    const fromProto = decodeRequest(
      'traces',
      'protobuf',
      Buffer.from(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array),
    );
    const fromJson = decodeRequest(
      'traces',
      'json',
      Buffer.from(JsonTraceSerializer.serializeRequest(spans) as Uint8Array),
    );
    for (const decoded of [fromProto, fromJson]) {
      const scopeSpans = decoded[0]?.scopeSpans as { spans: unknown[] }[];
      expect(scopeSpans[0]?.spans).toHaveLength(512);
    }
  });
});

describe('malformed OTLP/JSON values (issue 26: 400, never 500)', () => {
  it.each([
    ['an object as stringValue', { stringValue: { toString: 1 } }, 'value.stringValue is not a string'],
    ['an object as doubleValue', { doubleValue: { valueOf: 1 } }, 'value.doubleValue is not a number'],
    ['nested arrays as stringValue', { stringValue: [[[[['x']]]]] }, 'value.stringValue is not a string'],
    ['a string as arrayValue', { arrayValue: 'x' }, 'value.arrayValue is not an object'],
    [
      'a non-list kvlist',
      { kvlistValue: { values: 3 } },
      'value.kvlistValue.values is not a list of key-values',
    ],
    ['a fraction as intValue', { intValue: 1.5 }, 'value.intValue is not an integer'],
    ['a word as doubleValue', { doubleValue: 'many' }, 'value.doubleValue is not a number'],
    ['an array as AnyValue', [1], 'value is not an AnyValue object'],
  ])('refuses %s with 400 naming where it is', (_name, value, expected) => {
    const error = refusal(json(jsonWithValue(value)));
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain(`resourceSpans[0].scopeSpans[0].spans[0].attributes[0].${expected}`);
  });

  it('refuses a key that is not a string', () => {
    const text = jsonWithValue({ stringValue: 'x' }).replace('"key":"bad"', '"key":{"toString":1}');
    expect(refusal(json(text)).message).toContain('attributes[0].key is not a string');
  });

  it('takes what OTLP/JSON allows: null members, numeric strings, NaN, int64 as a number', () => {
    for (const value of [
      { stringValue: null },
      { doubleValue: 'NaN' },
      { doubleValue: '-1.5e3' },
      { doubleValue: 2 },
      { intValue: '-9007199254740993' },
      { intValue: 7 },
      { bytesValue: 'AAE=' },
      { arrayValue: {} },
      { kvlistValue: { values: [{ key: 'k', value: { boolValue: false } }] } },
      {},
      null,
    ]) {
      expect(() => json(jsonWithValue(value))(), JSON.stringify(value)).not.toThrow();
    }
  });
});
