import {
  context,
  createContextKey,
  DiagLogLevel,
  diag,
  propagation,
  ROOT_CONTEXT,
  type TracerProvider,
  trace,
} from '@opentelemetry/api';
import { logs } from '@opentelemetry/api-logs';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { registerAqm } from '../src/register.js';
import { CaptureLogger } from './export-helpers/capture-logger.js';
import { FakeService } from './export-helpers/fake-service.js';
import { aqmOptions, llmCall } from './export-helpers/otel-setup.js';
import { API_KEY } from './export-helpers/sender-setup.js';

let service: FakeService;
let logger: CaptureLogger;
beforeEach(async () => {
  service = await FakeService.start();
  logger = new CaptureLogger();
  diag.setLogger(logger, DiagLogLevel.ALL);
});
afterEach(async () => {
  diag.disable();
  trace.disable();
  context.disable();
  propagation.disable();
  logs.disable();
  await service.close();
});

/** The SDK provider behind the global proxy, if one is registered. */
function globalProvider(): (TracerProvider & { forceFlush?: unknown }) | undefined {
  const delegate = (
    trace.getTracerProvider() as unknown as { getDelegate(): TracerProvider & { forceFlush?: unknown } }
  ).getDelegate();
  return typeof delegate.forceFlush === 'function' ? delegate : undefined;
}

/** A chat span whose content goes on log records, as @opentelemetry/instrumentation-openai does it. */
function llmCallWithLogRecords(question: string, answer: string): string {
  const logger = logs.getLogger('@opentelemetry/instrumentation-openai');
  return trace.getTracer('test').startActiveSpan(
    'chat gpt-4o',
    {
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        'gen_ai.system': 'openai',
      },
    },
    (span) => {
      logger.emit({
        eventName: 'gen_ai.user.message',
        body: { content: question },
        attributes: { 'gen_ai.system': 'openai' },
      });
      logger.emit({
        eventName: 'gen_ai.choice',
        body: { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer } },
        attributes: { 'gen_ai.system': 'openai' },
      });
      span.end();
      return span.spanContext().traceId;
    },
  );
}

