import { AqmSpanProcessor } from '@aqm/otel';
import { ROOT_CONTEXT, SpanKind, type Tracer, trace } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { providerWith } from '../otel/helpers/llm-trace.js';
import { startTestService, type TestService } from '../otel/helpers/service.js';

const SPANS = 10_000;
const DEFAULT_MAX_SPANS_PER_TRACE = 1000;

/** GenAI semconv message JSON, as instrumentations put it on a span. */
const messages = (role: string, text: string) =>
  JSON.stringify([{ role, parts: [{ type: 'text', content: text }] }]);

/**
 * One agent run of `SPANS` spans: a chat span, then tool spans, each carrying `toolOutput`, all
 * under one root that ends last (as in real code). Returns the trace id.
 */
function endAgentRun(tracer: Tracer, toolOutput: string): string {
  const root = tracer.startSpan('agent-run', { kind: SpanKind.SERVER }, ROOT_CONTEXT);
  const parent = trace.setSpan(ROOT_CONTEXT, root);
  tracer
    .startSpan(
      'chat gpt-4o',
      {
        kind: SpanKind.CLIENT,
        attributes: {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': 'gpt-4o',
          'gen_ai.input.messages': messages('user', 'Plan the migration.'),
          'gen_ai.output.messages': messages('assistant', 'Running the tools now.'),
        },
      },
      parent,
    )
    .end();
  for (let i = 0; i < SPANS - 2; i++) {
    tracer
      .startSpan(
        'execute_tool lookup',
        {
          attributes: { 'gen_ai.operation.name': 'execute_tool', 'tool.index': i, 'tool.output': toolOutput },
        },
        parent,
      )
      .end();
  }
  root.end();
  return root.spanContext().traceId;
}

// Ten thousand spans in one trace: the trace is cut at maxSpansPerTrace and still arrives; raised
// past what the service takes in one body, the record is shrunk after the service's real 413.
describe(`${SPANS} spans in one trace`, () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService('many-spans');
  });
  afterAll(() => service?.close());

  it(`with the default maxSpansPerTrace (${DEFAULT_MAX_SPANS_PER_TRACE}): one record of the first ${DEFAULT_MAX_SPANS_PER_TRACE} spans arrives, the rest count as late`, async () => {
    const applicationId = await service.createApp('many-spans');
    const processor = new AqmSpanProcessor({
      apiKey: service.apiKey,
      baseUrl: service.srv.url,
      applicationId,
    });
    const provider = providerWith(processor);
    try {
      const traceId = endAgentRun(provider.getTracer('many-spans'), 'ok');
      await provider.forceFlush();
      expect(processor.stats()).toMatchObject({
        exportedTraces: 1,
        droppedTraces: { total: 0 },
        openTraces: 0,
        queuedTraces: 0,
      });
      const stored = await service.client.traces.get(applicationId, traceId);
      expect(stored.spanCount).toBe(DEFAULT_MAX_SPANS_PER_TRACE);
      expect(stored.prompt).toBe('Plan the migration.');
      expect(stored.response).toBe('Running the tools now.');
      // The spans after the cut were not sent as a second record of the same traceId.
      expect((await service.client.traces.list(applicationId)).pagination.total).toBe(1);
    } finally {
      await provider.shutdown();
    }
  }, 30_000);

  it('with maxSpansPerTrace raised to hold them all (about 7 MB of JSON): the service answers 413, the spans are dropped, the record arrives', async () => {
    const applicationId = await service.createApp('many-spans-raised');
    const processor = new AqmSpanProcessor({
      apiKey: service.apiKey,
      baseUrl: service.srv.url,
      applicationId,
      maxSpansPerTrace: SPANS,
    });
    const provider = providerWith(processor);
    try {
      const before = service.srv.requestCount('evaluations.submit');
      const traceId = endAgentRun(provider.getTracer('many-spans'), 'x'.repeat(500));
      await provider.forceFlush();
      expect(processor.stats()).toMatchObject({ exportedTraces: 1, droppedTraces: { total: 0 } });
      expect(service.srv.requestCount('evaluations.submit') - before).toBe(2);
      const stored = await service.client.traces.get(applicationId, traceId);
      expect(stored.spanCount).toBe(0);
      expect(stored.metadata?.['aqm.droppedSpans']).toBe(SPANS);
      expect(stored.prompt).toBe('Plan the migration.');
      expect(stored.response).toBe('Running the tools now.');
    } finally {
      await provider.shutdown();
    }
  }, 30_000);
});
