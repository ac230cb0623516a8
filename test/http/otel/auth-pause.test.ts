import { randomUUID } from 'node:crypto';
import { AqmSpanProcessor } from '@aqm/otel';
import { diag } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureDiag, type DiagCapture } from './helpers/capture-diag.js';
import { endLlmTraces, providerWith } from './helpers/llm-trace.js';
import { sameMembers, startTestService, storedTraces, type TestService } from './helpers/service.js';
import { waitFor } from './helpers/wait.js';

describe('401 and 404: one clear error, then the traces queued meanwhile arrive once fixed', () => {
  let service: TestService;
  let logs: DiagCapture;

  beforeAll(async () => {
    service = await startTestService('auth');
  });

  afterEach(() => {
    diag.disable();
  });

  afterAll(async () => {
    await service?.close();
  });

  it('401: exactly one diag.error saying to check AQM_API_KEY, without the key; traces arrive after the key is added', async () => {
    logs = captureDiag();
    const applicationId = await service.createApp('wrong-key');
    const wrongKey = `not-yet-valid-${randomUUID()}`;
    const processor = new AqmSpanProcessor({ apiKey: wrongKey, baseUrl: service.srv.url, applicationId });
    const provider = providerWith(processor);
    const tracer = provider.getTracer('auth');
    try {
      const produced = endLlmTraces(tracer, 30, 'first');
      await waitFor(() => logs.at('error').length > 0, 'the 401 error');
      // Traces keep queueing while sending is paused.
      produced.push(...endLlmTraces(tracer, 30, 'meanwhile'));
      const submissionsBeforeFix = service.srv.requestCount('evaluations.submit');
      expect(processor.stats().queuedTraces).toBe(produced.length);
      service.srv.addApiKey({ key: wrongKey, projectId: service.projectId });
      await provider.forceFlush();

      const errors = logs.at('error');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/401/);
      expect(errors[0]).toContain('AQM_API_KEY');
      expect(logs.text).not.toContain(wrongKey);
      expect(submissionsBeforeFix).toBeGreaterThanOrEqual(1);
      expect(processor.stats().exportedTraces).toBe(produced.length);
      expect(processor.stats().droppedTraces.total).toBe(0);
      const stored = await storedTraces(service.client, applicationId);
      expect(sameMembers(stored.traceIds, new Set(produced))).toBe(true);
    } finally {
      await provider.shutdown();
    }
  }, 30_000);

  it('404: exactly one diag.error naming AQM_APPLICATION_ID; traces arrive once the application is accessible', async () => {
    logs = captureDiag();
    const applicationId = await service.createApp('other-project');
    // A valid key of another project: the application does not exist for it (404).
    const otherKey = `other-project-${randomUUID()}`;
    service.srv.addApiKey({ key: otherKey, projectId: `${service.projectId}-other` });
    const processor = new AqmSpanProcessor({ apiKey: otherKey, baseUrl: service.srv.url, applicationId });
    const provider = providerWith(processor);
    const tracer = provider.getTracer('auth');
    try {
      const produced = endLlmTraces(tracer, 30, 'first');
      await waitFor(() => logs.at('error').length > 0, 'the 404 error');
      produced.push(...endLlmTraces(tracer, 30, 'meanwhile'));
      expect(processor.stats().queuedTraces).toBe(produced.length);
      // Fixed on the service side: the key now belongs to the application's project.
      service.srv.addApiKey({ key: otherKey, projectId: service.projectId });
      await provider.forceFlush();

      const errors = logs.at('error');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/404/);
      expect(errors[0]).toContain('AQM_APPLICATION_ID');
      expect(errors[0]).toContain(applicationId);
      expect(logs.text).not.toContain(otherKey);
      expect(processor.stats().exportedTraces).toBe(produced.length);
      expect(processor.stats().droppedTraces.total).toBe(0);
      const stored = await storedTraces(service.client, applicationId);
      expect(sameMembers(stored.traceIds, new Set(produced))).toBe(true);
    } finally {
      await provider.shutdown();
    }
  }, 30_000);
});
