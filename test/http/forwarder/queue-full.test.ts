import { describe, expect, it } from 'vitest';
import { waitFor } from '../otel/helpers/wait.js';
import { startForwarderBeforeHangingService } from './helpers/hanging-service.js';
import { llmTraceSpans, postOtlp, protoBody } from './helpers/otlp-bodies.js';

describe('when the service does not keep up', () => {
  it('answers 503 with Retry-After once its queue is full, so OTLP clients back off and resend', async () => {
    const stack = await startForwarderBeforeHangingService({ maxQueueTraces: 2 });
    const { forwarder } = stack;
    try {
      for (let i = 0; i < 2; i += 1) {
        const spans = llmTraceSpans(`held ${i}?`, `held ${i}.`).spans;
        expect((await postOtlp(forwarder.url, protoBody(spans))).status).toBe(200);
      }
      await waitFor(() => forwarder.stats().pipeline.queuedTraces === 2, 'two traces held');
      const refused = await postOtlp(forwarder.url, protoBody(llmTraceSpans('third?', 'third.').spans));
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      const json = await postOtlp(forwarder.url, Buffer.from('{}'), { contentType: 'application/json' });
      expect(json.status).toBe(503);
      expect(JSON.parse(json.text)).toMatchObject({
        code: 14,
        message: expect.stringMatching(/queue is full/),
      });
      expect(forwarder.stats()).toMatchObject({ refusedQueueFull: 2, receivedSpans: 6 });
      expect(forwarder.stats().pipeline.droppedTraces.total).toBe(0);
    } finally {
      const startedAt = Date.now();
      await forwarder.close();
      // Bounded by shutdownTimeoutMs even though the service never answers.
      expect(Date.now() - startedAt).toBeLessThan(5000);
      await stack.close();
    }
  });
});
