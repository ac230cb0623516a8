import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import { maskPII } from '../src/privacy/mask.js';
import type { ReadableSpan, SpanAttributes } from '../src/sdk-types.js';

// `@opentelemetry/api` 1.10 (the SDK 3.x line) lets attribute values be any value: maps, byte
// arrays, nested arrays. The 2.x SDK drops such values, so these spans are built by hand.
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';

function span(spanId: string, name: string, attributes: SpanAttributes, parent?: string): ReadableSpan {
  return {
    name,
    kind: SpanKind.CLIENT,
    spanContext: () => ({ traceId: TRACE_ID, spanId, traceFlags: 1 }),
    parentSpanContext:
      parent === undefined ? undefined : { traceId: TRACE_ID, spanId: parent, traceFlags: 1 },
    startTime: [1_760_000_000, 0],
    endTime: [1_760_000_001, 0],
    status: { code: SpanStatusCode.UNSET },
    attributes,
    events: [],
    resource: { attributes: { 'service.name': 'any-value-app' } },
    instrumentationScope: { name: 'test' },
  };
}

const circular: Record<string, unknown> = { name: 'loop' };
circular.self = circular;
let deep: Record<string, unknown> = { leaf: 'bottom' };
for (let i = 0; i < 12; i += 1) deep = { next: deep };

const chat = span('b7ad6b7169203331', 'chat gpt-4o', {
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': 'gpt-4o',
  // Structured, not a JSON string.
  'gen_ai.input.messages': [
    { role: 'user', parts: [{ type: 'text', content: 'Mail me at ann@example.com' }] },
  ],
  'gen_ai.output.messages': [
    { role: 'assistant', parts: [{ type: 'text', content: 'Sent.' }], finish_reason: 'stop' },
  ],
  'app.request': { user: { email: 'ann@example.com', tags: ['vip', 'bob@example.org'] }, retries: 2 },
  'app.payload': new Uint8Array(48),
  'app.deep': deep,
  'app.circular': circular,
  'app.big': 12345678901234567890n,
});

describe('attribute values of any shape (api 1.10)', () => {
  const record = buildTraceRecord([chat], [], { maxValueChars: 1000, mask: maskPII });
  const attributes = record?.spans?.[0]?.attributes as Record<string, unknown>;

  it('reads structured messages for the prompt and response', () => {
    expect(record?.prompt).toBe('Mail me at [EMAIL]');
    expect(record?.response).toBe('Sent.');
  });

  it('masks strings inside maps and arrays at any depth', () => {
    expect(attributes['app.request']).toEqual({
      user: { email: '[EMAIL]', tags: ['vip', '[EMAIL]'] },
      retries: 2,
    });
    expect(JSON.stringify(attributes)).not.toContain('@example.');
  });

  it('summarises bytes, bounds depth, ends cycles and stringifies bigints, so the record serialises', () => {
    expect(attributes['app.payload']).toBe('[48 bytes]');
    expect(JSON.stringify(attributes['app.deep'])).toContain('"[Object]"');
    expect(JSON.stringify(attributes['app.deep'])).not.toContain('bottom');
    expect(JSON.stringify(attributes['app.circular'])).toContain('"[Object]"');
    expect(attributes['app.big']).toBe('12345678901234567890');
    expect(() => JSON.stringify(record)).not.toThrow();
  });
});
