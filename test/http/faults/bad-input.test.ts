import { randomBytes } from 'node:crypto';
import { AqmSpanProcessor } from '@aqm/otel';
import { ROOT_CONTEXT, SpanKind, TraceFlags, type Tracer, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiagCapture } from '../otel/helpers/capture-diag.js';
import { providerWith } from '../otel/helpers/llm-trace.js';
import { startTestService, type TestService } from '../otel/helpers/service.js';
import { waitFor } from '../otel/helpers/wait.js';

const MAX_VALUE_CHARS = 32_768;
const TEN_MB = 10 * 1024 * 1024;

/** GenAI semconv message JSON, as instrumentations put it on a span. */
const messages = (role: string, text: string) =>
  JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);

/** Strings (keys included) anywhere in `value` that hold a lone surrogate or a NUL. */
function badStrings(value: unknown): string[] {
  const bad = (text: string) => !text.isWellFormed() || text.includes('\0');
  if (typeof value === 'string') return bad(value) ? [value] : [];
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => [...(bad(key) ? [key] : []), ...badStrings(item)]);
}

/** Ends a root span around one GenAI chat span with `attributes` (ended first, as in real code); returns the trace id. */
function endChat(tracer: Tracer, attributes: Record<string, unknown>, name = 'chat gpt-4o'): string {
  const root = tracer.startSpan('handle-request', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  const chat = tracer.startSpan(
    name,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.request.model': 'gpt-4o',
        ...attributes,
      } as never,
    },
    trace.setSpan(ROOT_CONTEXT, root),
  );
  chat.end();
  root.end();
  return root.spanContext().traceId;
}

