import { performance } from 'node:perf_hooks';
import { AqmSpanExporter, AqmSpanProcessor } from '@aqm/otel';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endLlmTraces, providerWith } from './helpers/llm-trace.js';
import { sameMembers, startTestService, storedTraces, type TestService } from './helpers/service.js';

const TRACES = 20_000;
/** Queue bounds raised to hold the whole burst (each record is well under 2 KiB). */
const QUEUE = { maxQueueTraces: TRACES, maxQueueBytes: 256 * 1024 * 1024 };

function report(path: string, endedMs: number, flushedMs: number): void {
  console.info(
    `[burst] ${path}: ${TRACES} traces ended in ${endedMs.toFixed(0)} ms, delivered by forceFlush() after ${flushedMs.toFixed(0)} ms`,
  );
}

describe(`a burst of ${TRACES} two-span LLM traces ended in one synchronous loop, then provider.forceFlush()`, () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('burst');
  });

  afterAll(async () => {
    await service?.close();
  });

  async function expectAllStored(applicationId: string, produced: readonly string[]): Promise<void> {
    const stored = await storedTraces(service.client, applicationId);
    expect(stored.total).toBe(TRACES);
    expect(sameMembers(stored.traceIds, new Set(produced))).toBe(true);
  }

  it('AqmSpanProcessor: forceFlush() resolves once every trace is stored', async () => {
    const applicationId = await service.createApp('burst-processor');
    const processor = new AqmSpanProcessor({
      apiKey: service.apiKey,
      baseUrl: service.srv.url,
      applicationId,
      ...QUEUE,
    });
    const provider = providerWith(processor);
    try {
      const started = performance.now();
      const produced = endLlmTraces(provider.getTracer('burst'), TRACES, 'processor');
      const endedMs = performance.now() - started;
      expect(new Set(produced).size).toBe(TRACES);
      await provider.forceFlush();
      report('AqmSpanProcessor', endedMs, performance.now() - started);
      // Read right after the flush: "flushed" must already mean "delivered".
      const stats = processor.stats();
      expect(stats.exportedTraces).toBe(TRACES);
      expect(stats.droppedTraces.total).toBe(0);
      expect(stats.queuedTraces).toBe(0);
      await expectAllStored(applicationId, produced);
    } finally {
      await provider.shutdown();
    }
  }, 60_000);

  it('AqmSpanExporter behind a BatchSpanProcessor with a raised queue: forceFlush() means delivered', async () => {
    const applicationId = await service.createApp('burst-exporter');
    const exporter = new AqmSpanExporter({
      apiKey: service.apiKey,
      baseUrl: service.srv.url,
      applicationId,
      ...QUEUE,
    });
    // Two spans per trace: the span queue must hold the whole burst.
    const batch = new BatchSpanProcessor(exporter, { maxQueueSize: 2 * TRACES, maxExportBatchSize: 1000 });
    const provider = providerWith(batch);
    try {
      const started = performance.now();
      const produced = endLlmTraces(provider.getTracer('burst'), TRACES, 'exporter');
      const endedMs = performance.now() - started;
      await provider.forceFlush();
      report('BatchSpanProcessor(AqmSpanExporter)', endedMs, performance.now() - started);
      const stats = exporter.stats();
      expect(stats.exportedTraces).toBe(TRACES);
      expect(stats.droppedTraces.total).toBe(0);
      expect(stats.queuedTraces).toBe(0);
      await expectAllStored(applicationId, produced);
    } finally {
      await provider.shutdown();
    }
  }, 60_000);
});
