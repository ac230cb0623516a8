import { AqmSpanProcessor } from '@aqm/otel';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endLlmTrace, providerWith } from './helpers/llm-trace.js';
import { type RecordingProxy, startRecordingProxy } from './helpers/recording-proxy.js';
import { startTestService, type TestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

const RETRY_AFTER_S = 2;

describe('429 with Retry-After', () => {
  let service: TestService;
  let proxy: RecordingProxy;

  beforeAll(async () => {
    service = await startTestService('retry-after');
    proxy = await startRecordingProxy(service.srv.url);
  });

  afterAll(async () => {
    await proxy?.close();
    await service?.close();
  });

  it(`is waited out: the retry arrives ≥ ${RETRY_AFTER_S} s after the 429, and the trace is stored`, async () => {
    const applicationId = await service.createApp('retry-after');
    const processor = new AqmSpanProcessor({ apiKey: service.apiKey, baseUrl: proxy.url, applicationId });
    const provider = providerWith(processor);
    try {
      service.srv.setFaults({
        rules: [{ route: 'evaluations.submit', status: 429, retryAfter: RETRY_AFTER_S }],
      });
      const traceId = endLlmTrace(provider.getTracer('retry-after'), 'Slow down?', 'Sure.');
      await waitFor(() => service.srv.requestCount('evaluations.submit') >= 1, 'the first submission');
      // Only the first submission is refused.
      service.srv.setFaults(null);
      await provider.forceFlush();

      const [refused, retried, ...rest] = proxy.exchanges;
      expect(rest).toHaveLength(0);
      expect(refused?.status).toBe(429);
      expect(retried?.status).toBe(200);
      // Measured at the proxy: from the 429 leaving towards the exporter to the retry arriving.
      const waitedMs = retried!.arrivedAt - refused!.answeredAt!;
      expect(waitedMs).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
      expect(waitedMs).toBeLessThan(RETRY_AFTER_S * 1000 + 1500);
      expect(retried!.sentTraceIds).toEqual([traceId]);
      expect(processor.stats().retries).toBe(1);
      const stored = await service.client.traces.get(applicationId, traceId);
      expect(stored.prompt).toBe('Slow down?');
      console.info(`[retry-after] retry arrived ${waitedMs.toFixed(0)} ms after the 429`);
    } finally {
      service.srv.setFaults(null);
      await provider.shutdown();
    }
  }, 20_000);
});
