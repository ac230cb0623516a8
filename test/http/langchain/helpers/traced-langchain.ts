import type { AqmClient } from '@aqm/client';
import { AqmCallbackHandler } from '@aqm/langchain';
import { AqmSpanProcessor } from '@aqm/otel';
import { expect } from 'vitest';
// LangChain and the OpenTelemetry SDK are development dependencies of @aqm/langchain, taken from there.
import {
  AsyncLocalStorageContextManager,
  BasicTracerProvider,
  context,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '../../../../packages/langchain/test/helpers/http-test-deps.js';
import { startTestService, type TestService } from '../../otel/helpers/service.js';

/**
 * The pipeline the LangChain tests run chains through: the local service with one application, a
 * tracer provider sending to it through AqmSpanProcessor (ended spans also kept in memory, to find
 * trace ids by span name), and an AqmCallbackHandler on that provider.
 */
export interface TracedLangchain {
  service: TestService;
  /** The service's client, to read back what was stored. */
  client: AqmClient;
  applicationId: string;
  processor: AqmSpanProcessor;
  provider: InstanceType<typeof BasicTracerProvider>;
  ended: InstanceType<typeof InMemorySpanExporter>;
  handler: AqmCallbackHandler;
  /** The trace id of the one ended span named `name`. */
  traceIdOf(name: string): string;
  /** Shuts the provider down, disables the context manager and closes the service. */
  close(): Promise<void>;
}

/**
 * Starts the pipeline, with an AsyncLocalStorage context manager set globally (so that spans nest
 * across awaits); `label` names the project and the application.
 *
 * @example
 * let lc: TracedLangchain;
 * beforeAll(async () => { lc = await startTracedLangchain('langchain-e2e'); });
 * afterAll(() => lc?.close());
 */
export async function startTracedLangchain(label: string): Promise<TracedLangchain> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const service = await startTestService(label);
  const applicationId = await service.createApp(label);
  const processor = new AqmSpanProcessor({ apiKey: service.apiKey, baseUrl: service.srv.url, applicationId });
  const ended = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [processor, new SimpleSpanProcessor(ended)] });
  return {
    service,
    client: service.client,
    applicationId,
    processor,
    provider,
    ended,
    handler: new AqmCallbackHandler({ tracerProvider: provider }),
    traceIdOf(name) {
      const spans = ended.getFinishedSpans().filter((span) => span.name === name);
      expect(spans, `spans named ${name}`).toHaveLength(1);
      return spans[0]!.spanContext().traceId;
    },
    close: async () => {
      await provider.shutdown();
      context.disable();
      await service.close();
    },
  };
}
