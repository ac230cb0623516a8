import { setTimeout as delay } from 'node:timers/promises';
import { context, type Span, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { AqmSpanProcessor } from '../src/processor.js';
import { aqmOptions, llmCall, registerProvider } from './export-helpers/otel-setup.js';
import { withFakeService } from './export-helpers/service-per-test.js';

const { service, cleanup } = withFakeService();

function setUp(options: Parameters<typeof aqmOptions>[1]) {
  const processor = new AqmSpanProcessor(aqmOptions(service(), options));
  const registration = registerProvider(processor);
  cleanup(() => registration.unregister());
  return processor;
}

/**
 * Lets every timer of `ms` or less that is already armed fire, with the work it queued: Node runs
 * timers in order of their deadline, and the microtasks of each callback before the next one.
 * Not a guess at timing: a 1 ms timer armed before this 20 ms one has fired when it resolves.
 */
async function afterTimersOf(ms: number): Promise<void> {
  await delay(ms * 20);
}

/** An LLM call in a request span that stays open (a root that has not ended); returns the root. */
async function llmCallUnderOpenRoot(prompt: string): Promise<Span> {
  const root = trace.getTracer('test').startSpan('handle request');
  await context.with(trace.setSpan(context.active(), root), () => llmCall(prompt, 'a'));
  return root;
}

describe('serverless: true', () => {
  it('control: without it, a partial batch leaves on its batchDelayMs timer', async () => {
    const processor = setUp({ batchDelayMs: 1 });
    await llmCall('first', 'a');
    await llmCall('second', 'b');
    expect(processor.stats().queuedTraces).toBe(2);
    await afterTimersOf(1);
    expect(processor.stats().inFlight + processor.stats().exportedTraces).toBe(2);
    await processor.forceFlush();
  });

  it('no timer sends a partial batch: the traces wait for forceFlush, which sends them in one request', async () => {
    const processor = setUp({ serverless: true, batchDelayMs: 1 });
    const prompts = ['one', 'two', 'three', 'four', 'five'];
    for (const prompt of prompts) await llmCall(prompt, `answer to ${prompt}`);
    await afterTimersOf(1);
    expect(processor.stats()).toMatchObject({ queuedTraces: 5, inFlight: 0, exportedTraces: 0 });
    expect(service().requests).toHaveLength(0);

    await processor.forceFlush();
    expect(service().batchSizes).toEqual([5]);
    expect(service().acceptedTraces.map((t) => t.prompt)).toEqual(prompts);
  });

  it('a full batch still goes at once, and the flush sends the rest in one more request', async () => {
    const processor = setUp({ serverless: true, maxBatchTraces: 2 });
    for (const prompt of ['one', 'two', 'three']) await llmCall(prompt, 'a');
    await service().waitFor(() => service().requests.length === 1);
    await processor.forceFlush();
    expect(service().batchSizes).toEqual([2, 1]);
  });

  it('control: without it, the idle timer completes a trace whose root has not ended', async () => {
    const processor = setUp({ traceIdleMs: 1, batchDelayMs: 0 });
    const root = await llmCallUnderOpenRoot('still open');
    expect(processor.stats().openTraces).toBe(1);
    await afterTimersOf(1);
    expect(processor.stats().openTraces).toBe(0);
    await processor.forceFlush();
    expect(service().acceptedTraces.map((t) => t.prompt)).toEqual(['still open']);
    void root; // left open: ending it now would be a late span
  });

  it('no idle timer completes a trace whose root has not ended: the flush does', async () => {
    const processor = setUp({ serverless: true, traceIdleMs: 1 });
    const root = await llmCallUnderOpenRoot('still open');
    await afterTimersOf(1);
    expect(processor.stats()).toMatchObject({ openTraces: 1, queuedTraces: 0 });
    await processor.forceFlush();
    expect(service().acceptedTraces.map((t) => t.prompt)).toEqual(['still open']);
    expect(processor.stats().openTraces).toBe(0);
    void root; // left open: ending it now would be a late span
  });
});
