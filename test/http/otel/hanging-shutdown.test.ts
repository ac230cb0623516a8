import { performance } from 'node:perf_hooks';
import { AqmSpanProcessor } from '@aqm/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endLlmTraces, providerWith } from './helpers/llm-trace.js';
import { startTestService, type TestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const SHUTDOWN_TIMEOUT_MS = 1000;
const MARGIN_MS = 500;

describe('a hanging service', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('hang');
  });

  afterAll(async () => {
    await service?.close();
  });

  it(`does not hold shutdown() past shutdownTimeoutMs (${SHUTDOWN_TIMEOUT_MS} ms); undelivered traces count as dropped`, async () => {
    const applicationId = await service.createApp('hang');
    const processor = new AqmSpanProcessor({
      apiKey: service.apiKey,
      baseUrl: service.srv.url,
      applicationId,
      shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
      maxBatchTraces: 10,
    });
    const provider = providerWith(processor);
    service.srv.setFaults({ rules: [{ route: 'evaluations.submit', hang: true }] });
    const produced = endLlmTraces(provider.getTracer('hang'), 25, 'hang');
    // Both connections (concurrency 2) are now stuck in requests the service never answers.
    await waitFor(() => service.srv.requestCount('evaluations.submit') >= 2, 'two hanging submissions');
    expect(processor.stats().queuedTraces).toBe(produced.length);

    const started = performance.now();
    await provider.shutdown();
    const tookMs = performance.now() - started;

    expect(tookMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + MARGIN_MS);
    const stats = processor.stats();
    expect(stats.exportedTraces).toBe(0);
    expect(stats.droppedTraces.byReason.shutdown).toBe(produced.length);
    expect(stats.droppedTraces.total).toBe(produced.length);
    expect(stats.queuedTraces).toBe(0);
    console.info(`[hang] shutdown() took ${tookMs.toFixed(0)} ms with the service hanging`);
  }, 15_000);
});
