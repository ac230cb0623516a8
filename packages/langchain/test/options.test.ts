import { readFileSync } from 'node:fs';
import { AqmCallbackHandler, LANGCHAIN_HANDLER_VERSION } from '@aqm/langchain';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { resolveHandlerOptions } from '../src/options.js';

describe('AqmCallbackHandler options', () => {
  it('defaults: content captured, 32768-char values, 10000 open runs, 10 minutes', () => {
    const resolved = resolveHandlerOptions();
    expect(resolved).toMatchObject({
      captureContent: true,
      maxValueChars: 32_768,
      maxOpenRuns: 10_000,
      maxRunAgeMs: 600_000,
    });
  });

  it('takes undefined for any option, meaning its default (exactOptionalPropertyTypes)', () => {
    const unset: number | undefined = process.env.AQM_TEST_NEVER_SET === undefined ? undefined : 1;
    const options = {
      tracer: undefined,
      tracerProvider: undefined,
      captureContent: undefined,
      maxValueChars: unset,
      maxOpenRuns: unset,
      maxRunAgeMs: unset,
    };
    expect(new AqmCallbackHandler(options)).toBeInstanceOf(AqmCallbackHandler);
    expect(resolveHandlerOptions(options)).toMatchObject({ maxValueChars: 32_768, maxOpenRuns: 10_000 });
  });

  it.each([
    [{ maxOpenRuns: 0 }, RangeError, 'Expected `maxOpenRuns` to be a positive integer, got `0` (number)'],
    [{ maxOpenRuns: 1.5 }, TypeError, 'Expected `maxOpenRuns` to be a positive integer, got `1.5` (number)'],
    [{ maxRunAgeMs: '10' }, TypeError, 'Expected `maxRunAgeMs` to be a positive integer, got `10` (string)'],
    [{ maxValueChars: 10 }, RangeError, 'Expected `maxValueChars` to be an integer >= 64, got `10` (number)'],
    [{ captureContent: 'yes' }, TypeError, 'Expected `captureContent` to be a boolean, got `yes` (string)'],
    [{ tracer: {} }, TypeError, 'Expected `tracer` to be an OpenTelemetry Tracer, got an object'],
    [
      { tracerProvider: 5 },
      TypeError,
      'Expected `tracerProvider` to be an OpenTelemetry TracerProvider, got `5` (number)',
    ],
    [{ maxOpenRun: 5 }, TypeError, 'Unknown option `maxOpenRun`; known options are tracer, tracerProvider'],
  ])('rejects %j', (options, type, message) => {
    expect(() => new AqmCallbackHandler(options as never)).toThrow(type);
    expect(() => new AqmCallbackHandler(options as never)).toThrow(message);
  });

  it('rejects tracer and tracerProvider together, and options that are not an object', () => {
    const provider = new BasicTracerProvider();
    expect(
      () => new AqmCallbackHandler({ tracer: provider.getTracer('x'), tracerProvider: provider }),
    ).toThrow('Pass either `tracer` or `tracerProvider`, not both');
    expect(() => new AqmCallbackHandler('fast' as never)).toThrow(
      'Expected the options to be an object, got `fast` (string)',
    );
  });

  it('is set up for LangChain: awaited (so the active span is the caller’s), errors never raised, stable name', () => {
    const handler = new AqmCallbackHandler();
    expect(handler.awaitHandlers).toBe(true);
    expect(handler.raiseError).toBe(false);
    expect(handler.name).toBe('aqm_callback_handler');
    expect(handler.copy()).toBe(handler);
  });

  it('without a tracer option, uses the global provider, even one registered after the handler was made', async () => {
    const handler = new AqmCallbackHandler();
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    );
    try {
      await new FakeListChatModel({ responses: ['ok'] }).invoke('hi', { callbacks: [handler] });
      const [span] = exporter.getFinishedSpans();
      expect(span?.name).toBe('chat');
      expect(span?.instrumentationScope).toEqual({
        name: '@aqm/langchain',
        version: LANGCHAIN_HANDLER_VERSION,
        schemaUrl: undefined,
      });
    } finally {
      trace.disable();
    }
  });

  it('reports the version of package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(LANGCHAIN_HANDLER_VERSION).toBe(pkg.version);
  });
});
