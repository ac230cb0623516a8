import { AqmSpanProcessor } from '@aqm/otel';
import { diag } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { captureDiag } from './helpers/capture-diag.js';
import { endLlmTrace, endLlmTraces, providerWith } from './helpers/llm-trace.js';
import {
  type ProxyInterceptor,
  type RecordingProxy,
  startRecordingProxy,
} from './helpers/recording-proxy.js';
import { sameMembers, startTestService, storedTraces, type TestService } from './helpers/service.js';

const LIMIT_BYTES = 64 * 1024;
const TOO_LARGE = { status: 413, body: { success: false, message: 'Request body too large' } };

/** Answers 413 to a body over `limit` bytes, forwards the rest. */
const sizeLimit =
  (limit: number): ProxyInterceptor =>
  (body) =>
    body.length > limit ? { answer: TOO_LARGE } : { forward: body };

describe('413 and 400 split as documented', () => {
  let service: TestService;
  const proxies: RecordingProxy[] = [];

  beforeAll(async () => {
    service = await startTestService('split');
  });

  afterEach(() => {
    diag.disable();
  });

  afterAll(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await service?.close();
  });

  async function proxyWith(intercept: ProxyInterceptor): Promise<RecordingProxy> {
    const proxy = await startRecordingProxy(service.srv.url, intercept);
    proxies.push(proxy);
    return proxy;
  }

  it(`413 above ${LIMIT_BYTES / 1024} KiB: batches are split until they fit, and an oversized trace is shrunk and still arrives`, async () => {
    const applicationId = await service.createApp('split-413');
    const proxy = await proxyWith(sizeLimit(LIMIT_BYTES));
    const processor = new AqmSpanProcessor({ apiKey: service.apiKey, baseUrl: proxy.url, applicationId });
    const provider = providerWith(processor);
    const tracer = provider.getTracer('split');
    try {
      // About 12 KiB per record (the text is in the prompt and again in the span attributes).
      const filler = 'lorem ipsum '.repeat(250);
      const produced = Array.from({ length: 40 }, (_, i) =>
        endLlmTrace(tracer, `Question ${i}: ${filler}`, `Answer ${i}: ${filler}`),
      );
      // Past maxValueChars (32768) and, even without its spans, past the limit.
      const hugeTraceId = endLlmTrace(
        tracer,
        `Huge question ${'q'.repeat(100_000)}`,
        `Huge answer ${'a'.repeat(100_000)}`,
      );
      await provider.forceFlush();

      const stats = processor.stats();
      expect(stats.droppedTraces.total).toBe(0);
      expect(stats.exportedTraces).toBe(produced.length + 1);
      expect(proxy.exchanges.filter((exchange) => exchange.status === 413).length).toBeGreaterThan(0);
      for (const exchange of proxy.exchanges.filter((e) => e.status === 200)) {
        expect(exchange.bodyBytes).toBeLessThanOrEqual(LIMIT_BYTES);
      }
      const stored = await storedTraces(service.client, applicationId);
      expect(sameMembers(stored.traceIds, new Set([...produced, hugeTraceId]))).toBe(true);
      const first = await service.client.traces.get(applicationId, produced[0]!);
      expect(first.prompt).toBe(`Question 0: ${filler}`);
      expect(first.spanCount).toBe(2);
      // The documented shrink: spans dropped first, then long values cut with a visible marker.
      const huge = await service.client.traces.get(applicationId, hugeTraceId);
      expect(huge.prompt.startsWith('Huge question qqq')).toBe(true);
      expect(huge.prompt).toMatch(/…\[cut \d+ chars\]$/);
      expect(huge.response).toMatch(/^Huge answer a+…\[cut \d+ chars\]$/);
      expect(huge.spanCount).toBe(0);
      expect(huge.metadata?.['aqm.droppedSpans']).toBe(2);
      console.info(
        `[413] ${proxy.exchanges.filter((e) => e.status === 413).length} answers 413, ` +
          `${proxy.exchanges.filter((e) => e.status === 200).length} accepted requests, largest accepted body ` +
          `${Math.max(...proxy.exchanges.filter((e) => e.status === 200).map((e) => e.bodyBytes))} bytes`,
      );
    } finally {
      await provider.shutdown();
    }
  }, 30_000);

  it('413 for every body: a single trace that cannot be made to fit is given up with reason too-large', async () => {
    const logs = captureDiag();
    const applicationId = await service.createApp('split-413-never');
    const proxy = await proxyWith(sizeLimit(0));
    const processor = new AqmSpanProcessor({ apiKey: service.apiKey, baseUrl: proxy.url, applicationId });
    const provider = providerWith(processor);
    try {
      const traceId = endLlmTrace(provider.getTracer('split'), 'Too big, whatever happens?', 'Yes.');
      await provider.forceFlush();
      const stats = processor.stats();
      expect(stats.droppedTraces.byReason['too-large']).toBe(1);
      expect(stats.exportedTraces).toBe(0);
      expect(proxy.exchanges.every((exchange) => exchange.status === 413)).toBe(true);
      expect(logs.text).toContain(traceId);
      expect((await storedTraces(service.client, applicationId)).total).toBe(0);
    } finally {
      await provider.shutdown();
    }
  }, 30_000);

  it('400 naming traces[i]: that trace alone is dropped (rejected), the others are stored, diag names the path', async () => {
    const logs = captureDiag();
    const applicationId = await service.createApp('split-400');
    let poisonedIndex: number | undefined;
    const proxy = await proxyWith((body) => {
      const parsed = JSON.parse(body.toString('utf8')) as {
        traces: Array<{ traceId: string; prompt: string }>;
      };
      const index = parsed.traces.findIndex((trace) => trace.prompt.includes('poison'));
      if (index === -1) return { forward: body };
      poisonedIndex = index;
      parsed.traces[index]!.traceId = 'poisoned-not-a-trace-id';
      return { forward: Buffer.from(JSON.stringify(parsed)) };
    });
    const processor = new AqmSpanProcessor({ apiKey: service.apiKey, baseUrl: proxy.url, applicationId });
    const provider = providerWith(processor);
    const tracer = provider.getTracer('split');
    try {
      const good = endLlmTraces(tracer, 6, 'good');
      const poisoned = endLlmTrace(tracer, 'Please swallow this poison pill', 'No.');
      good.push(...endLlmTraces(tracer, 5, 'more'));
      await provider.forceFlush();

      expect(poisonedIndex).toBe(6);
      const rejected = proxy.exchanges.find((exchange) => exchange.status === 400);
      const errors = (rejected?.answer as { errors?: Array<{ path: string }> } | undefined)?.errors ?? [];
      expect(errors.map((error) => error.path)).toEqual(['traces[6].traceId']);
      const stats = processor.stats();
      expect(stats.droppedTraces.byReason.rejected).toBe(1);
      expect(stats.droppedTraces.total).toBe(1);
      expect(stats.exportedTraces).toBe(good.length);
      const stored = await storedTraces(service.client, applicationId);
      expect(sameMembers(stored.traceIds, new Set(good))).toBe(true);
      expect(stored.traceIds.has(poisoned)).toBe(false);
      const report = logs.at('warn').find((message) => message.includes('rejected'));
      expect(report).toContain('traces[6].traceId');
      expect(report).toContain(poisoned);
    } finally {
      await provider.shutdown();
    }
  }, 30_000);
});