// Bad input to the exporter through the real OpenTelemetry SDK: each record must arrive at the
// local service, repaired or cut with a visible marker, and nothing may throw into the app.
describe('bad input to AqmSpanProcessor: nothing throws, every record arrives', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService('bad-input');
  });
  afterAll(() => service?.close());

  /** A processor and provider for one test, with its own diag logger (tests run one after another). */
  async function setup(options: Record<string, unknown> = {}) {
    const applicationId = await service.createApp('bad-input');
    const logger = new DiagCapture();
    const processor = new AqmSpanProcessor(
      { apiKey: service.apiKey, baseUrl: service.srv.url, applicationId, ...options },
      { logger },
    );
    const provider = providerWith(processor);
    return { applicationId, processor, provider, logger, tracer: provider.getTracer('bad-input') };
  }

  it('a 10 MB prompt and response arrive cut to maxValueChars with the marker', async () => {
    const { applicationId, processor, provider, tracer } = await setup();
    try {
      const prompt = `Summarise: ${'p'.repeat(TEN_MB)}`;
      const response = `Summary: ${'r'.repeat(TEN_MB)}`;
      const traceId = endChat(tracer, {
        'gen_ai.input.messages': messages('user', prompt),
        'gen_ai.output.messages': messages('assistant', response),
      });
      await provider.forceFlush();
      expect(processor.stats()).toMatchObject({ exportedTraces: 1, droppedTraces: { total: 0 } });
      const stored = await service.client.traces.get(applicationId, traceId);
      expect(stored.prompt).toBe(
        `${prompt.slice(0, MAX_VALUE_CHARS)}…[truncated ${prompt.length - MAX_VALUE_CHARS} chars]`,
      );
      expect(stored.response).toBe(
        `${response.slice(0, MAX_VALUE_CHARS)}…[truncated ${response.length - MAX_VALUE_CHARS} chars]`,
      );
      // The span attribute holding the 10 MB JSON is cut too.
      const chat = stored.spans.find((span) => span.name === 'chat gpt-4o');
      const input = chat?.attributes['gen_ai.input.messages'] as string;
      expect(input.length).toBeLessThan(MAX_VALUE_CHARS + 40);
      expect(input).toMatch(/…\[truncated \d+ chars\]$/);
    } finally {
      await provider.shutdown();
    }
  }, 30_000);

  it('a 10 MB prompt with maxValueChars raised past the 5 MiB body limit: the service answers 413, the record is shrunk and arrives', async () => {
    const { applicationId, processor, provider, tracer } = await setup({ maxValueChars: 8 * 1024 * 1024 });
    try {
      const prompt = `Summarise: ${'p'.repeat(TEN_MB)}`;
      const before = service.srv.requestCount('evaluations.submit');
      const traceId = endChat(tracer, {
        'gen_ai.input.messages': messages('user', prompt),
        'gen_ai.output.messages': messages('assistant', 'Short answer.'),
      });
      await provider.forceFlush();
      // At least one answer was the service's own 413 before a smaller record was accepted.
      expect(service.srv.requestCount('evaluations.submit') - before).toBeGreaterThanOrEqual(2);
      expect(processor.stats()).toMatchObject({ exportedTraces: 1, droppedTraces: { total: 0 } });
      const stored = await service.client.traces.get(applicationId, traceId);
      // Spans dropped first, then long values cut harder, marked with what was cut in all.
      expect(stored.spanCount).toBe(0);
      expect(stored.metadata?.['aqm.droppedSpans']).toBe(2);
      const marker = /…\[cut (\d+) chars\]$/.exec(stored.prompt);
      expect(marker, stored.prompt.slice(-60)).not.toBeNull();
      expect(stored.prompt.startsWith('Summarise: ppp')).toBe(true);
      // The marker counts everything cut from the original, the cut at maxValueChars included.
      expect(marker!.index + Number(marker![1])).toBe(prompt.length);
      expect(stored.response).toBe('Short answer.');
    } finally {
      await provider.shutdown();
    }
  }, 30_000);

  it('invalid UTF-16 (lone surrogates, NUL) in content, names, keys and events arrives repaired', async () => {
    const { applicationId, processor, provider, tracer } = await setup();
    try {
      const traceId = endChat(
        tracer,
        {
          'gen_ai.input.messages': messages('user', 'Broken \ud800 high, \udc00 low, nul \u0000 end'),
          'gen_ai.output.messages': messages('assistant', 'Reply \udfff\ud83d'),
          'app.note': 'note \ud800',
          'app.\ud800key': 'value',
          'app.nul\u0000key': 'value',
          'app.list': ['ok', 'bad \udc00'],
        },
        'chat \ud800 model',
      );
      await provider.forceFlush();
      expect(processor.stats()).toMatchObject({ exportedTraces: 1, droppedTraces: { total: 0 } });
      const stored = await service.client.traces.get(applicationId, traceId);
      expect(stored.prompt).toBe('Broken \ufffd high, \ufffd low, nul \ufffd end');
      expect(stored.response).toBe('Reply \ufffd\ufffd');
      const chat = stored.spans.find((span) => span.name.startsWith('chat'));
      expect(chat?.name).toBe('chat \ufffd model');
      expect(chat?.attributes['app.note']).toBe('note \ufffd');
      expect(chat?.attributes['app.list']).toEqual(['ok', 'bad \ufffd']);
      expect(chat?.attributes['app.\ufffdkey']).toBe('value');
      // Every string that travelled is well-formed and free of NUL, keys included.
      expect(badStrings(stored)).toEqual([]);
    } finally {
      await provider.shutdown();
    }
  });

  it('non-string attribute arrays (numbers, booleans, nulls, NaN) where text is expected', async () => {
    const { applicationId, processor, provider, tracer } = await setup();
    try {
      const traceId = endChat(tracer, {
        'gen_ai.input.messages': [1, 2, 3],
        'gen_ai.output.messages': [true, false],
        'gen_ai.prompt': [null, 2, null],
        'gen_ai.response.finish_reasons': [1, 2],
        'gen_ai.usage.input_tokens': Number.NaN,
        'gen_ai.usage.output_tokens': [5],
        'llm.input_messages.0.message.content': [0.5, Number.POSITIVE_INFINITY],
        'app.flags': [true, null, false],
      });
      await provider.forceFlush();
      expect(processor.stats()).toMatchObject({ exportedTraces: 1, droppedTraces: { total: 0 } });
      const stored = await service.client.traces.get(applicationId, traceId);
      expect(stored.model).toBe('gpt-4o');
      expect(typeof stored.prompt).toBe('string');
      const chat = stored.spans.find((span) => span.name === 'chat gpt-4o');
      expect(chat?.attributes['app.flags']).toEqual([true, null, false]);
      expect(chat?.attributes['gen_ai.input.messages']).toEqual([1, 2, 3]);
    } finally {
      await provider.shutdown();
    }
  });

  it('spans whose parent never ends arrive, by forceFlush() and by the idle timeout, parent ids kept', async () => {
    const { applicationId, processor, provider, tracer } = await setup({ traceIdleMs: 200 });
    try {
      /** A chat span under a parent that exists only as a context: it is never ended or exported. */
      const orphan = (label: string) => {
        const parent = { traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex') };
        const context = trace.setSpanContext(ROOT_CONTEXT, { ...parent, traceFlags: TraceFlags.SAMPLED });
        const span = tracer.startSpan(
          'chat gpt-4o',
          {
            kind: SpanKind.CLIENT,
            attributes: {
              'gen_ai.operation.name': 'chat',
              'gen_ai.request.model': 'gpt-4o',
              'gen_ai.input.messages': messages('user', `${label} question`),
              'gen_ai.output.messages': messages('assistant', `${label} answer`),
            },
          },
          context,
        );
        span.end();
        return parent;
      };
      const idle = orphan('idle');
      // The idle timeout completes it: no flush asked for.
      await waitFor(() => processor.stats().exportedTraces === 1, 'the idle trace to be delivered', 10_000);
      const flushed = orphan('flushed');
      await provider.forceFlush();
      expect(processor.stats()).toMatchObject({ exportedTraces: 2, droppedTraces: { total: 0 } });
      for (const [parent, label] of [
        [idle, 'idle'],
        [flushed, 'flushed'],
      ] as const) {
        const stored = await service.client.traces.get(applicationId, parent.traceId);
        expect(stored.prompt).toBe(`${label} question`);
        expect(stored.spans.map((span) => span.parentSpanId)).toEqual([parent.spanId]);
      }
    } finally {
      await provider.shutdown();
    }
  });
});
