import { DiagLogLevel, diag, SpanKind, TraceFlags } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACCEPT_LLM_LOG } from '../src/export/llm-log-sink.js';
import { AqmLogRecordProcessor } from '../src/log-record-processor.js';
import { buildTraceRecord } from '../src/mapping/build-record.js';
import {
  CAPTURE_OFF_WARNING,
  CONTENT_LOSS_WARNING,
  resetContentLossState,
} from '../src/mapping/content-loss.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import { buildTrace, openAiLog, type SpanSpec } from './mapping-helpers/spans.js';

const OPTIONS = { maxValueChars: 10_000 };

/** A chat span as @opentelemetry/instrumentation-openai 0.21 records it: content only on log records. */
function openAiChatSpan(logs: SpanSpec['logs'] = []): SpanSpec {
  return {
    name: 'chat gpt-4o-mini',
    kind: SpanKind.CLIENT,
    scope: '@opentelemetry/instrumentation-openai',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.system': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.usage.input_tokens': 9,
      'gen_ai.usage.output_tokens': 4,
    },
    logs,
  };
}

describe('content carried by log records that never arrive: one diag warning', () => {
  let logger: CaptureLogger;

  beforeEach(() => {
    resetContentLossState();
    logger = new CaptureLogger();
    diag.setLogger(logger, DiagLogLevel.WARN);
  });
  afterEach(() => {
    diag.disable();
    resetContentLossState();
  });

  it('warns once, with the causes and the fix, when instrumentation-openai spans come with no log record', () => {
    for (let i = 0; i < 3; i += 1) {
      const built = buildTrace(openAiChatSpan());
      const record = buildTraceRecord(built.spans, built.logs, OPTIONS);
      // The record still goes out (model, usage and status are worth having), content empty.
      expect(record).toMatchObject({ prompt: '', response: '', model: 'gpt-4o-mini' });
    }
    const warnings = logger.at('warn').filter((line) => line.includes('instrumentation-openai'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(CONTENT_LOSS_WARNING);
    for (const hint of ['logRecordProcessors', 'two', '@opentelemetry/api-logs', 'AqmLogRecordProcessor'])
      expect(warnings[0]).toContain(hint);
  });

  it('says nothing once a gen_ai log record reached an AqmLogRecordProcessor', () => {
    const processor = new AqmLogRecordProcessor({ [ACCEPT_LLM_LOG]: () => {} } as never);
    processor.onEmit({
      spanContext: {
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        traceFlags: TraceFlags.SAMPLED,
      },
      eventName: 'gen_ai.user.message',
      body: { content: 'hi' },
      attributes: {},
    });
    const built = buildTrace(openAiChatSpan());
    buildTraceRecord(built.spans, built.logs, OPTIONS);
    expect(logger.at('warn')).toEqual([]);
  });

  it('says nothing when the span has its joined log records, or carries content itself, or comes from elsewhere', () => {
    const withLogs = buildTrace(
      openAiChatSpan([
        openAiLog('gen_ai.user.message', { content: 'hi' }),
        openAiLog('gen_ai.choice', { index: 0, message: { content: 'hello' } }),
      ]),
    );
    expect(buildTraceRecord(withLogs.spans, withLogs.logs, OPTIONS)).toMatchObject({
      prompt: 'hi',
      response: 'hello',
    });
    const other = buildTrace({ ...openAiChatSpan(), scope: 'my-own-instrumentation' });
    buildTraceRecord(other.spans, other.logs, OPTIONS);
    expect(logger.at('warn')).toEqual([]);
  });

  it('warns once, differently, when the log records arrive without content (capture off)', () => {
    for (let i = 0; i < 2; i += 1) {
      // What the instrumentation emits with captureMessageContent off: the events, no content.
      const built = buildTrace(
        openAiChatSpan([
          openAiLog('gen_ai.user.message', {}),
          openAiLog('gen_ai.choice', { index: 0, finish_reason: 'stop', message: {} }),
        ]),
      );
      expect(buildTraceRecord(built.spans, built.logs, OPTIONS)).toMatchObject({ prompt: '', response: '' });
    }
    expect(logger.at('warn')).toHaveLength(1);
    expect(logger.at('warn')[0]).toContain(CAPTURE_OFF_WARNING);
    expect(logger.at('warn')[0]).toContain('captureMessageContent: true');
  });
});
