import { context, type SpanContext, TraceFlags, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { ACCEPT_LLM_LOG, type LlmLogSink } from '../src/export/llm-log-sink.js';
import { AqmLogRecordProcessor, type LlmLogRecordInput } from '../src/log-record-processor.js';
import type { LlmLogRecord } from '../src/mapping/llm-log-record.js';

class RecordingSink implements LlmLogSink {
  readonly logs: LlmLogRecord[] = [];
  [ACCEPT_LLM_LOG](log: LlmLogRecord): void {
    this.logs.push(log);
  }
}

const sampled: SpanContext = {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
};

function processorWithSink() {
  const sink = new RecordingSink();
  // The constructor's type names the two real targets; the sink has the same (internal) surface.
  const processor = new AqmLogRecordProcessor(sink as never);
  return { sink, processor };
}

describe('AqmLogRecordProcessor', () => {
  it('forwards gen_ai.* records with their span context, named by eventName or the event.name attribute', () => {
    const { sink, processor } = processorWithSink();
    const body = { content: 'What is the refund policy?' };
    processor.onEmit({
      spanContext: sampled,
      eventName: 'gen_ai.user.message',
      body,
      attributes: { 'gen_ai.system': 'openai' },
    });
    processor.onEmit({
      spanContext: sampled,
      body: { index: 0, message: { content: 'Within 30 days.' } },
      attributes: { 'event.name': 'gen_ai.choice' },
    });
    expect(sink.logs).toEqual([
      {
        traceId: sampled.traceId,
        spanId: sampled.spanId,
        eventName: 'gen_ai.user.message',
        body,
        attributes: { 'gen_ai.system': 'openai' },
      },
      {
        traceId: sampled.traceId,
        spanId: sampled.spanId,
        eventName: 'gen_ai.choice',
        body: { index: 0, message: { content: 'Within 30 days.' } },
        attributes: { 'event.name': 'gen_ai.choice' },
      },
    ]);
  });

  it('takes the span context from the emit context when the record has none', () => {
    const { sink, processor } = processorWithSink();
    const ctx = trace.setSpanContext(context.active(), sampled);
    processor.onEmit({ eventName: 'gen_ai.system.message', body: 'Be brief.', attributes: {} }, ctx);
    expect(sink.logs.map((l) => [l.spanId, l.eventName, l.body])).toEqual([
      [sampled.spanId, 'gen_ai.system.message', 'Be brief.'],
    ]);
  });

  it.each<[string, LlmLogRecordInput]>([
    ['another event', { spanContext: sampled, eventName: 'http.request', body: 'x', attributes: {} }],
    ['no event name', { spanContext: sampled, body: 'x', attributes: {} }],
    ['no span context', { eventName: 'gen_ai.user.message', body: 'x', attributes: {} }],
    [
      'an unsampled span',
      {
        spanContext: { ...sampled, traceFlags: TraceFlags.NONE },
        eventName: 'gen_ai.choice',
        body: 'x',
        attributes: {},
      },
    ],
    [
      'an invalid span context',
      {
        spanContext: { ...sampled, traceId: '0'.repeat(32) },
        eventName: 'gen_ai.choice',
        body: 'x',
        attributes: {},
      },
    ],
  ])('ignores a record with %s', (_, record) => {
    const { sink, processor } = processorWithSink();
    processor.onEmit(record);
    expect(sink.logs).toEqual([]);
  });

  it('never throws, even for a malformed record', () => {
    const { processor } = processorWithSink();
    expect(() => processor.onEmit(null as never)).not.toThrow();
  });

  it('refuses a target that is not an AqmSpanProcessor or AqmSpanExporter', () => {
    expect(() => new AqmLogRecordProcessor({} as never)).toThrow(
      'Expected `target` to be an AqmSpanProcessor or AqmSpanExporter, got an object',
    );
  });

  it('has nothing to flush or shut down of its own', async () => {
    const { processor } = processorWithSink();
    await expect(processor.forceFlush()).resolves.toBeUndefined();
    await expect(processor.shutdown()).resolves.toBeUndefined();
  });
});