describe('registerAqm', () => {
  it('creates and registers a NodeTracerProvider (and a LoggerProvider) when the app has none, and undoes it', async () => {
    expect(globalProvider()).toBeUndefined();
    const aqm = registerAqm(aqmOptions(service));
    expect(aqm.tracing).toBe('created-provider');
    expect(aqm.logs).toBe('created-provider');
    expect(globalProvider()).toBeInstanceOf(NodeTracerProvider);
    expect(logs.getLoggerProvider()).toBeInstanceOf(LoggerProvider);

    const traceId = await llmCall('Where is my order?', 'On its way.');
    await aqm.processor.forceFlush();
    expect(service.acceptedTraces).toMatchObject([
      { traceId, prompt: 'Where is my order?', response: 'On its way.' },
    ]);

    await aqm.shutdown();
    expect(globalProvider()).toBeUndefined();
    expect(logs.getLoggerProvider()).not.toBeInstanceOf(LoggerProvider);
    // The context manager and propagator it registered are gone too.
    const key = createContextKey('probe');
    expect(context.with(ROOT_CONTEXT.setValue(key, 1), () => context.active().getValue(key))).toBeUndefined();
    expect(propagation.fields()).toEqual([]);
    expect(logger.text).not.toContain(API_KEY);
  });

  it('joins content log records (instrumentation-openai style) to their span through the LoggerProvider it set up', async () => {
    const aqm = registerAqm(aqmOptions(service));
    const traceId = await llmCallWithLogRecords('How do refunds work?', 'Within 30 days.');
    await aqm.processor.forceFlush();
    expect(service.acceptedTraces).toMatchObject([
      { traceId, prompt: 'How do refunds work?', response: 'Within 30 days.' },
    ]);
    await aqm.shutdown();
  });

  it("only adds the processor to the app's registered provider, and removes it again at shutdown", async () => {
    const memory = new InMemorySpanExporter();
    const appProvider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(memory)] });
    appProvider.register();
    const aqm = registerAqm(aqmOptions(service, {}));
    expect(aqm.tracing).toBe('added-to-provider');
    expect(globalProvider()).toBe(appProvider);
    // The SDK 2.x provider's internal list, the one registerAqm adds to.
    const processors = (appProvider as unknown as { _activeSpanProcessor: { _spanProcessors: unknown[] } })
      ._activeSpanProcessor._spanProcessors;
    expect(processors).toContain(aqm.processor);

    const first = await llmCall('first', '1');
    await appProvider.forceFlush();
    expect(service.acceptedTraces.map((t) => t.traceId)).toEqual([first]);
    expect(memory.getFinishedSpans()).toHaveLength(1);

    await aqm.shutdown();
    expect(globalProvider()).toBe(appProvider);
    expect(processors).not.toContain(aqm.processor);
    expect(processors).toHaveLength(1);
    await llmCall('second', '2');
    expect(memory.getFinishedSpans()).toHaveLength(2);
    expect(aqm.processor.stats().openTraces).toBe(0);
    expect(service.requests).toHaveLength(1);
    await appProvider.shutdown();
  });

  it('warns with the one-line fix when the registered provider does not let processors be added', async () => {
    const opaque = { getTracer: () => trace.getTracer('noop'), forceFlush: async () => {} } as TracerProvider;
    trace.setGlobalTracerProvider(opaque);
    const aqm = registerAqm(aqmOptions(service, {}));
    expect(aqm.tracing).toBe('not-attached');
    const warning = logger.at('warn').find((m) => m.includes('registerAqm'));
    expect(warning).toContain('spanProcessors: [new AqmSpanProcessor()]');
    await aqm.shutdown();
  });

  it.each([
    ["with processors of its own (NodeSDK's default logs setup)", true],
    ['built without processors', false],
  ])(
    "adds its log processor to the app's registered LoggerProvider %s, keeps the app's, and takes it out at shutdown",
    async (_label, withOwn) => {
      const exported: string[] = [];
      const own = {
        onEmit: (record: { eventName?: string }) => void exported.push(record.eventName ?? ''),
        forceFlush: () => Promise.resolve(),
        shutdown: () => Promise.resolve(),
      };
      const provider = new LoggerProvider({ processors: withOwn ? [own] : [] });
      logs.setGlobalLoggerProvider(provider);
      const aqm = registerAqm(aqmOptions(service));
      expect(aqm.logs).toBe('added-to-provider');
      expect(logs.getLoggerProvider()).toBe(provider);

      const traceId = await llmCallWithLogRecords('How do refunds work?', 'Within 30 days.');
      await aqm.processor.forceFlush();
      expect(service.acceptedTraces).toMatchObject([
        { traceId, prompt: 'How do refunds work?', response: 'Within 30 days.' },
      ]);
      expect(exported).toEqual(withOwn ? ['gen_ai.user.message', 'gen_ai.choice'] : []);

      const processors = (provider as unknown as { _sharedState: { processors: unknown[] } })._sharedState
        .processors;
      expect(processors).toHaveLength(withOwn ? 2 : 1);
      await aqm.shutdown();
      expect(processors).toHaveLength(withOwn ? 1 : 0);
      // Out again: a record now reaches only the app's own processor.
      await llmCallWithLogRecords('Anyone there?', 'No.');
      expect(exported).toHaveLength(withOwn ? 4 : 0);
      expect(service.acceptedTraces).toHaveLength(1);
    },
  );

  it("says through diag why it cannot join a LoggerProvider that is not sdk-logs', and can skip logs", async () => {
    logs.setGlobalLoggerProvider({ getLogger: () => logs.getLoggerProvider().getLogger('x') } as never);
    const withOpaque = registerAqm(aqmOptions(service));
    expect(withOpaque.logs).toBe('existing-provider');
    expect(logger.at('warn').find((m) => m.includes('LoggerProvider'))).toContain(
      '`new AqmLogRecordProcessor(aqm.processor)` among its processors',
    );
    await withOpaque.shutdown();
    logs.disable();

    const without = registerAqm({ ...aqmOptions(service), logs: false });
    expect(without.logs).toBe('disabled');
    expect(logs.getLoggerProvider()).not.toBeInstanceOf(LoggerProvider);
    await without.shutdown();
  });

  it('throws for a bad option before registering anything', () => {
    expect(() => registerAqm({ ...aqmOptions(service), concurrency: 0 })).toThrow(
      'Expected `concurrency` to be an integer from 1 to 64, got `0` (number)',
    );
    expect(() => registerAqm({ ...aqmOptions(service), logs: 'yes' as never })).toThrow(
      'Expected `logs` to be a boolean, got `yes` (string)',
    );
    expect(globalProvider()).toBeUndefined();
  });
});
