import { DiagLogLevel, diag, SpanKind, TraceFlags } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCEPT_LLM_LOG } from '../src/export/llm-log-sink.js';
import { AqmLogRecordProcessor } from '../src/log-record-processor.js';
import { buildTraceRecord, prepareTraceRecord } from '../src/mapping/build-record.js';
import { CAPTURE_OFF_WARNING, resetContentLossState } from '../src/mapping/content-loss.js';
import {
  FORWARDER_NO_LOGS,
  NO_AQM_LOG_PROCESSOR,
  NO_LOGGER_PROVIDER,
  TWO_API_LOGS_COPIES,
  UNKNOWN_LOGS_SETUP,
} from '../src/mapping/content-loss-advice.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import { withServiceAndStderr } from './export-helpers/stderr-setup.js';
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
    // No logger provider is registered in this process.
    expect(warnings[0]).toContain(NO_LOGGER_PROVIDER);
    for (const hint of ['no LoggerProvider is registered', 'registerAqm()', 'logRecordProcessors'])
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

/** Registers `provider` as every copy of @opentelemetry/api-logs reads it (their shared global). */
function registerLoggerProvider(provider: object | undefined): void {
  const key = Symbol.for('io.opentelemetry.js.api.logs');
  const holder = globalThis as Record<symbol, unknown>;
  if (provider === undefined) delete holder[key];
  else holder[key] = (version: number) => (version === 1 ? provider : undefined);
}

/** An sdk-logs LoggerProvider's inside, with these processors. */
const sdkProvider = (processors: unknown[]) => ({ _sharedState: { processors } });

describe('the explanation names the logs setup the process has, the cause and the fix', () => {
  let logger: CaptureLogger;
  beforeEach(() => {
    resetContentLossState();
    logger = new CaptureLogger();
    diag.setLogger(logger, DiagLogLevel.WARN);
  });
  afterEach(() => {
    diag.disable();
    registerLoggerProvider(undefined);
    resetContentLossState();
  });

  const aqmLogProcessor = new AqmLogRecordProcessor({ [ACCEPT_LLM_LOG]: () => {} } as never);
  it.each([
    ['no logger provider', undefined, NO_LOGGER_PROVIDER, 'OTEL_LOGS_EXPORTER=none'],
    [
      "NodeSDK's default logs setup: a provider with an OTLP exporter only",
      sdkProvider([{ onEmit() {} }]),
      NO_AQM_LOG_PROCESSOR,
      'registerAqm()` after `sdk.start()',
    ],
    [
      'a provider with an AqmLogRecordProcessor that no record reached: two copies of api-logs',
      sdkProvider([aqmLogProcessor]),
      TWO_API_LOGS_COPIES,
      'npm ls @opentelemetry/api-logs',
    ],
    ['a provider this package cannot look into', { getLogger() {} }, UNKNOWN_LOGS_SETUP, 'two copies'],
  ])('%s', (_label, provider, explanation, hint) => {
    registerLoggerProvider(provider);
    const built = buildTrace(openAiChatSpan());
    buildTraceRecord(built.spans, built.logs, OPTIONS);
    expect(logger.at('warn')).toEqual([expect.stringContaining(explanation)]);
    expect(explanation).toContain(hint);
  });

  it('in the forwarder, says the app must export its log records there', () => {
    registerLoggerProvider(sdkProvider([aqmLogProcessor])); // the forwarder's own process: irrelevant
    const built = buildTrace(openAiChatSpan());
    prepareTraceRecord(built.spans, built.logs, { ...OPTIONS, contentLoss: { receivesOtlp: true } });
    expect(logger.at('warn')).toEqual([expect.stringContaining(FORWARDER_NO_LOGS)]);
    expect(FORWARDER_NO_LOGS).toContain('OTEL_LOGS_EXPORTER');
  });

  it('tells the pipeline why each trace has no content, every time (it counts them)', () => {
    const lost = buildTrace(openAiChatSpan());
    const captureOff = buildTrace(openAiChatSpan([openAiLog('gen_ai.user.message', {})]));
    const fine = buildTrace(openAiChatSpan([openAiLog('gen_ai.user.message', { content: 'hi' })]));
    const why = (t: typeof lost) => prepareTraceRecord(t.spans, t.logs, OPTIONS)?.contentLoss;
    expect([why(lost), why(lost), why(captureOff), why(fine)]).toEqual([
      'no-log-records',
      'no-log-records',
      'capture-off',
      undefined,
    ]);
  });
});

describe('without any logging set up', () => {
  const setup = withServiceAndStderr();
  beforeEach(() => resetContentLossState());
  afterEach(() => resetContentLossState());

  it('prints the explanation once on stderr (OTEL_LOG_LEVEL unset, no diag logger)', () => {
    for (let i = 0; i < 3; i += 1) {
      const built = buildTrace(openAiChatSpan());
      buildTraceRecord(built.spans, built.logs, OPTIONS);
    }
    expect(setup.stderrLines()).toEqual([`@aqm/otel: ${NO_LOGGER_PROVIDER}\n`]);
  });

  /** A trace whose log records came without content (capture off). */
  function captureOffTrace() {
    const built = buildTrace(openAiChatSpan([openAiLog('gen_ai.user.message', {})]));
    buildTraceRecord(built.spans, built.logs, OPTIONS);
  }

  it('capture off by default: said once on stderr', () => {
    captureOffTrace();
    captureOffTrace();
    expect(setup.stderrLines()).toEqual([`@aqm/otel: ${CAPTURE_OFF_WARNING}\n`]);
  });

  it('capture turned off on purpose (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=false): not on stderr, only through diag', () => {
    vi.stubEnv('OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT', 'false');
    captureOffTrace();
    expect(setup.stderrLines()).toEqual([]);
    resetContentLossState();
    const logger = new CaptureLogger();
    diag.setLogger(logger, DiagLogLevel.WARN);
    captureOffTrace();
    expect(logger.at('warn')).toEqual([expect.stringContaining(CAPTURE_OFF_WARNING)]);
  });
});
