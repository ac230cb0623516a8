import { context, propagation, trace } from '@opentelemetry/api';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { PipelineInternals } from '../../src/export/trace-pipeline.js';
import type { AqmOtelOptions } from '../../src/options.js';
import { withLlmSpan } from '../../src/with-llm-span.js';
import { CaptureLogger } from './capture-logger.js';
import type { FakeService } from './fake-service.js';
import { ManualTime } from './manual-time.js';
import { API_KEY, APPLICATION_ID } from './sender-setup.js';

/** Options pointing at the fake service. */
export function aqmOptions(service: FakeService, overrides: AqmOtelOptions = {}): AqmOtelOptions {
  return { apiKey: API_KEY, baseUrl: service.baseUrl, applicationId: APPLICATION_ID, ...overrides };
}

/** Test seams for the exporter/processor: manual time and a captured log. */
export function testInternals(autoRelease = true): {
  time: ManualTime;
  logger: CaptureLogger;
  internals: PipelineInternals;
} {
  const time = new ManualTime(autoRelease);
  const logger = new CaptureLogger();
  return { time, logger, internals: { timing: time.timing, logger } };
}

/** Registers a NodeTracerProvider with `processors`; `unregister()` undoes it. */
export function registerProvider(...processors: SpanProcessor[]) {
  const provider = new NodeTracerProvider({ spanProcessors: processors });
  provider.register();
  return {
    provider,
    async unregister() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** One hand-written LLM call through the global tracer; returns its trace id. */
export async function llmCall(prompt: string, response: string, model = 'gpt-4o-mini'): Promise<string> {
  return withLlmSpan({ model, provider: 'openai', prompt }, (span) => {
    span.setResponse(response).setUsage({ inputTokens: 7, outputTokens: 5 });
    return span.span.spanContext().traceId;
  });
}
