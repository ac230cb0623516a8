import { AqmLogRecordProcessor, AqmSpanProcessor } from '@aqm/otel';
import { LoggerProvider } from '@opentelemetry/sdk-logs';
import type { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConventionCase } from './helpers/convention-case.js';
import { openInferenceCases, traceloopCases } from './helpers/conventions-frameworks.js';
import { langSmithAndLangfuseCases } from './helpers/conventions-langsmith-langfuse.js';
import { semconvCases } from './helpers/conventions-semconv.js';
import { vercelAiCases } from './helpers/conventions-vercel-ai.js';
import { providerWith } from './helpers/llm-trace.js';
import { startTestService, type TestService } from './helpers/service.js';
import { emitTrace, spanCount } from './helpers/span-tree.js';

const cases: ConventionCase[] = [
  ...semconvCases(),
  ...openInferenceCases(),
  ...traceloopCases(),
  ...vercelAiCases(),
  ...langSmithAndLangfuseCases(),
];

describe('each LLM span convention: spans in → the stored trace has prompt, response, model, usage, status', () => {
  let service: TestService;
  let applicationId: string;
  let processor: AqmSpanProcessor;
  let tracerProvider: NodeTracerProvider;
  let loggerProvider: LoggerProvider;

  beforeAll(async () => {
    service = await startTestService('conventions');
    applicationId = await service.createApp('conventions');
    processor = new AqmSpanProcessor({ apiKey: service.apiKey, baseUrl: service.srv.url, applicationId });
    tracerProvider = providerWith(processor);
    loggerProvider = new LoggerProvider({ processors: [new AqmLogRecordProcessor(processor)] });
  });

  afterAll(async () => {
    await loggerProvider?.shutdown();
    await tracerProvider?.shutdown();
    await service?.close();
  });

  it.each(cases)('$name', async ({ spans, expected }) => {
    const traceId = emitTrace(spans, tracerProvider, loggerProvider);
    const before = processor.stats().exportedTraces;
    await tracerProvider.forceFlush();
    expect(processor.stats().exportedTraces).toBe(before + 1);

    const stored = await service.client.traces.get(applicationId, traceId);
    expect({
      prompt: stored.prompt,
      response: stored.response,
      model: stored.model,
      provider: stored.provider,
      usage: stored.usage,
      status: stored.status,
      errorMessage: stored.errorMessage,
    }).toEqual({ provider: undefined, errorMessage: undefined, ...expected });
    expect(stored.spanCount).toBe(spanCount(spans));
    expect(stored.spans).toHaveLength(spanCount(spans));
  });

  it('covers every convention of the reference', () => {
    // Guards the table itself: a convention silently removed would make the suite pass vacuously.
    const names = cases.map((c) => c.name).join('\n');
    for (const convention of [
      'semconv ≥1.37',
      'semconv ≤1.27',
      'instrumentation-openai chat',
      'OpenInference',
      'Traceloop ≥0.25',
      'Traceloop ≤0.22',
      'Vercel AI SDK v6',
      'Vercel AI SDK v7',
      'LangSmith',
      'Langfuse',
    ]) {
      expect(names).toContain(convention);
    }
    expect(cases.filter((c) => c.expected.status === 'error').length).toBeGreaterThan(0);
  });
});
