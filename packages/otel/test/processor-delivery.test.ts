import { context, SamplingDecision, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { AqmSpanProcessor } from '../src/processor.js';
import { acceptReply, deferred, type Reply } from './export-helpers/fake-service.js';
import { aqmOptions, llmCall, registerProvider, testInternals } from './export-helpers/otel-setup.js';
import { API_KEY } from './export-helpers/sender-setup.js';
import { withFakeService } from './export-helpers/service-per-test.js';

const { service, cleanup } = withFakeService();

/** A processor on a registered provider, undone after the test. */
function setUp(options: Parameters<typeof aqmOptions>[1] = {}, autoRelease = true) {
  const { time, logger, internals } = testInternals(autoRelease);
  const processor = new AqmSpanProcessor(aqmOptions(service(), options), internals);
  const registration = registerProvider(processor);
  cleanup(() => registration.unregister());
  return { processor, time, logger, provider: registration.provider };
}

/** Answers wait until the returned gate opens. */
function gateAnswers() {
  const gate = deferred();
  service().handler = async (request): Promise<Reply> => {
    await gate.promise;
    return acceptReply(request);
  };
  return gate;
}

describe('AqmSpanProcessor', () => {
  it('with the queue full, refuses LLM traces unmapped (queue-full) and still counts the rest as skipped', async () => {
    const gate = gateAnswers();
    const { processor } = setUp({ maxQueueTraces: 1 });
    await llmCall('first', 'held');
    await llmCall('second', 'refused');
    trace.getTracer('test').startSpan('GET /health').end();
    expect(processor.stats()).toMatchObject({
      queuedTraces: 1,
      skippedTraces: 1,
      droppedTraces: { total: 1, byReason: { 'queue-full': 1 } },
    });
    gate.resolve();
    await processor.forceFlush();
    expect(service().acceptedTraces.map((t) => t.prompt)).toEqual(['first']);
  });

  it('never makes the app wait: a span ends before any request is even sent', async () => {
    const gate = gateAnswers();
    const { processor } = setUp();
    const traceId = await llmCall('What is the refund policy?', 'Within 30 days.');
    // The span has ended and its trace is queued; the request leaves only afterwards.
    expect(service().requests).toHaveLength(0);
    expect(processor.stats()).toMatchObject({ queuedTraces: 1, exportedTraces: 0 });
    await service().waitFor(() => service().requests.length === 1);
    expect(processor.stats().inFlight).toBe(1);
    gate.resolve();
    await processor.forceFlush();
    const [stored] = service().acceptedTraces;
    expect(stored).toMatchObject({
      traceId,
      prompt: 'What is the refund policy?',
      response: 'Within 30 days.',
      model: 'gpt-4o-mini',
    });
    expect(processor.stats()).toMatchObject({ exportedTraces: 1, queuedTraces: 0 });
  });

  it('forceFlush resolves only once everything queued before it was accepted, open traces included', async () => {
    const gate = gateAnswers();
    const { processor } = setUp();
    const tracer = trace.getTracer('test');
    const ids = [await llmCall('one', '1'), await llmCall('two', '2')];
    // A trace whose root is still open: forceFlush completes it.
    const root = tracer.startSpan('request');
    const open = await context.with(trace.setSpan(context.active(), root), () => llmCall('three', '3'));
    expect(processor.stats().openTraces).toBe(1);
    let flushed = false;
    const flush = processor.forceFlush().then(() => {
      flushed = true;
    });
    await service().waitFor(() => service().requests.length >= 1);
    expect(flushed).toBe(false);
    gate.resolve();
    await flush;
    expect(new Set(service().accepted.keys())).toEqual(new Set([...ids, open]));
    expect(processor.stats()).toMatchObject({ exportedTraces: 3, openTraces: 0 });
    root.end();
  });

  it('takes only sampled spans', async () => {
    const { processor } = setUp();
    const tracer = trace.getTracer('test');
    // A span recorded but not sampled (SamplingDecision.RECORD) still reaches onEnd; it must be ignored.
    const recordOnly = new NodeTracerProvider({
      sampler: { shouldSample: () => ({ decision: SamplingDecision.RECORD }), toString: () => 'record-only' },
      spanProcessors: [processor],
    });
    const span = recordOnly.getTracer('test').startSpan('chat gpt-4o', {
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o' },
    });
    span.end();
    expect(processor.stats().openTraces).toBe(0);
    tracer.startSpan('unrelated').end();
    await processor.forceFlush();
    expect(processor.stats()).toMatchObject({ exportedTraces: 0, skippedTraces: 1 });
  });

  it('counts skipped, sampled-out and filtered traces, and sends when shouldExport throws', async () => {
    const { processor, logger } = setUp({
      shouldExport: (record) => {
        if (record.prompt === 'boom') throw new Error('predicate failed');
        return record.prompt !== 'secret';
      },
    });
    trace.getTracer('test').startSpan('GET /health').end();
    await llmCall('secret', 'x');
    await llmCall('boom', 'y');
    await llmCall('fine', 'z');
    await processor.forceFlush();
    expect(
      service()
        .acceptedTraces.map((t) => t.prompt)
        .sort(),
    ).toEqual(['boom', 'fine']);
    expect(processor.stats()).toMatchObject({
      exportedTraces: 2,
      skippedTraces: 1,
      filteredTraces: 1,
      sampledOutTraces: 0,
    });
    expect(
      logger.at('warn').some((m) => m.includes('shouldExport threw') && m.includes('predicate failed')),
    ).toBe(true);
  });

  it('leaves traces out by sampleRate before mapping them', async () => {
    const { processor } = setUp({ sampleRate: 0 });
    await llmCall('q', 'a');
    await processor.forceFlush();
    expect(processor.stats()).toMatchObject({ sampledOutTraces: 1, skippedTraces: 0, exportedTraces: 0 });
    expect(service().requests).toHaveLength(0);
  });

  it('pauses on 401 with one error that names AQM_API_KEY and never the key', async () => {
    let fixed = false;
    service().handler = (request): Reply =>
      fixed ? acceptReply(request) : { status: 401, body: { message: 'Invalid API key' } };
    const { processor, logger, time } = setUp({ maxBatchTraces: 1 }, false);
    await llmCall('a', '1');
    await llmCall('b', '2');
    await time.waitForSleepers(1);
    expect(logger.at('error')).toHaveLength(1);
    expect(logger.at('error')[0]).toContain('AQM_API_KEY');
    fixed = true;
    time.releaseAll();
    await processor.forceFlush();
    expect(service().accepted.size).toBe(2);
    expect(logger.text).not.toContain(API_KEY);
  });

  it('shutdown is bounded by shutdownTimeoutMs when the service hangs, and never rejects', async () => {
    service().handler = () => 'hang';
    const { processor } = setUp({ shutdownTimeoutMs: 200 });
    await llmCall('q', 'a');
    await service().waitFor(() => service().requests.length === 1);
    const started = Date.now();
    await expect(processor.shutdown()).resolves.toBeUndefined();
    expect(Date.now() - started).toBeLessThan(5000);
    expect(processor.stats().droppedTraces.byReason).toEqual({ shutdown: 1 });
    await service().waitFor(() => service().aborted === 1);
    // After shutdown, ended spans are ignored.
    await llmCall('late', 'x');
    expect(processor.stats()).toMatchObject({ queuedTraces: 0, openTraces: 0 });
  });
});
