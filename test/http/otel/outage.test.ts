import { AqmSpanProcessor } from '@aqm/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endLlmTraces, providerWith } from './helpers/llm-trace.js';
import { type RecordingProxy, startRecordingProxy } from './helpers/recording-proxy.js';
import { sameMembers, startTestService, storedTraces, type TestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

/** Requests the exporter must have made during the outage before the service comes back. */
const FAILED_REQUESTS_BEFORE_RECOVERY = 6;

describe('the service down for a while (503 and connection resets), then back', () => {
  let service: TestService;
  let proxy: RecordingProxy;

  beforeAll(async () => {
    service = await startTestService('outage');
    proxy = await startRecordingProxy(service.srv.url);
  });

  afterAll(async () => {
    await proxy?.close();
    await service?.close();
  });

  it('every trace queued within the bounds arrives exactly once by traceId', async () => {
    const applicationId = await service.createApp('outage');
    const processor = new AqmSpanProcessor({
      apiKey: service.apiKey,
      baseUrl: proxy.url,
      applicationId,
      maxBatchTraces: 20,
      // Long enough that no batch is given up during this outage.
      maxRetryElapsedMs: 60_000,
    });
    const provider = providerWith(processor);
    const tracer = provider.getTracer('outage');
    try {
      // Half the submissions answered 503, the other half reset (the draws are seeded).
      service.srv.setFaults({
        seed: 7,
        rules: [
          { route: 'evaluations.submit', rate: 0.5, status: 503 },
          { route: 'evaluations.submit', reset: true },
        ],
      });
      const produced = endLlmTraces(tracer, 150, 'before');
      await waitFor(
        () => service.srv.requestCount('evaluations.submit') >= FAILED_REQUESTS_BEFORE_RECOVERY / 2,
        'the first failed submissions',
      );
      // More traces end while the service is still down.
      produced.push(...endLlmTraces(tracer, 150, 'during'));
      await waitFor(
        () => service.srv.requestCount('evaluations.submit') >= FAILED_REQUESTS_BEFORE_RECOVERY,
        `${FAILED_REQUESTS_BEFORE_RECOVERY} failed submissions`,
        30_000,
      );
      const failedExchanges = proxy.exchanges.length;
      expect(proxy.accepted.size).toBe(0);
      expect(proxy.exchanges.some((exchange) => exchange.status === 503)).toBe(true);
      expect(proxy.exchanges.some((exchange) => exchange.status === undefined)).toBe(true); // reset

      service.srv.setFaults(null);
      await provider.forceFlush();

      const stats = processor.stats();
      expect(stats.retries).toBeGreaterThanOrEqual(failedExchanges - 2);
      expect(stats.exportedTraces).toBe(produced.length);
      expect(stats.droppedTraces.total).toBe(0);
      // Exactly once, as the service answered: every produced traceId accepted once, nothing else.
      expect(proxy.accepted.size).toBe(produced.length);
      for (const traceId of produced) expect(proxy.accepted.get(traceId), traceId).toBe(1);
      const stored = await storedTraces(service.client, applicationId);
      expect(stored.total).toBe(produced.length);
      console.info(
        `[outage] ${produced.length} traces; ${failedExchanges} failed exchanges before recovery ` +
          `(${proxy.exchanges.filter((e) => e.status === 503).length} × 503, ` +
          `${proxy.exchanges.filter((e) => e.status === undefined).length} resets), ` +
          `${proxy.exchanges.length} exchanges in all, ${stats.retries} retries`,
      );
      expect(sameMembers(stored.traceIds, new Set(produced))).toBe(true);
    } finally {
      service.srv.setFaults(null);
      await provider.shutdown();
    }
  }, 60_000);
});
